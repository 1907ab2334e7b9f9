//! Regenerates `data/isa.txt`, the one source of truth for the opcode tables.
//!
//! `cargo run -p rdna --example gen-isa` (needs LLVM 14 and a C compiler).
//!
//! For every encoding and every opcode number it builds probe words with a
//! distinct register in each operand field and asks LLVM 14's disassembler
//! (through `rdna::oracle`) what they are. From the answers it records, per
//! opcode: the mnemonic for each target, the operands LLVM prints and from
//! which field, their sizes, how each source prints constants (its type
//! class), and which bits LLVM insists on (flipping them makes the word
//! invalid). Facts only: nothing here is copied from LLVM's sources.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rdna::oracle::{query, OracleAnswer};
use rdna::{Target, WaveSize};

/// An operand field of an encoding: name, first bit, width, probe value.
#[derive(Clone, Copy)]
struct Field {
    name: &'static str,
    lo: u32,
    bits: u32,
    probe: u64,
}

const fn f(name: &'static str, lo: u32, bits: u32, probe: u64) -> Field {
    Field {
        name,
        lo,
        bits,
        probe,
    }
}

/// An encoding family for the sweep.
struct Enc {
    name: &'static str,
    words: u32,
    prefix: u64,
    op_lo: u32,
    op_bits: u32,
    /// Bits that select the encoding itself (never flipped).
    prefix_mask: u64,
    fields: &'static [Field],
    /// Fields that may be zeroed when the full probe is rejected.
    optional: &'static [&'static str],
    /// Source fields whose constant printing is fingerprinted.
    srcs: &'static [&'static str],
    /// Skip these opcode numbers (they select another encoding).
    skip: fn(u32) -> bool,
    /// Where the opcode's top bit lives when it is not next to the others.
    op_hi: Option<u32>,
}

fn no_skip(_: u32) -> bool {
    false
}

/// Bits some opcodes need before LLVM decodes them at all, tried after the
/// plain probes: DS `gds` (the GWS and ordered-count opcodes), MUBUF and
/// GLOBAL `glc` (returning-only atomics such as `*_atomic_csub`), MIMG
/// `dmask:0xf unorm r128` (the BVH ray-intersection opcodes).
fn alternatives(enc: &str) -> &'static [u64] {
    match enc {
        "DS" => &[1 << 17],
        "MUBUF" => &[1 << 14],
        "GLOBAL" => &[1 << 16],
        "MIMG" => &[
            (0xf << 8) | (1 << 12) | (1 << 15),
            (0xf << 8) | (1 << 12) | (1 << 15) | (1 << 62),
        ],
        _ => &[],
    }
}

