//! Derives the coverage denominator, `data/docs.txt`, from LLVM's AMDGPU
//! assembler syntax docs: `cargo run -p rdna --example gen-docs`.
//!
//! Inputs are the reStructuredText sources that Debian ships in the
//! `llvm-14-doc` and `llvm-15-doc` packages (`apt-get install llvm-14-doc
//! llvm-15-doc`; other locations with `--llvm14 DIR --llvm15 DIR`):
//!
//! - LLVM 14: `AMDGPUAsmGFX10.rst` (the GFX10 instruction lists). LLVM 14
//!   has no page for gfx1013 or gfx1030.
//! - LLVM 15: `AMDGPUAsmGFX1013.rst` (the gfx1013 additions: BVH ray
//!   intersection, `image_msaa_load`) and `AMDGPUAsmGFX1030.rst` (the full
//!   gfx1030 lists), the first release that documents those targets.
//!
//! gfx1013 takes GFX10 + GFX1013, gfx1030 takes GFX10 + GFX1030. Each listed
//! mnemonic is then put to `llvm-mc` 14 for the target: one that it reports
//! as an invalid instruction, or as not supported on this GPU (or as a
//! DPP/SDWA variant it does not support), is dropped and listed as a
//! comment. Everything else (accepted, or refused only for its missing
//! operands) is in the denominator. Rows are named as in the coverage
//! report: the docs' FLAT list is split into FLAT, GLOBAL and SCRATCH.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// (section, mnemonic) for every instruction line of a syntax page.
fn extract(text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut section: Option<String> = None;
    let mut literal = false;
    for (i, l) in lines.iter().enumerate() {
        let underline = lines
            .get(i + 1)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c == '-'));
        if underline && !l.trim().is_empty() && !l.starts_with(' ') {
            section = Some(l.trim().to_string());
            literal = false;
            continue;
        }
        if l.starts_with(".. parsed-literal::") {
            literal = true;
            continue;
        }
        if l.starts_with("..") {
            literal = false;
            continue;
        }
        let Some(sec) = &section else { continue };
        if !literal || !l.starts_with("    ") || l.starts_with("     ") {
            continue;
        }
        let Some(tok) = l.split_whitespace().next() else {
            continue;
        };
        let ok = tok.starts_with(|c: char| c.is_ascii_lowercase())
            && tok
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if ok {
            out.push((sec.clone(), tok.to_string()));
        }
    }
    out
}

/// The report row of a docs entry.
fn row(section: &str, mn: &str) -> String {
    if section == "FLAT" {
        if mn.starts_with("global_") {
            return "GLOBAL".into();
        }
        if mn.starts_with("scratch_") {
            return "SCRATCH".into();
        }
    }
    section.to_string()
}

/// What llvm-mc 14 says about each bare mnemonic: `None` when it knows it
/// for the target, else the error.
fn probe(target: &str, mns: &[String]) -> Vec<Option<String>> {
    let mut child = Command::new("llvm-mc")
        .args(["-arch=amdgcn", &format!("-mcpu={target}"), "-show-encoding"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc 14 on PATH");
    let input: String = mns.iter().map(|m| format!("{m}\n")).collect();
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("llvm-mc");
    writer.join().expect("writer").expect("write to llvm-mc");
    let mut res = vec![None; mns.len()];
    for l in String::from_utf8_lossy(&out.stderr).lines() {
        let Some(rest) = l.strip_prefix("<stdin>:") else {
            continue;
        };
        let mut it = rest.splitn(3, ':');
        let (Some(line), Some(_), Some(msg)) = (it.next(), it.next(), it.next()) else {
            continue;
        };
        let Ok(n) = line.parse::<usize>() else {
            continue;
        };
        let msg = msg.trim().trim_start_matches("error: ").to_string();
        let refused = msg == "invalid instruction"
            || msg.contains("not supported on this GPU")
            || msg.contains("variant of this instruction is not supported");
        if refused && n >= 1 && n <= mns.len() {
            res[n - 1] = Some(msg);
        }
    }
    res
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = |flag: &str, default: &str| -> PathBuf {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(default))
    };
    let d14 = dir(
        "--llvm14",
        "/usr/share/doc/llvm-14-doc/html/_sources/AMDGPU",
    );
    let d15 = dir(
        "--llvm15",
        "/usr/share/doc/llvm-15-doc/html/_sources/AMDGPU",
    );
    let read = |d: &Path, name: &str| -> String {
        let p = d.join(format!("{name}.rst.txt"));
        std::fs::read_to_string(&p)
            .or_else(|_| std::fs::read_to_string(d.join(format!("{name}.rst"))))
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    };
    let gfx10 = extract(&read(&d14, "AMDGPUAsmGFX10"));
    let gfx1013 = extract(&read(&d15, "AMDGPUAsmGFX1013"));
    let gfx1030 = extract(&read(&d15, "AMDGPUAsmGFX1030"));
    let mut body = String::from(
        "# Coverage denominator: the instruction lists of LLVM's AMDGPU assembler syntax docs,\n\
         # restricted to the mnemonics llvm-mc 14 knows for the target.\n\
         # gfx1013: LLVM 14 AMDGPUAsmGFX10.rst + LLVM 15 AMDGPUAsmGFX1013.rst;\n\
         # gfx1030: LLVM 14 AMDGPUAsmGFX10.rst + LLVM 15 AMDGPUAsmGFX1030.rst\n\
         # (LLVM 14 has no gfx1013/gfx1030 pages; Debian packages llvm-14-doc 14.0.6, llvm-15-doc 15.0.6).\n\
         # Regenerate: cargo run -p rdna --example gen-docs\n\
         # target row mnemonic\n",
    );
    let mut dropped = String::new();
    for (target, extra) in [("gfx1013", &gfx1013), ("gfx1030", &gfx1030)] {
        let entries: BTreeSet<(String, String)> = gfx10
            .iter()
            .chain(extra.iter())
            .map(|(s, m)| (row(s, m), m.clone()))
            .collect();
        let entries: Vec<(String, String)> = entries.into_iter().collect();
        // Bare VOP1/VOP2/VOPC names are the 32-bit encodings.
        let asked: Vec<String> = entries
            .iter()
            .map(|(r, m)| {
                if matches!(r.as_str(), "VOP1" | "VOP2" | "VOPC") && !m.ends_with("_e32") {
                    format!("{m}_e32")
                } else {
                    m.clone()
                }
            })
            .collect();
        let verdict = probe(target, &asked);
        let mut kept = 0;
        for ((r, m), v) in entries.iter().zip(&verdict) {
            match v {
                None => {
                    body.push_str(&format!("{target} {r} {m}\n"));
                    kept += 1;
                }
                Some(e) => dropped.push_str(&format!("# dropped {target} {r} {m}: {e}\n")),
            }
        }
        eprintln!("{target}: {} listed, {kept} kept", entries.len());
    }
    body.push_str(&dropped);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/docs.txt");
    std::fs::write(path, body).expect("write data/docs.txt");
    eprintln!("wrote {path}");
}
