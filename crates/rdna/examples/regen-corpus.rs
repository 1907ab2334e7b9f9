//! Regenerates the committed differential corpus in `data/corpus/`.
//!
//! `cargo run -p rdna --example regen-corpus` (needs llvm-mc 14 and the LLVM
//! oracle). For every opcode of the table it builds instruction forms (the
//! probe word, each printed modifier bit flipped, inline constants and a
//! literal in each source, the DPP16/DPP8/SDWA forms), lets LLVM's
//! disassembler print them, and then assembles that text with `llvm-mc
//! -show-encoding`. Each line `llvm-mc` assembles becomes a corpus entry:
//! the encoding llvm-mc produced and the text it printed. The default test
//! run decodes every entry and compares text and length, without LLVM.
//! It also rewrites `data/coverage.txt` from the result.

use std::collections::BTreeSet;

use rdna::table::{table, target_index, Spec};
use rdna::{oracle, Encoding, Target};

fn words_of(enc: Encoding) -> usize {
    match enc {
        Encoding::Sop1
        | Encoding::Sop2
        | Encoding::Sopk
        | Encoding::Sopc
        | Encoding::Sopp
        | Encoding::Vop1
        | Encoding::Vop2
        | Encoding::Vopc
        | Encoding::Vintrp => 1,
        _ => 2,
    }
}

fn bytes(w: u64, n: usize, tail: &[u32]) -> Vec<u8> {
    let mut v = (w as u32).to_le_bytes().to_vec();
    if n == 2 {
        v.extend_from_slice(&((w >> 32) as u32).to_le_bytes());
    }
    for t in tail {
        v.extend_from_slice(&t.to_le_bytes());
    }
    v
}

/// Source field positions for constant probes.
fn src_fields(enc: Encoding) -> &'static [(u32, u32)] {
    match enc {
        Encoding::Sop2 | Encoding::Sopc => &[(0, 8), (8, 8)],
        Encoding::Sop1 => &[(0, 8)],
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc => &[(0, 9)],
        Encoding::Vop3 | Encoding::Vop3p => &[(32, 9), (41, 9), (50, 9)],
        _ => &[],
    }
}