// Probe registers are chosen so that every field prints a distinct number:
// sdst/vdst 8, src0 12, src1 20, src2 28, and the scalar resource fields
// land on 4-aligned numbers that nothing else uses.
const ENCS: &[Enc] = &[
    Enc {
        name: "SOP2",
        words: 1,
        prefix: 0b10 << 30,
        op_lo: 23,
        op_bits: 7,
        prefix_mask: 0xc000_0000,
        fields: &[
            f("sdst", 16, 7, 8),
            f("ssrc1", 8, 8, 20),
            f("ssrc0", 0, 8, 12),
        ],
        optional: &["sdst", "ssrc1", "ssrc0"],
        srcs: &["ssrc0", "ssrc1"],
        skip: |op| op >= 0x60,
        op_hi: None,
    },
    Enc {
        name: "SOPK",
        words: 1,
        prefix: 0b1011 << 28,
        op_lo: 23,
        op_bits: 5,
        prefix_mask: 0xf000_0000,
        fields: &[f("sdst", 16, 7, 8), f("simm16", 0, 16, 0x1a05)],
        optional: &["sdst", "simm16"],
        srcs: &[],
        skip: |op| op >= 0x1d,
        op_hi: None,
    },
    Enc {
        name: "SOP1",
        words: 1,
        prefix: 0b1_0111_1101 << 23,
        op_lo: 8,
        op_bits: 8,
        prefix_mask: 0xff80_0000,
        fields: &[f("sdst", 16, 7, 8), f("ssrc0", 0, 8, 12)],
        optional: &["sdst", "ssrc0"],
        srcs: &["ssrc0"],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "SOPC",
        words: 1,
        prefix: 0b1_0111_1110 << 23,
        op_lo: 16,
        op_bits: 7,
        prefix_mask: 0xff80_0000,
        fields: &[f("ssrc1", 8, 8, 20), f("ssrc0", 0, 8, 12)],
        optional: &["ssrc1", "ssrc0"],
        srcs: &["ssrc0", "ssrc1"],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "SOPP",
        words: 1,
        prefix: 0b1_0111_1111 << 23,
        op_lo: 16,
        op_bits: 7,
        prefix_mask: 0xff80_0000,
        fields: &[f("simm16", 0, 16, 5)],
        optional: &["simm16"],
        srcs: &[],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "SMEM",
        words: 2,
        prefix: 0b11_1101 << 26,
        op_lo: 18,
        op_bits: 8,
        prefix_mask: 0xfc00_0000,
        fields: &[
            f("sdata", 6, 7, 8),
            f("sbase", 0, 6, 2),
            f("offset", 32, 21, 0x10),
            f("soffset", 57, 7, 0x7d),
        ],
        optional: &["sdata", "sbase", "offset"],
        srcs: &[],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "VOP2",
        words: 1,
        prefix: 0,
        op_lo: 25,
        op_bits: 6,
        prefix_mask: 0x8000_0000,
        fields: &[
            f("vdst", 17, 8, 8),
            f("vsrc1", 9, 8, 20),
            f("src0", 0, 9, 256 + 12),
        ],
        optional: &["vdst"],
        srcs: &["src0"],
        skip: |op| op >= 0x3e,
        op_hi: None,
    },
    Enc {
        name: "VOP1",
        words: 1,
        prefix: 0x3f << 25,
        op_lo: 9,
        op_bits: 8,
        prefix_mask: 0xfe00_0000,
        fields: &[f("vdst", 17, 8, 8), f("src0", 0, 9, 256 + 12)],
        optional: &["vdst", "src0"],
        srcs: &["src0"],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "VOPC",
        words: 1,
        prefix: 0x3e << 25,
        op_lo: 17,
        op_bits: 8,
        prefix_mask: 0xfe00_0000,
        fields: &[f("vsrc1", 9, 8, 20), f("src0", 0, 9, 256 + 12)],
        optional: &[],
        srcs: &["src0"],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "VOP3",
        words: 2,
        prefix: 0x35 << 26,
        op_lo: 16,
        op_bits: 10,
        prefix_mask: 0xfc00_0000,
        fields: &[
            f("vdst", 0, 8, 8),
            f("sdst", 8, 7, 0),
            f("src0", 32, 9, 256 + 12),
            f("src1", 41, 9, 256 + 20),
            f("src2", 50, 9, 256 + 28),
        ],
        optional: &["src2", "src1", "vdst", "src0"],
        srcs: &["src0", "src1", "src2"],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "VOP3P",
        words: 2,
        prefix: 0x33 << 26,
        op_lo: 16,
        op_bits: 7,
        prefix_mask: 0xfc00_0000,
        fields: &[
            f("vdst", 0, 8, 8),
            f("src0", 32, 9, 256 + 12),
            f("src1", 41, 9, 256 + 20),
            f("src2", 50, 9, 256 + 28),
            // op_sel_hi defaults to all ones for packed math.
            f("opsel_hi2", 14, 1, 1),
            f("opsel_hi", 59, 2, 3),
        ],
        optional: &["src2", "opsel_hi2", "opsel_hi"],
        srcs: &["src0", "src1", "src2"],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "VINTRP",
        words: 1,
        prefix: 0x32 << 26,
        op_lo: 16,
        op_bits: 2,
        prefix_mask: 0xfc00_0000,
        fields: &[
            f("vdst", 18, 8, 8),
            f("attr", 10, 6, 3),
            f("chan", 8, 2, 1),
            f("vsrc", 0, 8, 12),
        ],
        optional: &[],
        srcs: &[],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "DS",
        words: 2,
        prefix: 0x36 << 26,
        op_lo: 18,
        op_bits: 8,
        prefix_mask: 0xfc00_0000,
        fields: &[
            f("offset0", 0, 8, 4),
            f("offset1", 8, 8, 1),
            f("addr", 32, 8, 12),
            f("data0", 40, 8, 20),
            f("data1", 48, 8, 28),
            f("vdst", 56, 8, 8),
        ],
        optional: &["data1", "data0", "vdst", "addr", "offset1", "offset0"],
        srcs: &[],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "MUBUF",
        words: 2,
        prefix: 0x38 << 26,
        op_lo: 18,
        op_bits: 8,
        prefix_mask: 0xfc00_0000,
        fields: &[
            f("offset", 0, 12, 4),
            f("offen", 12, 1, 1),
            f("vaddr", 32, 8, 12),
            f("vdata", 40, 8, 8),
            f("srsrc", 48, 5, 4),
            f("soffset", 56, 8, 3),
        ],
        optional: &["offen", "vaddr", "vdata", "srsrc", "soffset", "offset"],
        srcs: &[],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "MTBUF",
        words: 2,
        prefix: 0x3a << 26,
        op_lo: 16,
        op_bits: 3,
        prefix_mask: 0xfc00_0000 | (1 << 53),
        fields: &[
            f("offset", 0, 12, 4),
            f("offen", 12, 1, 1),
            f("format", 19, 7, 22),
            f("vaddr", 32, 8, 12),
            f("vdata", 40, 8, 8),
            f("srsrc", 48, 5, 4),
            f("soffset", 56, 8, 3),
        ],
        optional: &[],
        srcs: &[],
        skip: no_skip,
        op_hi: Some(53),
    },
    Enc {
        name: "MIMG",
        words: 2,
        prefix: 0x3c << 26,
        op_lo: 18,
        op_bits: 7,
        prefix_mask: 0xfc00_0000 | 1,
        fields: &[
            f("dmask", 8, 4, 1),
            f("dim", 3, 3, 0),
            f("vaddr", 32, 8, 12),
            f("vdata", 40, 8, 8),
            f("srsrc", 48, 5, 4),
            f("ssamp", 53, 5, 6),
        ],
        optional: &["ssamp", "dmask", "vdata", "srsrc"],
        srcs: &[],
        skip: no_skip,
        op_hi: Some(0),
    },
    Enc {
        name: "FLAT",
        words: 2,
        prefix: 0x37 << 26,
        op_lo: 18,
        op_bits: 7,
        prefix_mask: 0xfc00_0000 | (3 << 14),
        fields: &[
            f("offset", 0, 12, 4),
            f("addr", 32, 8, 12),
            f("data", 40, 8, 20),
            f("saddr", 48, 7, 0x7d),
            f("vdst", 56, 8, 8),
        ],
        optional: &["data", "vdst", "addr"],
        srcs: &[],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "GLOBAL",
        words: 2,
        prefix: (0x37 << 26) | (2 << 14),
        op_lo: 18,
        op_bits: 7,
        prefix_mask: 0xfc00_0000 | (3 << 14),
        fields: &[
            f("offset", 0, 12, 4),
            f("addr", 32, 8, 12),
            f("data", 40, 8, 20),
            f("saddr", 48, 7, 0x7d),
            f("vdst", 56, 8, 8),
        ],
        optional: &["data", "vdst", "addr"],
        srcs: &[],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "SCRATCH",
        words: 2,
        prefix: (0x37 << 26) | (1 << 14),
        op_lo: 18,
        op_bits: 7,
        prefix_mask: 0xfc00_0000 | (3 << 14),
        fields: &[
            f("offset", 0, 12, 4),
            f("addr", 32, 8, 12),
            f("data", 40, 8, 20),
            f("saddr", 48, 7, 0x7d),
            f("vdst", 56, 8, 8),
        ],
        optional: &["data", "vdst", "addr"],
        srcs: &[],
        skip: no_skip,
        op_hi: None,
    },
    Enc {
        name: "EXP",
        words: 2,
        prefix: 0x3e << 26,
        op_lo: 0,
        op_bits: 0,
        prefix_mask: 0xfc00_0000,
        fields: &[
            f("en", 0, 4, 0xf),
            f("vsrc0", 32, 8, 8),
            f("vsrc1", 40, 8, 12),
            f("vsrc2", 48, 8, 20),
            f("vsrc3", 56, 8, 28),
        ],
        optional: &[],
        srcs: &[],
        skip: no_skip,
        op_hi: None,
    },
];

