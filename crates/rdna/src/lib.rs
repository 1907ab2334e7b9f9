//! RDNA ISA decoder and disassembler for gfx1013 (PS5 "Oberon") and gfx1030.
//!
//! [`decode`] turns the bytes of one instruction into an [`Instruction`];
//! [`disassemble`] prints a whole code blob with the text LLVM 14 prints
//! (`llvm-objdump -d` / `llvm-mc --disassemble`) for the same target and wave
//! size. The opcode tables come from one data file, `data/isa.txt`, derived
//! from LLVM 14 by `cargo run -p rdna --example gen-isa` (see [`table`]).
//!
//! Where LLVM 14 rejects a word that the hardware executes (a non-zero unused
//! VOP3 source field, as ACO emits), [`decode`] still decodes it and sets
//! [`Instruction::llvm_rejects`]; [`decode_strict`] rejects such words as LLVM
//! does, which is what the differential tests compare. The other way round,
//! LLVM 14 also decodes the GFX9 VOP3P encoding (first byte `0xd3`) of the
//! packed-math opcodes gfx10 shares with gfx9; both decoders follow it.
//!
//! Coverage ([`coverage`]): the denominator is the instruction lists of
//! LLVM's AMDGPU syntax docs (`data/docs.txt`, from `--example gen-docs`),
//! restricted to the mnemonics llvm-mc 14 knows for the target; the evidence
//! is the committed llvm-mc corpus (`data/corpus/all.txt`, from `--example
//! regen-corpus`), decoded by the default `cargo test` without LLVM.
#![forbid(unsafe_code)]

pub mod coverage;
mod decode;
pub mod oracle;
mod print;
pub mod table;

pub use decode::{decode, decode_strict, decode_wave, DecodeError, Form, Instruction, Operand};
pub use table::Opcode;

/// The GPU a code blob was compiled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// gfx10.1 with ray tracing: the PS5 GPU.
    Gfx1013,
    /// gfx10.3 (RDNA2 PC parts).
    Gfx1030,
}

impl Target {
    /// The LLVM `-mcpu` name.
    pub fn name(self) -> &'static str {
        match self {
            Target::Gfx1013 => "gfx1013",
            Target::Gfx1030 => "gfx1030",
        }
    }

    /// Parses an LLVM `-mcpu` name.
    pub fn from_name(s: &str) -> Option<Target> {
        match s {
            "gfx1013" => Some(Target::Gfx1013),
            "gfx1030" => Some(Target::Gfx1030),
            _ => None,
        }
    }
}

/// The wave size the code runs with; it changes how lane masks print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WaveSize {
    /// 32 lanes: lane masks are 32-bit (`vcc_lo`).
    Wave32,
    /// 64 lanes: lane masks are 64-bit (`vcc`).
    Wave64,
}

/// The instruction encodings of gfx10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    /// Scalar, one source.
    Sop1,
    /// Scalar, two sources.
    Sop2,
    /// Scalar with a 16-bit immediate.
    Sopk,
    /// Scalar compare.
    Sopc,
    /// Scalar program control.
    Sopp,
    /// Scalar memory.
    Smem,
    /// Vector, one source (32-bit form; also DPP and SDWA forms).
    Vop1,
    /// Vector, two sources.
    Vop2,
    /// Vector compare.
    Vopc,
    /// Vector, 64-bit form (including VOP3b and VOP1/2/C promoted forms).
    Vop3,
    /// Vector packed math.
    Vop3p,
    /// Vector interpolation.
    Vintrp,
    /// Local data share.
    Ds,
    /// Untyped buffer memory.
    Mubuf,
    /// Typed buffer memory.
    Mtbuf,
    /// Image memory (including NSA).
    Mimg,
    /// Flat memory.
    Flat,
    /// Global memory (FLAT with segment 2).
    Global,
    /// Scratch memory (FLAT with segment 1).
    Scratch,
    /// Export.
    Exp,
}

impl Encoding {
    /// All encodings, in report order.
    pub const ALL: [Encoding; 20] = [
        Encoding::Sop1,
        Encoding::Sop2,
        Encoding::Sopk,
        Encoding::Sopc,
        Encoding::Sopp,
        Encoding::Smem,
        Encoding::Vop1,
        Encoding::Vop2,
        Encoding::Vopc,
        Encoding::Vop3,
        Encoding::Vop3p,
        Encoding::Vintrp,
        Encoding::Ds,
        Encoding::Mubuf,
        Encoding::Mtbuf,
        Encoding::Mimg,
        Encoding::Flat,
        Encoding::Global,
        Encoding::Scratch,
        Encoding::Exp,
    ];

    /// The upper-case name used in the data files.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Sop1 => "SOP1",
            Encoding::Sop2 => "SOP2",
            Encoding::Sopk => "SOPK",
            Encoding::Sopc => "SOPC",
            Encoding::Sopp => "SOPP",
            Encoding::Smem => "SMEM",
            Encoding::Vop1 => "VOP1",
            Encoding::Vop2 => "VOP2",
            Encoding::Vopc => "VOPC",
            Encoding::Vop3 => "VOP3",
            Encoding::Vop3p => "VOP3P",
            Encoding::Vintrp => "VINTRP",
            Encoding::Ds => "DS",
            Encoding::Mubuf => "MUBUF",
            Encoding::Mtbuf => "MTBUF",
            Encoding::Mimg => "MIMG",
            Encoding::Flat => "FLAT",
            Encoding::Global => "GLOBAL",
            Encoding::Scratch => "SCRATCH",
            Encoding::Exp => "EXP",
        }
    }

    /// Parses [`Encoding::name`].
    pub fn from_name(s: &str) -> Option<Encoding> {
        Encoding::ALL.iter().copied().find(|e| e.name() == s)
    }
}

/// Disassembles a raw little-endian code blob, one instruction per line,
/// with the text LLVM 14 prints for `target` and `wave`.
///
/// Each line is a tab, the instruction text, and a newline, like
/// `llvm-mc --disassemble` output without its `.text` header. `offset` is the
/// byte offset in `bytes` to start at. A word that does not decode prints as
/// `.long 0x........` and the disassembly continues 4 bytes later, which is
/// how `llvm-objdump -d` shows words it cannot decode. Trailing bytes that do
/// not fill a word print as `.byte 0x..` each.
pub fn disassemble(bytes: &[u8], target: Target, wave: WaveSize, offset: usize) -> String {
    let mut out = String::new();
    let mut pos = offset.min(bytes.len());
    while pos < bytes.len() {
        let rest = &bytes[pos..];
        match decode_wave(rest, target, wave) {
            Ok(inst) => {
                out.push('\t');
                out.push_str(&inst.text(wave));
                out.push('\n');
                pos += inst.len;
            }
            Err(_) if rest.len() >= 4 => {
                let w = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
                out.push_str(&format!("\t.long {w:#010x}\n"));
                pos += 4;
            }
            Err(_) => {
                for b in rest {
                    out.push_str(&format!("\t.byte {b:#04x}\n"));
                }
                break;
            }
        }
    }
    out
}
