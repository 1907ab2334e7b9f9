//! Decodes the committed llvm-mc corpus (no LLVM needed) and checks that the
//! committed coverage report matches what the decoder does now.

use rdna::coverage::{check, committed_corpora, render, report};

#[test]
fn corpus_matches_llvm_text() {
    for (target, wave, corpus) in committed_corpora() {
        let (n, bad) = check(corpus, target, wave);
        assert!(
            n > 20_000,
            "{} {wave:?}: corpus has only {n} entries",
            target.name()
        );
        for m in bad.iter().take(10) {
            let hex: String = m.bytes.iter().map(|b| format!("{b:02x}")).collect();
            eprintln!(
                "{} {wave:?} {hex}\n  llvm {}\n  ours {}",
                target.name(),
                m.expected,
                m.got
            );
        }
        let agree = (n - bad.len()) as f64 / n as f64;
        // Known disagreements are listed in data/coverage.txt; this guards
        // against regressions below the committed level.
        assert!(
            agree >= 0.995,
            "{} {wave:?}: {}/{n} differ",
            target.name(),
            bad.len()
        );
    }
}

#[test]
fn committed_coverage_report_is_current() {
    let rows = report(&committed_corpora());
    let now = render(&rows);
    let committed = include_str!("../data/coverage.txt");
    assert_eq!(
        now, committed,
        "run `cargo run -p rdna --example coverage` and commit data/coverage.txt"
    );
}

#[test]
fn every_docs_row_is_complete() {
    // Every mnemonic of the docs denominator (data/docs.txt) is decoded and
    // printed as LLVM 14 prints it, for both targets and wave sizes.
    let rows = report(&committed_corpora());
    assert!(rows.iter().map(|r| r.accepted).sum::<usize>() > 3_700);
    for r in rows {
        assert_eq!(
            r.identical,
            r.accepted,
            "{} {}: {:?}",
            r.encoding,
            r.target.name(),
            r.missing
        );
    }
}