/// Literal dwords appended after every probe, so that instructions which read
/// a literal or NSA address dwords find one.
const TAIL: [u32; 3] = [0x1234_5678, 0x0000_0000, 0x0000_0000];

fn bytes_of(word: u64, words: u32, tail: &[u32]) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&(word as u32).to_le_bytes());
    if words == 2 {
        v.extend_from_slice(&((word >> 32) as u32).to_le_bytes());
    }
    for t in tail {
        v.extend_from_slice(&t.to_le_bytes());
    }
    v
}

fn set_field(word: u64, fl: &Field, v: u64) -> u64 {
    let m = ((1u64 << fl.bits) - 1) << fl.lo;
    (word & !m) | ((v << fl.lo) & m)
}

fn mnemonic(a: &OracleAnswer) -> Option<&str> {
    if a.len <= 0 {
        return None;
    }
    a.text.split_whitespace().next()
}

/// Splits the operand part of an instruction text at top-level commas;
/// the last operand is cut at its first top-level space (modifiers follow).
fn operands(text: &str) -> (Vec<String>, String) {
    let rest = match text.split_once(' ') {
        Some((_, r)) => r,
        None => return (vec![], String::new()),
    };
    let rest = rest.split(" ;").next().unwrap_or("");
    if rest.starts_with("offset:") || rest.starts_with("gds") {
        // No operands, only modifiers (ds_gws_sema_v offset:4 gds).
        return (vec![], rest.to_string());
    }
    let mut ops = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if depth == 0 && c == ',' {
            ops.push(cur.trim().to_string());
            cur.clear();
            continue;
        }
        if depth == 0 && c == ' ' && !cur.trim().is_empty() && chars.peek() != Some(&',') {
            // A space at top level after an operand: is the next thing a new
            // operand (after a comma) or the modifiers?
            let tail: String = chars.clone().collect();
            ops.push(cur.trim().to_string());
            return (ops, tail);
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        ops.push(cur.trim().to_string());
    }
    (ops, String::new())
}

