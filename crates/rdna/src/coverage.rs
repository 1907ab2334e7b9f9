//! The ISA coverage report: per encoding and target, how many mnemonics
//! LLVM's AMDGPU syntax docs list (restricted to those llvm-mc 14 knows for
//! the target) and how many of those we decode and print identically.
//!
//! The denominator is `data/docs.txt`, derived from the docs by
//! `examples/gen-docs.rs`. The evidence is the differential corpus
//! (`data/corpus/all.txt`, see [`split_corpus`]): `hex-encoding<TAB>text`, produced by
//! `llvm-mc -show-encoding` for every instruction form the generator builds
//! (see `examples/regen-corpus.rs`). A listed mnemonic counts as identical
//! when the corpus has entries for it and every one decodes to exactly
//! LLVM's text and length, in both wave sizes. Mnemonics the corpus has but
//! the docs do not list (llvm-mc 14 accepts a few more) are reported apart.

use std::collections::{BTreeMap, BTreeSet};

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
    /// Mnemonics that are not identical yet (or have no corpus entry).
    pub missing: Vec<String>,
    /// Mnemonics outside the docs lists that the corpus holds, with whether
    /// we print them identically; not counted in `accepted`.
    pub beyond_docs: Vec<(String, bool)>,
}

/// The committed coverage denominator (`data/docs.txt`): target, report
/// row and mnemonic as the docs spell it.
pub fn docs_denominator() -> Vec<(Target, &'static str, &'static str)> {
    include_str!("../data/docs.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let t = Target::from_name(it.next()?)?;
            Some((t, it.next()?, it.next()?))
        })
        .collect()
}

/// A mnemonic without its `_e32`/`_e64` encoding suffix: the docs and
/// LLVM's printer do not always agree on it (`v_nop` vs `v_nop_e64`).
fn base_mnemonic(m: &str) -> &str {
    m.strip_suffix("_e32")
        .or_else(|| m.strip_suffix("_e64"))
        .unwrap_or(m)
}

fn parse_hex(h: &str) -> Option<Vec<u8>> {
    (0..h.len() / 2)
        .map(|i| u8::from_str_radix(h.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

/// The four corpus configurations, in the order of the bits of the merged
/// corpus's mask column: gfx1013 wave32 (1), gfx1013 wave64 (2), gfx1030
/// wave32 (4), gfx1030 wave64 (8).
pub const CONFIGS: [(Target, WaveSize); 4] = [
    (Target::Gfx1013, WaveSize::Wave32),
    (Target::Gfx1013, WaveSize::Wave64),
    (Target::Gfx1030, WaveSize::Wave32),
    (Target::Gfx1030, WaveSize::Wave64),
];

/// Splits the merged corpus (`mask<TAB>hex<TAB>text` lines, `mask` a hex
/// digit of [`CONFIGS`] bits) into one `hex<TAB>text` corpus per
/// configuration.
pub fn split_corpus(merged: &str) -> [String; 4] {
    let mut out: [String; 4] = Default::default();
    for l in merged.lines().filter(|l| !l.starts_with('#')) {
        let Some((m, rest)) = l.split_once('\t') else {
            continue;
        };
        let Ok(mask) = u8::from_str_radix(m, 16) else {
            continue;
        };
        for (i, o) in out.iter_mut().enumerate() {
            if mask & (1 << i) != 0 {
                o.push_str(rest);
                o.push('\n');
            }
        }
    }
    out
}

static SPLIT: std::sync::OnceLock<[String; 4]> = std::sync::OnceLock::new();

/// The committed corpora (target, wave, text), split from the merged
/// `data/corpus/all.txt` on first use.
pub fn committed_corpora() -> [(Target, WaveSize, &'static str); 4] {
    let s = SPLIT.get_or_init(|| split_corpus(include_str!("../data/corpus/all.txt")));
    [0, 1, 2, 3].map(|i| (CONFIGS[i].0, CONFIGS[i].1, s[i].as_str()))
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

/// Computes the report from corpora against the docs denominator.
pub fn report(corpora: &[(Target, WaveSize, &str)]) -> Vec<Row> {
    // (target, row, base mnemonic) -> (printed mnemonic, all identical?)
    let mut seen: BTreeMap<(u8, String, String), (String, bool)> = BTreeMap::new();
    let mut targets = BTreeSet::new();
    for (target, wave, corpus) in corpora {
        let ti = crate::table::target_index(*target);
        targets.insert(ti);
        for (bytes, text) in entries(corpus) {
            let ok = matches!(decode_strict(&bytes, *target, *wave),
                Ok(i) if i.len == bytes.len() && i.text == text);
            let mn = text.split_whitespace().next().unwrap_or("");
            let key = (
                ti,
                row_name(&bytes, text, *target, *wave),
                base_mnemonic(mn).to_string(),
            );
            let e = seen.entry(key).or_insert((mn.to_string(), true));
            e.1 &= ok;
        }
    }
    // (target, row) -> (docs mnemonic, identical?)
    let mut rows: BTreeMap<(u8, String), Vec<(String, bool)>> = BTreeMap::new();
    let mut listed = BTreeSet::new();
    for (target, row, mn) in docs_denominator() {
        let ti = crate::table::target_index(target);
        if !targets.contains(&ti) {
            continue;
        }
        let key = (ti, row.to_string(), base_mnemonic(mn).to_string());
        let ok = seen.get(&key).is_some_and(|v| v.1);
        listed.insert(key);
        rows.entry((ti, row.to_string()))
            .or_default()
            .push((mn.to_string(), ok));
    }
    let mut beyond: BTreeMap<(u8, String), Vec<(String, bool)>> = BTreeMap::new();
    for (key, (printed, ok)) in &seen {
        if !listed.contains(key) {
            beyond
                .entry((key.0, key.1.clone()))
                .or_default()
                .push((printed.clone(), *ok));
        }
    }
    for k in beyond.keys() {
        rows.entry(k.clone()).or_default();
    }
    rows.into_iter()
        .map(|((t, enc), mns)| Row {
            target: if t == 0 {
                Target::Gfx1013
            } else {
                Target::Gfx1030
            },
            accepted: mns.len(),
            identical: mns.iter().filter(|v| v.1).count(),
            missing: mns.iter().filter(|v| !v.1).map(|v| v.0.clone()).collect(),
            beyond_docs: beyond.remove(&(t, enc.clone())).unwrap_or_default(),
            encoding: enc,
        })
        .collect()
}

/// Renders the report as a text table (the committed `data/coverage.txt`).
pub fn render(rows: &[Row]) -> String {
    let mut s = String::from(
        "# RDNA ISA coverage. accepted: mnemonics of LLVM's AMDGPU syntax docs that llvm-mc 14\n\
         # knows for the target (data/docs.txt); identical: those whose every corpus entry\n\
         # (llvm-mc -show-encoding over the generated forms) we decode and print as LLVM does.\n\
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
    for r in rows {
        if !r.beyond_docs.is_empty() {
            let names: Vec<String> = r
                .beyond_docs
                .iter()
                .map(|(m, ok)| {
                    if *ok {
                        m.clone()
                    } else {
                        format!("{m}(differs)")
                    }
                })
                .collect();
            s.push_str(&format!(
                "# beyond the docs {} {}: {}\n",
                r.encoding,
                r.target.name(),
                names.join(" ")
            ));
        }
    }
    s
}
