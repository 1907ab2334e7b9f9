//! Random differential against LLVM 14: `cargo run --release -p rdna --example differential -- [COUNT] [SEED] [--show N]`
//!
//! For each seeded random 16-byte buffer, compares the text and length of the
//! first instruction (or that both reject it) between `rdna::decode_strict`
//! and LLVM's disassembler, in all four target × wave configurations. It also
//! counts the buffers where LLVM rejects a word that the lenient
//! `rdna::decode_wave` accepts (documented disagreements: unused source
//! fields the hardware ignores).

use std::collections::BTreeMap;

use rdna::{decode_strict, decode_wave, oracle, Target, WaveSize};

/// A small, seeded xorshift generator (no dependency needed).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args
        .first()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0x5eed);
    let show: usize = args
        .iter()
        .position(|a| a == "--show")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let only: Option<String> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let mut rng = Rng(seed | 1);
    let bufs: Vec<Vec<u8>> = (0..count)
        .map(|_| {
            let a = rng.next().to_le_bytes();
            let b = rng.next().to_le_bytes();
            [a, b].concat()
        })
        .collect();
    for target in [Target::Gfx1013, Target::Gfx1030] {
        for wave in [WaveSize::Wave32, WaveSize::Wave64] {
            let ans = match oracle::query(target, wave, &bufs) {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("skipped: {e}");
                    return;
                }
            };
            let mut agree = 0usize;
            let mut crashes = 0usize;
            let mut lenient = 0usize;
            let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (b, a) in bufs.iter().zip(&ans) {
                if a.len < 0 {
                    crashes += 1;
                    continue;
                }
                let ours = decode_strict(b, target, wave);
                let (ol, ot) = match &ours {
                    Ok(i) => (i.len as i32, i.text.clone()),
                    Err(_) => (0, String::new()),
                };
                if a.len == 0
                    && decode_wave(b, target, wave)
                        .map(|i| i.llvm_rejects)
                        .unwrap_or(false)
                {
                    // LLVM rejects it, the hardware runs it: counted apart.
                    lenient += 1;
                }
                if ol == a.len && (ol == 0 || ot == a.text) {
                    agree += 1;
                    continue;
                }
                if a.len == 0 && ol == 0 {
                    agree += 1;
                    continue;
                }
                let w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                let enc = rdna::decode(b, target)
                    .map(|i| i.encoding.name().to_string())
                    .unwrap_or_else(|_| {
                        a.text.split_whitespace().next().unwrap_or("?").to_string()
                    });
                let key = enc;
                if let Some(o) = &only {
                    if &key != o {
                        continue;
                    }
                }
                let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
                groups.entry(key).or_default().push(format!(
                    "{hex} w={w:08x}\n      llvm[{}] {}\n      ours[{}] {}",
                    a.len, a.text, ol, ot
                ));
            }
            let valid = ans.iter().filter(|a| a.len >= 0).count();
            println!(
                "{} {:?}: agree {agree}/{valid} = {:.4}% (LLVM crashed on {crashes}; lenient-accepted {lenient})",
                target.name(),
                wave,
                100.0 * agree as f64 / valid.max(1) as f64
            );
            let mut g: Vec<_> = groups.into_iter().collect();
            g.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
            for (k, v) in g.iter().take(40) {
                println!("  {k}: {}", v.len());
                for e in v.iter().take(show) {
                    println!("    {e}");
                }
            }
        }
    }
}
