//! When llvm-mc 14 is on the machine, the committed corpus is checked against it live:
//! a sample of entries per configuration is disassembled by llvm-mc and by us, and the
//! texts must be equal. Without llvm-mc the test says why it skips.

use rdna::{Target, WaveSize};
use std::process::Command;

fn llvm_mc_available() -> bool {
    Command::new("llvm-mc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// llvm-mc's disassembly of one instruction per input line.
fn llvm_disassemble(target: Target, wave: WaveSize, words: &[Vec<u8>]) -> Vec<String> {
    let mut input = String::new();
    for w in words {
        let hex: Vec<String> = w.iter().map(|b| format!("{b:#04x}")).collect();
        input.push_str(&hex.join(" "));
        input.push('\n');
    }
    rdna::oracle::llvm_mc(target, wave, "-disassemble", input)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with('\t') && !l.trim_start().starts_with('.'))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn committed_corpus_agrees_with_the_installed_llvm_mc() {
    if !llvm_mc_available() {
        eprintln!(
            "skipping committed_corpus_agrees_with_the_installed_llvm_mc: llvm-mc is not installed"
        );
        return;
    }
    for (target, wave, corpus) in rdna::coverage::committed_corpora() {
        // Every 50th entry: a spread over all encodings, a few hundred per configuration.
        let sample: Vec<(Vec<u8>, String)> = rdna::coverage::entries(corpus)
            .step_by(50)
            .map(|(b, t)| (b, t.to_string()))
            .collect();
        let words: Vec<Vec<u8>> = sample.iter().map(|(b, _)| b.clone()).collect();
        let llvm = llvm_disassemble(target, wave, &words);
        assert_eq!(
            llvm.len(),
            sample.len(),
            "{} {wave:?}: llvm-mc printed a different number of lines",
            target.name()
        );
        for ((bytes, _), expected) in sample.iter().zip(&llvm) {
            let ours = rdna::disassemble(bytes, target, wave, 0);
            assert_eq!(
                ours.trim(),
                expected.as_str(),
                "{} {wave:?} {bytes:02x?}",
                target.name()
            );
        }
    }
}
