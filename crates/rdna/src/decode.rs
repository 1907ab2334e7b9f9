//! Decoding: bytes → [`Instruction`] (encoding, opcode, operands, length, text).

use crate::print::{print, Printed};
use crate::table::{table, Opcode, ALL_OPCODES};
use crate::{Encoding, Target, WaveSize};

/// Why a word does not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Fewer bytes than the instruction needs.
    #[error("truncated instruction: need {need} bytes, have {have}")]
    Truncated {
        /// Bytes the instruction needs.
        need: usize,
        /// Bytes available.
        have: usize,
    },
    /// The opcode number is not defined for this encoding and target.
    #[error("unknown {enc:?} opcode {op:#x}")]
    UnknownOpcode {
        /// The encoding.
        enc: Encoding,
        /// The opcode number.
        op: u16,
    },
    /// A field holds a value the instruction does not allow.
    #[error("invalid {0}")]
    Invalid(&'static str),
}

/// Which variant of an encoding an instruction uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// The plain encoding.
    Basic,
    /// VOP1/VOP2/VOPC with a DPP16 second word (`src0` = 0xfa).
    Dpp16,
    /// VOP1/VOP2/VOPC with a DPP8 second word (`src0` = 0xe9 or 0xea).
    Dpp8,
    /// VOP1/VOP2/VOPC with an SDWA second word (`src0` = 0xf9).
    Sdwa,
    /// MIMG with non-sequential address dwords.
    Nsa,
}

/// One decoded operand: what it is and which role it plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    /// `count` VGPRs from `first`.
    Vgpr {
        /// First register.
        first: u16,
        /// Number of registers.
        count: u8,
    },
    /// `count` SGPRs from `first`.
    Sgpr {
        /// First register.
        first: u8,
        /// Number of registers.
        count: u8,
    },
    /// `count` trap temporaries from `first`.
    Ttmp {
        /// First register.
        first: u8,
        /// Number of registers.
        count: u8,
    },
    /// A named special register (`vcc_lo`, `exec`, `m0`, `null`, `scc` …).
    Special(&'static str),
    /// An inline integer constant (-16..=64).
    InlineInt(i8),
    /// An inline float constant by its encoding (240..=248).
    InlineFloat(u8),
    /// A 32-bit literal constant.
    Literal(u32),
    /// An immediate field (offsets, masks, simm16 …).
    Imm(i64),
}

/// A decoded instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    /// The opcode.
    pub opcode: Opcode,
    /// Its encoding.
    pub encoding: Encoding,
    /// Which form of the encoding (DPP, SDWA, NSA …).
    pub form: Form,
    /// Length in bytes (including any literal or NSA dwords).
    pub len: usize,
    /// The dwords of the instruction.
    pub words: Vec<u32>,
    /// Operands in LLVM's printing order, with their field names.
    pub operands: Vec<(&'static str, Operand)>,
    /// The literal constant, if the instruction has one.
    pub literal: Option<u32>,
    /// Modifier text in LLVM syntax (`clamp`, `offset:16`, `glc` …).
    pub modifiers: Vec<String>,
    /// The text LLVM 14 prints (for the wave size it was decoded with).
    pub text: String,
    /// True when LLVM 14 rejects this word although the hardware runs it
    /// (a non-zero unused source field, for example).
    pub llvm_rejects: bool,
}

impl Instruction {
    /// The mnemonic of the opcode's basic form.
    pub fn mnemonic(&self) -> &'static str {
        table().ops[self.opcode as usize].mnemonic
    }

    /// The LLVM text; `wave` must be the wave size it was decoded with,
    /// otherwise it is decoded again.
    pub fn text(&self, wave: WaveSize) -> String {
        let _ = wave;
        self.text.clone()
    }
}

/// Decodes the first instruction of `bytes` (little-endian) for wave32.
pub fn decode(bytes: &[u8], target: Target) -> Result<Instruction, DecodeError> {
    decode_wave(bytes, target, WaveSize::Wave32)
}

/// Decodes the first instruction of `bytes` for a wave size.
///
/// Accepts what the hardware executes: words LLVM 14 rejects only because an
/// unused source field is non-zero decode, with [`Instruction::llvm_rejects`]
/// set.
pub fn decode_wave(
    bytes: &[u8],
    target: Target,
    wave: WaveSize,
) -> Result<Instruction, DecodeError> {
    decode_impl(bytes, target, wave, false)
}

/// Like [`decode_wave`], but rejects everything LLVM 14 rejects.
pub fn decode_strict(
    bytes: &[u8],
    target: Target,
    wave: WaveSize,
) -> Result<Instruction, DecodeError> {
    decode_impl(bytes, target, wave, true)
}

