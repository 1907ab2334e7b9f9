//! The ISA coverage report: per encoding and target, how many mnemonics
//! LLVM 14 assembles and how many of those we decode and print identically.
//!
//! The input is the differential corpus (`data/corpus/*.txt`): lines of
//! `hex-encoding<TAB>text`, produced by `llvm-mc -show-encoding` for every
//! instruction form the generator builds (see `examples/regen-corpus.rs`).
//! A mnemonic counts as identical when every corpus entry of it decodes to
//! exactly LLVM's text and length, in both wave sizes.

use std::collections::BTreeMap;

use crate::decode::{decode_strict, encoding_of, Form};
use crate::{Target, WaveSize};

/// One corpus entry that does not decode to LLVM's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The instruction bytes.
    pub bytes: Vec<u8>,
    /// What LLVM prints.
    pub expected: String,
    /// What we print (or the decode error).
    pub got: String,
}

/// One row of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Encoding name as in LLVM's syntax docs (`VOP3`, `DPP16`, `SDWA` …).
    pub encoding: String,
    /// The target.
    pub target: Target,
    /// Mnemonics LLVM 14 assembles for the target in this encoding.
    pub accepted: usize,
    /// Of those, mnemonics we decode and print identically.
    pub identical: usize,
    /// Mnemonics that are not identical yet.
    pub missing: Vec<String>,
}

fn parse_hex(h: &str) -> Option<Vec<u8>> {
    (0..h.len() / 2)
        .map(|i| u8::from_str_radix(h.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

/// The committed corpora (target, wave, text).
pub fn committed_corpora() -> [(Target, WaveSize, &'static str); 4] {
    [
        (
            Target::Gfx1013,
            WaveSize::Wave32,
            include_str!("../data/corpus/gfx1013-w32.txt"),
        ),
        (
            Target::Gfx1013,
            WaveSize::Wave64,
            include_str!("../data/corpus/gfx1013-w64.txt"),
        ),
        (
            Target::Gfx1030,
            WaveSize::Wave32,
            include_str!("../data/corpus/gfx1030-w32.txt"),
        ),
        (
            Target::Gfx1030,
            WaveSize::Wave64,
            include_str!("../data/corpus/gfx1030-w64.txt"),
        ),
    ]
}

/// Iterates over the entries of a corpus text: (bytes, expected text).
pub fn entries(corpus: &str) -> impl Iterator<Item = (Vec<u8>, &str)> {
    corpus
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (h, t) = l.split_once('\t')?;
            Some((parse_hex(h)?, t))
        })
}

/// Decodes every entry; returns the ones that differ from LLVM.
pub fn check(corpus: &str, target: Target, wave: WaveSize) -> (usize, Vec<Mismatch>) {
    let mut n = 0;
    let mut bad = Vec::new();
    for (bytes, text) in entries(corpus) {
        n += 1;
        let got = match decode_strict(&bytes, target, wave) {
            Ok(i) if i.len == bytes.len() && i.text == text => continue,
            Ok(i) => format!("[{}] {}", i.len, i.text),
            Err(e) => format!("error: {e}"),
        };
        bad.push(Mismatch {
            bytes,
            expected: text.to_string(),
            got,
        });
    }
    (n, bad)
}

/// The report row name of an instruction: its encoding, or the extended
/// form for DPP16/DPP8/SDWA (as LLVM's syntax docs group them).
fn row_name(bytes: &[u8], text: &str, target: Target, wave: WaveSize) -> String {
    if let Ok(i) = decode_strict(bytes, target, wave) {
        return match i.form {
            Form::Dpp16 => "DPP16".into(),
            Form::Dpp8 => "DPP8".into(),
            Form::Sdwa => "SDWA".into(),
            _ => i.encoding.name().into(),
        };
    }
    let mn = text.split_whitespace().next().unwrap_or("");
    if mn.ends_with("_sdwa") {
        return "SDWA".into();
    }
    if mn.ends_with("_dpp") {
        return if text.contains("dpp8:") {
            "DPP8".into()
        } else {
            "DPP16".into()
        };
    }
    let w = bytes
        .get(..4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .unwrap_or(0);
    encoding_of(w)
        .map(|e| e.name().to_string())
        .unwrap_or_else(|| "?".into())
}

/// Computes the report from corpora.
pub fn report(corpora: &[(Target, WaveSize, &str)]) -> Vec<Row> {
    // (target, encoding) -> mnemonic -> all identical?
    let mut acc: BTreeMap<(u8, String), BTreeMap<String, bool>> = BTreeMap::new();
    for (target, wave, corpus) in corpora {
        for (bytes, text) in entries(corpus) {
            let ok = matches!(decode_strict(&bytes, *target, *wave),
                Ok(i) if i.len == bytes.len() && i.text == text);
            let mn = text.split_whitespace().next().unwrap_or("").to_string();
            let key = (
                crate::table::target_index(*target),
                row_name(&bytes, text, *target, *wave),
            );
            let e = acc.entry(key).or_default().entry(mn).or_insert(true);
            *e &= ok;
        }
    }
    acc.into_iter()
        .map(|((t, enc), mns)| Row {
            encoding: enc,
            target: if t == 0 {
                Target::Gfx1013
            } else {
                Target::Gfx1030
            },
            accepted: mns.len(),
            identical: mns.values().filter(|v| **v).count(),
            missing: mns
                .iter()
                .filter(|(_, v)| !**v)
                .map(|(k, _)| k.clone())
                .collect(),
        })
        .collect()
}

/// Renders the report as a text table (the committed `data/coverage.txt`).
pub fn render(rows: &[Row]) -> String {
    let mut s = String::from(
        "# RDNA ISA coverage: mnemonics LLVM 14 assembles (llvm-mc -show-encoding over the\n\
         # generated instruction forms) and those we decode and print identically.\n\
         # Regenerate: cargo run -p rdna --example regen-corpus && cargo run -p rdna --example coverage\n",
    );
    s.push_str(&format!(
        "{:<8} {:>8} {:>8} {:>10} {:>8}\n",
        "encoding", "target", "accepted", "identical", "percent"
    ));
    let mut tot = [(0usize, 0usize); 2];
    for r in rows {
        let ti = crate::table::target_index(r.target) as usize;
        tot[ti].0 += r.accepted;
        tot[ti].1 += r.identical;
        s.push_str(&format!(
            "{:<8} {:>8} {:>8} {:>10} {:>7.2}%\n",
            r.encoding,
            r.target.name(),
            r.accepted,
            r.identical,
            100.0 * r.identical as f64 / r.accepted.max(1) as f64
        ));
    }
    for (i, t) in [Target::Gfx1013, Target::Gfx1030].iter().enumerate() {
        s.push_str(&format!(
            "{:<8} {:>8} {:>8} {:>10} {:>7.2}%\n",
            "TOTAL",
            t.name(),
            tot[i].0,
            tot[i].1,
            100.0 * tot[i].1 as f64 / tot[i].0.max(1) as f64
        ));
    }
    for r in rows {
        if !r.missing.is_empty() {
            s.push_str(&format!(
                "# not identical {} {}: {}\n",
                r.encoding,
                r.target.name(),
                r.missing.join(" ")
            ));
        }
    }
    s
}