/// Register file and first number and count of a register token.
fn parse_reg(tok: &str) -> Option<(char, u32, u32)> {
    let t = tok.trim_start_matches(['-', '|']).trim_end_matches('|');
    let (file, rest) = if let Some(r) = t.strip_prefix("ttmp") {
        ('t', r)
    } else if let Some(r) = t.strip_prefix('v') {
        ('v', r)
    } else if let Some(r) = t.strip_prefix('s') {
        ('s', r)
    } else {
        return None;
    };
    if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (a, b) = inner.split_once(':')?;
        let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
        return Some((file, a, b - a + 1));
    }
    let n: u32 = rest.parse().ok()?;
    Some((file, n, 1))
}

/// Per mnemonic: opcode number on gfx1013, on gfx1030, and its facts.
type Row = (Option<u32>, Option<u32>, Vec<String>);

struct Probe {
    mnemonic: String,
    base: u64,
    text: String,
    len: i32,
}

fn main() {
    let mut out = String::new();
    writeln!(
        out,
        "# Generated by `cargo run -p rdna --example gen-isa` from LLVM 14's disassembler.\n\
         # enc mnemonic op_gfx1013 op_gfx1030 | operands | fixed-mask | probe-text"
    )
    .unwrap();
    for enc in ENCS {
        eprintln!("sweeping {}", enc.name);
        let mut by_mn: BTreeMap<String, Row> = BTreeMap::new();
        for target in [Target::Gfx1013, Target::Gfx1030] {
            let probes = sweep(enc, target);
            let infos = analyse_all(enc, target, &probes);
            for ((op, p), info) in probes.into_iter().zip(infos) {
                let e = by_mn
                    .entry(p.mnemonic.clone())
                    .or_insert((None, None, vec![]));
                match target {
                    Target::Gfx1013 => e.0 = Some(op),
                    Target::Gfx1030 => e.1 = Some(op),
                }
                if e.2.is_empty() {
                    e.2 = info;
                }
            }
        }
        for (mn, (a, b, info)) in by_mn {
            let h = |x: Option<u32>| x.map(|v| format!("{v:#x}")).unwrap_or_else(|| "-".into());
            writeln!(
                out,
                "{} {} {} {} {}",
                enc.name,
                mn,
                h(a),
                h(b),
                info.join(" ")
            )
            .unwrap();
        }
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/isa.txt");
    std::fs::write(path, out).expect("write data/isa.txt");
    eprintln!("wrote {path}");
}

/// Finds, for every opcode number, the richest probe LLVM accepts.
fn sweep(enc: &Enc, target: Target) -> Vec<(u32, Probe)> {
    let nops = 1u32 << (enc.op_bits + enc.op_hi.is_some() as u32);
    let mut cands: Vec<(u32, u64)> = Vec::new();
    let nopt = enc.optional.len();
    // Zero subsets of optional fields, fewest zeroed first.
    let mut subsets: Vec<u32> = (0..(1u32 << nopt)).collect();
    subsets.sort_by_key(|s| s.count_ones());
    for op in 0..nops {
        if (enc.skip)(op) {
            continue;
        }
        let low = op & ((1 << enc.op_bits) - 1);
        let mut base = enc.prefix | ((low as u64) << enc.op_lo);
        if let Some(hi) = enc.op_hi {
            base |= ((op >> enc.op_bits) as u64 & 1) << hi;
        }
        for fl in enc.fields {
            base = set_field(base, fl, fl.probe);
        }
        let alts = std::iter::once(0).chain(alternatives(enc.name).iter().copied());
        for s in alts.flat_map(|a| subsets.iter().map(move |s| (a, s))) {
            let (alt, s) = s;
            let mut w = base | alt;
            for (i, name) in enc.optional.iter().enumerate() {
                if s & (1 << i) != 0 {
                    let fl = enc.fields.iter().find(|x| x.name == *name).unwrap();
                    w = set_field(w, fl, 0);
                }
            }
            cands.push((op, w));
        }
    }
    let bufs: Vec<Vec<u8>> = cands
        .iter()
        .map(|(_, w)| bytes_of(*w, enc.words, &TAIL))
        .collect();
    let ans = query(target, WaveSize::Wave32, &bufs).expect("oracle");
    let mut res: Vec<(u32, Probe)> = Vec::new();
    for ((op, w), a) in cands.iter().zip(ans.iter()) {
        if res.last().map(|r| r.0) == Some(*op) {
            continue;
        }
        if let Some(m) = mnemonic(a) {
            res.push((
                *op,
                Probe {
                    mnemonic: m.to_string(),
                    base: *w,
                    text: a.text.clone(),
                    len: a.len,
                },
            ));
        }
    }
    res
}

/// The requests one opcode's analysis makes, in a fixed order.
fn requests(enc: &Enc, p: &Probe) -> (Vec<Vec<u8>>, Vec<u32>) {
    let mut bufs = Vec::new();
    for sname in enc.srcs {
        let fl = enc.fields.iter().find(|x| x.name == *sname).unwrap();
        for (val, lit) in CONST_PROBES {
            let val = if fl.bits == 8 && val >= 255 { 255 } else { val };
            let w = set_field(p.base, fl, val);
            bufs.push(bytes_of(w, enc.words, &[lit, 0, 0]));
        }
    }
    let mut which = Vec::new();
    for b in 0..32 * enc.words {
        let bit = 1u64 << b;
        if enc.prefix_mask & bit != 0 || enc.op_hi == Some(b) {
            continue;
        }
        if enc.op_bits > 0 && (b >= enc.op_lo && b < enc.op_lo + enc.op_bits) {
            continue;
        }
        bufs.push(bytes_of(p.base ^ bit, enc.words, &TAIL));
        which.push(b);
    }
    if matches!(enc.name, "VOP1" | "VOP2" | "VOPC") {
        // Which extended forms LLVM accepts for this opcode.
        let w = p.base & !0x1ff;
        bufs.push(bytes_of(w | 0xfa, 1, &[0xff00_00e4, 0x1234_5678, 0]));
        bufs.push(bytes_of(w | 0xe9, 1, &[0x00fa_c688, 0x1234_5678, 0]));
        // SDWA: DWORD selects; VOP1 has no src1_sel, VOPC no dst_sel.
        let sdwa = match enc.name {
            "VOP1" => 0x0006_0600,
            "VOPC" => 0x0606_0000,
            _ => 0x0606_0600,
        };
        bufs.push(bytes_of(w | 0xf9, 1, &[sdwa, 0x1234_5678, 0]));
        // Source modifier kinds: DPP16 neg of src0/src1, SDWA neg and sext
        // of src0/src1 (printed `-v`, `sext(v)`, hidden, or rejected).
        for bit in MOD_PROBES_DPP {
            bufs.push(bytes_of(w | 0xfa, 1, &[0xff00_00e4 | bit, 0x1234_5678, 0]));
        }
        for bit in MOD_PROBES_SDWA {
            bufs.push(bytes_of(w | 0xf9, 1, &[sdwa | bit, 0x1234_5678, 0]));
        }
    }
    if enc.name == "SOPP" || enc.name == "SOPK" {
        for v in SIMM_PROBES {
            bufs.push(bytes_of((p.base & !0xffff) | v, enc.words, &TAIL));
        }
    }
    (bufs, which)
}

/// DPP16 dword-1 bits: src0 neg, src1 neg.
const MOD_PROBES_DPP: [u32; 2] = [1 << 20, 1 << 22];
/// SDWA dword-1 bits: src0 neg, src0 sext, src1 neg, src1 sext.
const MOD_PROBES_SDWA: [u32; 4] = [1 << 20, 1 << 19, 1 << 28, 1 << 27];

/// How a modifier probe printed: `f` float neg, `i` sext, `0` hidden,
/// `x` rejected.
fn mod_kind(a: &OracleAnswer, mn: &str, suffix: &str) -> char {
    let want = format!("{}{suffix}", mn.strip_suffix("_e32").unwrap_or(mn));
    if mnemonic(a) != Some(want.as_str()) {
        'x'
    } else if a.text.contains("sext(") {
        'i'
    } else if a.text.contains(", -") || a.text.contains(" -v") || a.text.contains(" -s") {
        'f'
    } else {
        '0'
    }
}

const SIMM_PROBES: [u64; 3] = [100, 0xffff, 0x8000];

const CONST_PROBES: [(u64, u32); 6] = [
    (240, 0),
    (248, 0),
    (255, 0x3f80_0000),
    (255, 0x3c00),
    (255, 0x3e22_f983),
    (255, 0xffff_fff0),
];

fn analyse_all(enc: &Enc, target: Target, probes: &[(u32, Probe)]) -> Vec<Vec<String>> {
    let bases: Vec<Vec<u8>> = probes
        .iter()
        .map(|(_, p)| bytes_of(p.base, enc.words, &TAIL))
        .collect();
    let w64 = query(target, WaveSize::Wave64, &bases).expect("oracle");
    let mut all = Vec::new();
    let mut ranges = Vec::new();
    for (_, p) in probes {
        let (b, which) = requests(enc, p);
        ranges.push((all.len(), b.len(), which));
        all.extend(b);
    }
    let ans = query(target, WaveSize::Wave32, &all).expect("oracle");
    probes
        .iter()
        .zip(ranges)
        .zip(w64)
        .map(|(((_, p), (start, n, which)), a64)| {
            analyse(enc, p, &a64, &ans[start..start + n], &which)
        })
        .collect()
}

/// Describes one opcode: printed operands, source classes, fixed bits.
fn analyse(
    enc: &Enc,
    p: &Probe,
    a64: &OracleAnswer,
    ans: &[OracleAnswer],
    which: &[u32],
) -> Vec<String> {
    let mut info = Vec::new();
    let (ops, mods) = operands(&p.text);
    let (ops64, _) = operands(&a64.text);
    let mut sig = Vec::new();
    for (i, tok) in ops.iter().enumerate() {
        let tok64 = ops64.get(i).cloned().unwrap_or_default();
        let mut desc = format!("?{tok}");
        if let Some((file, n, cnt)) = parse_reg(tok) {
            let cnt64 = parse_reg(&tok64).map(|r| r.2).unwrap_or(cnt);
            let sz = if cnt64 != cnt {
                "mask".to_string()
            } else {
                format!("{cnt}")
            };
            for fl in enc.fields {
                let v = (p.base >> fl.lo) & ((1u64 << fl.bits) - 1);
                let reg = if fl.name.starts_with("src") && v >= 256 {
                    v - 256
                } else {
                    v
                };
                let scale = match fl.name {
                    "sbase" => 2,
                    "srsrc" | "ssamp" => 4,
                    _ => 1,
                };
                if reg * scale == n as u64 && v != 0 {
                    desc = format!("{}:{}{}", fl.name, file, sz);
                    break;
                }
            }
            if desc.starts_with('?') && enc.name == "VOP3" && n == 0 && file == 's' {
                desc = format!("sdst:s{sz}");
            }
        } else if tok != &tok64 {
            desc = format!("={tok}/{tok64}");
        } else {
            desc = format!("={tok}");
        }
        sig.push(desc);
    }
    info.push(format!("len={}", p.len));
    info.push(format!("ops={}", sig.join(",").replace(' ', "~")));
    let mut k = 0;
    for sname in enc.srcs {
        let chunk = &ans[k..k + CONST_PROBES.len()];
        k += CONST_PROBES.len();
        let idx = sig.iter().position(|d| d.starts_with(&format!("{sname}:")));
        let Some(idx) = idx else { continue };
        let fp: Vec<String> = chunk
            .iter()
            .map(|a| {
                if mnemonic(a) != Some(p.mnemonic.as_str()) {
                    "X".to_string()
                } else {
                    operands(&a.text).0.get(idx).cloned().unwrap_or_default()
                }
            })
            .collect();
        info.push(format!("fp.{sname}={}", fp.join("/")));
    }
    let mut fixed = 0u64;
    let mut shown = 0u64;
    for (b, a) in which.iter().zip(ans[k..].iter()) {
        if mnemonic(a) != Some(p.mnemonic.as_str()) {
            fixed |= 1u64 << b;
        } else if a.text != p.text {
            shown |= 1u64 << b;
        }
    }
    k += which.len();
    if matches!(enc.name, "VOP1" | "VOP2" | "VOPC") {
        let ok: Vec<&str> = ["dpp16", "dpp8", "sdwa"]
            .iter()
            .zip(&ans[k..k + 3])
            .filter(|(_, a)| a.len > 0)
            .map(|(n, _)| *n)
            .collect();
        info.push(format!("forms={}", ok.join("+")));
        k += 3;
        let dpp: String = ans[k..k + 2]
            .iter()
            .map(|a| mod_kind(a, &p.mnemonic, "_dpp"))
            .collect();
        k += 2;
        let sdwa: String = ans[k..k + 4]
            .iter()
            .map(|a| mod_kind(a, &p.mnemonic, "_sdwa"))
            .collect();
        k += 4;
        info.push(format!("srcmods={dpp}/{sdwa}"));
    }
    info.push(format!("fixed={fixed:#x}"));
    info.push(format!("shown={shown:#x}"));
    if k < ans.len() {
        let v: Vec<String> = ans[k..]
            .iter()
            .map(|a| {
                operands(&a.text)
                    .0
                    .last()
                    .cloned()
                    .unwrap_or_default()
                    .replace(' ', "~")
            })
            .collect();
        info.push(format!("simm={}", v.join("/")));
    }
    info.push(format!("base={:#x}", p.base));
    if !mods.is_empty() {
        info.push(format!("mods={}", mods.replace(' ', "_")));
    }
    info
}
