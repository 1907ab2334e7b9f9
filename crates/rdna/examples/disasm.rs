//! `cargo run -p rdna --example disasm -- FILE [gfx1013|gfx1030] [32|64] [OFFSET]`:
//! what `native5 rdna disasm` prints, until the CLI wires it in.

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = a.first() else {
        eprintln!("usage: disasm FILE [gfx1013|gfx1030] [32|64] [OFFSET]");
        std::process::exit(2);
    };
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let target = a
        .get(1)
        .and_then(|s| rdna::Target::from_name(s))
        .unwrap_or(rdna::Target::Gfx1013);
    let wave = if a.get(2).map(String::as_str) == Some("64") {
        rdna::WaveSize::Wave64
    } else {
        rdna::WaveSize::Wave32
    };
    let offset = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    print!("{}", rdna::disassemble(&bytes, target, wave, offset));
}