/// Reads dword `i` of `bytes`.
pub(crate) fn dword(bytes: &[u8], i: usize) -> Option<u32> {
    let b = bytes.get(i * 4..i * 4 + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Finds the encoding of a first dword (`None`: no gfx10 encoding).
pub fn encoding_of(w: u32) -> Option<Encoding> {
    if w >> 31 == 0 {
        return Some(match w >> 25 {
            0x3f => Encoding::Vop1,
            0x3e => Encoding::Vopc,
            _ => Encoding::Vop2,
        });
    }
    if w >> 30 == 0b10 {
        return Some(match w >> 23 {
            0x17d => Encoding::Sop1,
            0x17e => Encoding::Sopc,
            0x17f => Encoding::Sopp,
            _ if w >> 28 == 0b1011 => Encoding::Sopk,
            _ => Encoding::Sop2,
        });
    }
    Some(match w >> 26 {
        0x35 => Encoding::Vop3,
        0x33 => Encoding::Vop3p,
        0x32 => Encoding::Vintrp,
        0x36 => Encoding::Ds,
        0x38 => Encoding::Mubuf,
        0x3a => Encoding::Mtbuf,
        0x3c => Encoding::Mimg,
        0x37 => match (w >> 14) & 3 {
            0 => Encoding::Flat,
            1 => Encoding::Scratch,
            2 => Encoding::Global,
            _ => return None,
        },
        0x3e => Encoding::Exp,
        0x3d => Encoding::Smem,
        _ => return None,
    })
}

/// LLVM 14 also decodes the GFX9 VOP3P encoding (bits 31..23 =
/// `0b110100111`, same field layout) for the opcodes gfx10 shares with
/// gfx9, under their GFX9 numbers, and prints them as the gfx10
/// instruction. The disassembler follows it; this maps such a word to the
/// gfx10 VOP3P opcode number.
fn gfx9_vop3p(w: u32, target: Target) -> Option<u16> {
    if w >> 23 != 0x1a7 {
        return None;
    }
    let op = (w >> 16) & 0x7f;
    Some(match op {
        // v_pk_mad_i16, v_pk_mad_u16, v_pk_fma_f16, v_fma_mix_f32/lo/hi.
        0 | 9 | 14 | 32..=34 => op as u16,
        // v_dot2_f32_f16, v_dot2_{i32_i16,u32_u16}, v_dot4_*, v_dot8_*.
        35 if target == Target::Gfx1030 => 0x13,
        38..=43 if target == Target::Gfx1030 => (op - 38 + 0x14) as u16,
        _ => return None,
    })
}

/// The opcode number of an instruction in its encoding.
pub(crate) fn opcode_number(enc: Encoding, w: u32, w1: u32) -> u16 {
    let _ = w1;
    (match enc {
        Encoding::Sop2 => (w >> 23) & 0x7f,
        Encoding::Sopk => (w >> 23) & 0x1f,
        Encoding::Sop1 => (w >> 8) & 0xff,
        Encoding::Sopc | Encoding::Sopp => (w >> 16) & 0x7f,
        Encoding::Smem => (w >> 18) & 0xff,
        Encoding::Vop2 => (w >> 25) & 0x3f,
        Encoding::Vop1 => (w >> 9) & 0xff,
        Encoding::Vopc => (w >> 17) & 0xff,
        Encoding::Vop3 => (w >> 16) & 0x3ff,
        Encoding::Vop3p => (w >> 16) & 0x7f,
        Encoding::Vintrp => (w >> 16) & 3,
        Encoding::Ds => (w >> 18) & 0xff,
        Encoding::Mubuf => (w >> 18) & 0xff,
        Encoding::Mtbuf => ((w >> 16) & 7) | (((w1 >> 21) & 1) << 3),
        Encoding::Mimg => ((w >> 18) & 0x7f) | ((w & 1) << 7),
        Encoding::Flat | Encoding::Global | Encoding::Scratch => (w >> 18) & 0x7f,
        Encoding::Exp => 0,
    }) as u16
}

fn decode_impl(
    bytes: &[u8],
    target: Target,
    wave: WaveSize,
    strict: bool,
) -> Result<Instruction, DecodeError> {
    let w0 = dword(bytes, 0).ok_or(DecodeError::Truncated {
        need: 4,
        have: bytes.len(),
    })?;
    let mut patched = Vec::new();
    let (enc, op) = match gfx9_vop3p(w0, target) {
        Some(op) => {
            // Print it as the gfx10 word; `words` keeps the original.
            let w = (0x198 << 23) | ((op as u32) << 16) | (w0 & 0xffff);
            patched = bytes.to_vec();
            patched[..4].copy_from_slice(&w.to_le_bytes());
            (Encoding::Vop3p, op)
        }
        None => {
            let enc = encoding_of(w0).ok_or(DecodeError::Invalid("encoding"))?;
            (enc, opcode_number(enc, w0, dword(bytes, 1).unwrap_or(0)))
        }
    };
    let t = table();
    let idx = t
        .lookup(enc, target, op)
        .ok_or(DecodeError::UnknownOpcode { enc, op })?;
    let info = &t.ops[idx as usize];
    let Printed {
        text,
        len,
        form,
        operands,
        literal,
        modifiers,
        llvm_rejects,
    } = print(
        if patched.is_empty() { bytes } else { &patched },
        info,
        target,
        wave == WaveSize::Wave64,
        strict,
    )?;
    if strict && llvm_rejects {
        return Err(DecodeError::Invalid("field LLVM requires to be zero"));
    }
    let words = (0..len / 4).filter_map(|i| dword(bytes, i)).collect();
    Ok(Instruction {
        opcode: ALL_OPCODES[idx as usize],
        encoding: enc,
        form,
        len,
        words,
        operands,
        literal,
        modifiers,
        text,
        llvm_rejects,
    })
}
