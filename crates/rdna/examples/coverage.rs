//! Prints the coverage report from the committed corpus and writes
//! `data/coverage.txt`: `cargo run -p rdna --example coverage`.
//! With `--mismatches` it lists every corpus entry we print differently.

fn main() {
    let corpora = rdna::coverage::committed_corpora();
    if std::env::args().any(|a| a == "--mismatches") {
        for (t, w, c) in &corpora {
            let (n, bad) = rdna::coverage::check(c, *t, *w);
            println!("{} {:?}: {} of {n} differ", t.name(), w, bad.len());
            for m in bad.iter().take(400) {
                let hex: String = m.bytes.iter().map(|b| format!("{b:02x}")).collect();
                println!("  {hex}\n    llvm {}\n    ours {}", m.expected, m.got);
            }
        }
        return;
    }
    let rows = rdna::coverage::report(&corpora);
    let text = rdna::coverage::render(&rows);
    print!("{text}");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/coverage.txt");
    std::fs::write(path, text).expect("write data/coverage.txt");
}
