//! When llvm-mc 14 is on the machine, the committed corpus is checked against it live:
//! a sample of entries per configuration is disassembled by llvm-mc and by us, and the
//! texts must be equal. Without llvm-mc the test says why it skips.

use rdna::{Target, WaveSize};
use std::io::Write;
use std::process::{Command, Stdio};

fn llvm_mc_available() -> bool {
    Command::new("llvm-mc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// llvm-mc's disassembly of one instruction per input line.
fn llvm_disassemble(target: Target, wave: WaveSize, words: &[Vec<u8>]) -> Vec<String> {
    let mut args = vec![
        "-arch=amdgcn".to_string(),
        format!("-mcpu={}", target.name()),
        "-disassemble".into(),
    ];
    if wave == WaveSize::Wave64 {
        args.push("-mattr=+wavefrontsize64".into());
    }
    let mut child = Command::new("llvm-mc")
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for w in words {
        let hex: Vec<String> = w.iter().map(|b| format!("{b:#04x}")).collect();
        input.push_str(&hex.join(" "));
        input.push('\n');
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
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
