//! Decodes real gfx1013 code: the AGC shader records built by OpenAGC's
//! compiler (Mesa ACO), kept in the shared data folder.

use std::path::Path;

use rdna::{decode_strict, decode_wave, disassemble, Target, WaveSize};

const DIR: &str = "/work/shared/data/agc-shaders";

/// The code of a record: its code field (offset 0x10) is an offset from the
/// record start in these files (FACTS.md); the code runs to `s_endpgm`.
fn code(rec: &[u8]) -> &[u8] {
    let off = u32::from_le_bytes([rec[0x10], rec[0x11], rec[0x12], rec[0x13]]) as usize;
    &rec[off.min(rec.len())..]
}

#[test]
fn real_records_decode_fully() {
    let Ok(rd) = std::fs::read_dir(DIR) else {
        eprintln!("skipped: {DIR} not present");
        return;
    };
    let mut n = 0;
    for e in rd.flatten() {
        let p = e.path();
        if p.extension().and_then(|x| x.to_str()) != Some("sb") {
            continue;
        }
        let rec = std::fs::read(&p).unwrap();
        assert_eq!(
            &rec[..4],
            &[0x31, 0x32, 0x33, 0x34],
            "{}: not an AGC record",
            p.display()
        );
        let code = code(&rec);
        let mut pos = 0;
        let mut ended = false;
        while pos + 4 <= code.len() {
            let i = decode_wave(&code[pos..], Target::Gfx1013, WaveSize::Wave64)
                .unwrap_or_else(|e| panic!("{} +{pos:#x}: {e}", p.display()));
            n += 1;
            pos += i.len;
            // NGG front halves end by jumping to the back half.
            if i.text == "s_endpgm" || i.text == "s_code_end" || i.text.starts_with("s_setpc_b64") {
                ended = true;
                break;
            }
        }
        assert!(ended, "{}: no s_endpgm", p.display());
    }
    assert!(n > 100, "only {n} instructions decoded");
}

#[test]
fn aco_unused_vop3_source_field_is_a_documented_disagreement() {
    // v_lshlrev_b64 from fill_color.sb: src2 holds 0x80 (inline 0) though the opcode
    // has two sources. LLVM 14 prints `.long`; the hardware ignores it.
    let path = Path::new(DIR).join("fill_color.sb");
    let Ok(rec) = std::fs::read(&path) else {
        eprintln!("skipped: {} not present", path.display());
        return;
    };
    let code = code(&rec);
    let words: Vec<u32> = code
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let at = words
        .windows(2)
        .position(|w| w[0] == 0xd6ff_0000 && w[1] == 0x0202_0082);
    let at = at.expect("the v_lshlrev_b64 word pair is in fill_color.sb") * 4;
    let lenient = decode_wave(&code[at..], Target::Gfx1013, WaveSize::Wave64).unwrap();
    assert!(lenient.llvm_rejects);
    assert_eq!(lenient.text, "v_lshlrev_b64 v[0:1], 2, v[0:1]");
    assert!(decode_strict(&code[at..], Target::Gfx1013, WaveSize::Wave64).is_err());
    let text = disassemble(code, Target::Gfx1013, WaveSize::Wave64, 0);
    assert!(text.contains("v_lshlrev_b64 v[0:1], 2, v[0:1]"));
}