fn forms(target: Target) -> Vec<Vec<u8>> {
    let t = table();
    let mut out = Vec::new();
    let tail = [0x4048_f5c3u32, 0x0102_0304, 0x0506_0708];
    for info in &t.ops {
        if info.number[target_index(target) as usize].is_none() {
            continue;
        }
        let n = words_of(info.enc);
        // The probe word is for the gfx1013 number when both exist; use this
        // target's number.
        let base = info.base;
        out.push(bytes(base, n, &tail));
        if n == 1 && info.len == 8 {
            // A literal that also fits 16-bit opcodes (v_fmaak_f16).
            out.push(bytes(base, n, &[0x1234, 0, 0]));
        }
        let mut flips = 0;
        for b in 0..64 {
            if info.shown & (1u64 << b) != 0 && flips < 12 {
                // One flip per printed bit group is plenty; take every third bit.
                if b % 3 == 0 {
                    out.push(bytes(base ^ (1u64 << b), n, &tail));
                    flips += 1;
                }
            }
        }
        for (lo, bits) in src_fields(info.enc) {
            let used = info.ops.iter().any(|s| matches!(s, Spec::Field { .. }));
            if !used {
                continue;
            }
            for v in [128u64 + 7, 193, 242, 248, 255] {
                let v = if *bits == 8 && v > 255 { 255 } else { v };
                let m = ((1u64 << bits) - 1) << lo;
                out.push(bytes((base & !m) | (v << lo), n, &tail));
            }
        }
        if matches!(info.enc, Encoding::Vop3 | Encoding::Vop3p) {
            // SGPRs in each subset of the sources (carry-in/out, lane
            // selects and writelane take scalar operands only).
            for subset in 1..8u64 {
                let mut w = base;
                for (i, (lo, _)) in src_fields(info.enc).iter().enumerate() {
                    if subset & (1 << i) != 0 {
                        w = (w & !(0x1ff << lo)) | ((2 + 2 * i as u64) << lo);
                    }
                }
                out.push(bytes(w, n, &tail));
            }
            // Small values in every source: v_interp_*_e64 take a parameter
            // and an attribute there.
            for v in [0u64, 1] {
                let mut w = base;
                for (lo, _) in src_fields(info.enc) {
                    w = (w & !(0x1ff << lo)) | (v << lo);
                }
                out.push(bytes(w, n, &tail));
            }
        }
        if info.enc == Encoding::Vintrp {
            // v_interp_mov_f32 takes a parameter (p10, p20, p0) in vsrc.
            for p in 0..3 {
                out.push(bytes((base & !0xff) | p, n, &tail));
            }
        }
        if info.enc == Encoding::Mimg {
            // Every dimension, so that address counts match what llvm-mc
            // expects for MSAA, cube and array images.
            for dim in 0..8u64 {
                out.push(bytes((base & !(7 << 3)) | (dim << 3), n, &tail));
            }
        }
        if matches!(info.enc, Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc) {
            let w = base & !0x1ff;
            out.push(bytes(w | 0xfa, 1, &[0xff00_00e4 | (0x4 << 20), 0]));
            out.push(bytes(w | 0xfa, 1, &[0xa511_1102, 0]));
            // No source modifiers (integer opcodes take none), with
            // bound_ctrl and fi.
            out.push(bytes(w | 0xfa, 1, &[0x5a0c_1b02, 0]));
            out.push(bytes(w | 0xe9, 1, &[0x00fa_c688, 0]));
            // SDWA: VOP1 has no src1 fields.
            let (a, b) = if info.enc == Encoding::Vop1 {
                (0x0005_0402, 0x0086_0e02 & !0x0800)
            } else {
                (0x0605_0402, 0x0e86_0e02 & !0x0800_0800)
            };
            out.push(bytes(w | 0xf9, 1, &[a, 0]));
            out.push(bytes(w | 0xf9, 1, &[b, 0]));
        }
    }
    out
}

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/corpus");
    std::fs::create_dir_all(dir).expect("mkdir data/corpus");
    // (hex, text) -> mask of the configurations that hold it.
    let mut merged: std::collections::BTreeMap<(String, String), u8> = Default::default();
    for (ci, (target, wave)) in rdna::coverage::CONFIGS.iter().copied().enumerate() {
        {
            let bufs = forms(target);
            let ans = oracle::query(target, wave, &bufs).expect("LLVM oracle");
            let mut texts = BTreeSet::new();
            for (a, b) in ans.into_iter().zip(&bufs) {
                if a.len > 0 && !a.text.contains("/*") && !a.text.contains(';') {
                    // LLVM prints a few VOP3 forms without `_e64` (v_nop);
                    // that text assembles to the VOP1 form, so also ask for
                    // the VOP3 one by name.
                    let w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    let (mn, rest) = a.text.split_once(' ').unwrap_or((&a.text, ""));
                    if w >> 26 == 0x35 && !mn.ends_with("_e64") {
                        texts.insert(format!("{mn}_e64 {rest}").trim_end().to_string());
                    }
                    texts.insert(a.text);
                }
            }
            let input: String = texts.iter().map(|t| format!("{t}\n")).collect();
            let stdout = rdna::oracle::llvm_mc(target, wave, "-show-encoding", input)
                .expect("llvm-mc 14 on PATH");
            let mut lines = Vec::new();
            for l in stdout.lines() {
                let Some((text, enc)) = l.split_once("; encoding: [") else {
                    continue;
                };
                let hex: String = enc
                    .trim_end_matches(']')
                    .split(',')
                    .map(|b| b.trim().trim_start_matches("0x").to_string())
                    .map(|b| if b.len() == 1 { format!("0{b}") } else { b })
                    .collect();
                lines.push(format!("{hex}\t{}", text.trim()));
            }
            // The expected text is what LLVM's disassembler prints for the
            // bytes llvm-mc produced (the assembler accepts a few aliases,
            // such as buffer_wbinvl1, that disassemble under another name).
            let bufs: Vec<Vec<u8>> = lines
                .iter()
                .map(|l| {
                    let h = l.split('\t').next().unwrap_or("");
                    (0..h.len() / 2)
                        .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap_or(0))
                        .collect()
                })
                .collect();
            let dis = oracle::query(target, wave, &bufs).expect("LLVM oracle");
            let mut lines: Vec<String> = lines
                .iter()
                .zip(dis)
                .zip(&bufs)
                .filter(|((_, d), b)| d.len as usize == b.len())
                .map(|((l, d), _)| format!("{}\t{}", l.split('\t').next().unwrap_or(""), d.text))
                .collect();
            lines.sort();
            lines.dedup();
            eprintln!("{} {wave:?}: {} entries", target.name(), lines.len());
            for l in lines {
                let (h, t) = l.split_once('\t').unwrap_or((&l, ""));
                *merged.entry((h.to_string(), t.to_string())).or_default() |= 1 << ci;
            }
        }
    }
    let mut body = String::from(
        "# llvm-mc 14 corpus: mask<TAB>encoding<TAB>text; mask bits 1 gfx1013 wave32, 2 gfx1013 wave64,\n\
         # 4 gfx1030 wave32, 8 gfx1030 wave64. Regenerate with `cargo run -p rdna --example regen-corpus`\n",
    );
    for ((h, t), m) in &merged {
        body.push_str(&format!("{m:x}\t{h}\t{t}\n"));
    }
    let path = format!("{dir}/all.txt");
    std::fs::write(&path, body).expect("write corpus");
    eprintln!("{path}: {} lines", merged.len());
}
