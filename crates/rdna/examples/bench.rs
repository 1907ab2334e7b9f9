//! Decoder throughput against `llvm-mc --disassemble` on the same bytes:
//! `cargo run --release -p rdna --example bench`.
//!
//! The bytes are every instruction of the committed gfx1013 wave32 corpus,
//! concatenated (about 170 KB of valid code). Both sides disassemble the
//! whole blob to text; the report gives both times and their ratio, measured
//! in the same run. llvm-mc's time includes its start-up and reading its
//! hex-text input, which is how the tool is used.

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::Instant;

use rdna::{coverage, disassemble, Target, WaveSize};

fn main() {
    let (_, _, corpus) = coverage::committed_corpora()[0];
    let mut blob = Vec::new();
    for (b, _) in coverage::entries(corpus) {
        blob.extend_from_slice(&b);
    }
    let reps = 5;
    // Ours: best of several runs.
    let mut ours = f64::MAX;
    let mut lines = 0;
    for _ in 0..reps {
        let t = Instant::now();
        let text = disassemble(&blob, Target::Gfx1013, WaveSize::Wave32, 0);
        ours = ours.min(t.elapsed().as_secs_f64());
        lines = text.lines().count();
    }
    let hex: String = blob.iter().map(|b| format!("0x{b:02x} ")).collect();
    let mut llvm = f64::MAX;
    for _ in 0..reps {
        let t = Instant::now();
        let mut child = Command::new("llvm-mc")
            .args(["-arch=amdgcn", "-mcpu=gfx1013", "--disassemble"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("llvm-mc 14 on PATH");
        let mut stdin = child.stdin.take().expect("stdin");
        let h = hex.clone();
        let w = std::thread::spawn(move || stdin.write_all(h.as_bytes()));
        let out = child.wait_with_output().expect("llvm-mc");
        w.join().expect("writer").expect("write");
        llvm = llvm.min(t.elapsed().as_secs_f64());
        assert!(!out.stdout.is_empty());
    }
    println!(
        "{} bytes, {lines} instructions: rdna {:.1} ms, llvm-mc {:.1} ms, ratio rdna/llvm-mc = {:.3} ({:.1}x faster)",
        blob.len(),
        ours * 1e3,
        llvm * 1e3,
        ours / llvm,
        llvm / ours
    );
}
