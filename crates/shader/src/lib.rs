//! RDNA shader recompiler: RDNA machine code in, SPIR-V out.
//!
//! The pipeline is
//! decode ([`mod@cfg`]) → control-flow graph ([`mod@cfg`]) → structurizer ([`structurize`]) →
//! IR with guest-register get/set ([`ir`], built by [`translate`]) → passes ([`passes`]) →
//! SPIR-V through `rspirv` ([`spirv`]). [`recompile`] runs all of it.
//!
//! The input is the code bytes, the stage and the initial register state
//! ([`ShaderInput`]): which SGPRs hold constants (descriptor-table pointers, on which the
//! shader is specialized), which hold dynamic values (push constants, workgroup ids), and
//! which VGPRs hold the local invocation id. Descriptor tables are read through
//! [`GuestMemory`] at recompile time: an `s_load_dword*` from a known address becomes the
//! constants it loads, and a buffer instruction whose V# is such a constant is bound to a
//! SPIR-V storage buffer ([`BufferBinding`]). This crate knows nothing about Vulkan devices.
//!
//! # Wave semantics
//!
//! A guest wave has 32 or 64 lanes; EXEC says which run. The recompiler maps **one guest
//! lane to one host invocation** and keeps every guest register in a per-invocation
//! variable:
//!
//! - VGPRs are per-lane values. A VALU write is `dst = active ? result : dst`, where
//!   `active` is the invocation's bit of EXEC, so inactive lanes keep their values exactly
//!   as the hardware does. Stores and atomics of inactive lanes sit behind a real branch.
//! - SGPRs, VCC, EXEC, M0 and SCC are wave-uniform values; every invocation computes the
//!   same value, because SALU code only reads uniform inputs.
//! - A lane mask written by VALU (VOPC, carry-outs) is a subgroup ballot ANDed with EXEC.
//!   A VALU read of a mask (v_cndmask, carry-in) reads the invocation's bit.
//! - Scalar branches (`s_cbranch_*`, `s_branch`) are uniform, so they become real
//!   structured SPIR-V control flow, and all host invocations of a subgroup stay
//!   converged: a ballot always sees the whole wave.
//!
//! This is exact when each guest wave is exactly one host subgroup, with guest lane =
//! `SubgroupLocalInvocationId`: the **fast path**. It holds when the workgroup has no
//! more lanes than the host subgroup (lavapipe: 8), or when the host subgroup size equals
//! the guest wave size. Everything else needs the **exact fallback**: one host
//! invocation runs a whole guest wave, looping over its lanes for VALU and keeping lane
//! masks as plain integers (cross-lane operations become array indexing, barriers stay
//! workgroup barriers because a wave is one invocation). The fallback is designed, not
//! yet built: [`recompile`] rejects such shaders with [`Error::WaveMapping`] rather than
//! emitting a shader that would be wrong.
//!
//! # What is translated (v1, compute)
//!
//! SALU (32- and 64-bit bitwise, arithmetic with SCC, compares, `s_*_saveexec`, bit
//! fields, `s_ff1`/`s_bcnt1`), SMEM (`s_load_dword*` from known descriptor addresses,
//! `s_buffer_load_dword*` through a V#), VALU for u32/i32/f32 (VOP1/2/3/C, VOP3
//! modifiers and omod, SDWA, DPP16), f64 arithmetic and conversions, 16-bit VALU with
//! op_sel and packed VOP3P math, MUBUF dword/byte/short loads, stores and atomics, DS
//! reads, writes and atomics, `s_barrier`, cross-lane reads (`v_readlane`,
//! `v_readfirstlane`, `v_writelane`, `v_permlane(x)16`, `ds_bpermute`), and the MODE
//! contract. Not yet: MTBUF, GLOBAL/FLAT, images and samplers (T#/S#), DPP8,
//! `ds_swizzle`, f64 division helpers (`v_div_scale/fmas/fixup`), push constants
//! through a pointer, multi-wave workgroups, and cross-block SSA construction (blocks
//! are SSA; registers between blocks are function variables the driver promotes).
//!
//! # Errors
//!
//! Every failure names the program counter and the instruction. An instruction the
//! translator does not know is [`Error::Unsupported`], never a silent no-op.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cfg;
pub mod ir;
pub mod passes;
pub mod spirv;
pub mod structurize;
pub mod translate;

pub use rdna::{Target, WaveSize};

/// A failed recompilation; always names where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The bytes at `pc` do not decode.
    #[error("pc {pc:#x}: cannot decode: {msg}")]
    Decode {
        /// Byte offset in the code.
        pc: u32,
        /// The decoder's message.
        msg: String,
    },
    /// The instruction at `pc` is not supported (yet).
    #[error("pc {pc:#x}: unsupported instruction `{text}`: {why}")]
    Unsupported {
        /// Byte offset in the code.
        pc: u32,
        /// The instruction text.
        text: String,
        /// What is missing.
        why: String,
    },
    /// The control flow around `pc` is not one the structurizer handles.
    #[error("pc {pc:#x}: control flow not structurizable: {why}")]
    ControlFlow {
        /// Byte offset of the branch.
        pc: u32,
        /// Why.
        why: String,
    },
    /// The guest wave cannot be mapped onto the host subgroup with the fast path.
    #[error("wave mapping: {0}")]
    WaveMapping(String),
    /// The register state or guest memory does not describe what the code needs.
    #[error("pc {pc:#x}: {why}")]
    State {
        /// Byte offset of the instruction that needs it.
        pc: u32,
        /// What is missing.
        why: String,
    },
}

/// Result alias of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// Guest memory the recompiler may read at recompile time (descriptor tables).
pub trait GuestMemory {
    /// The `len` bytes at guest address `addr`, or `None` if not mapped or not constant.
    fn read(&self, addr: u64, len: usize) -> Option<Vec<u8>>;
}

/// The shader stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// A compute shader.
    Compute,
}

/// What an argument SGPR holds when the wave starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SgprValue {
    /// A value known at recompile time (descriptor-table pointers, which the shader is
    /// specialized on).
    Const(u32),
    /// Dword `n` of the host push-constant block (dynamic).
    PushConstant(u32),
    /// The workgroup id on an axis (0 = x).
    WorkgroupId(u8),
    /// The number of workgroups on an axis (0 = x).
    NumWorkgroups(u8),
    /// Which wave of the workgroup this is and how many there are (`tg_size`); always
    /// wave 0 of 1 on the fast path.
    TgSize,
}

/// What an argument VGPR holds when the wave starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VgprValue {
    /// The local invocation id on an axis (0 = x).
    LocalId(u8),
}

/// The compiled shader, its stage and its starting state.
#[derive(Debug, Clone)]
pub struct ShaderInput<'a> {
    /// The machine code; execution starts at byte 0.
    pub code: &'a [u8],
    /// The GPU the code was compiled for.
    pub target: Target,
    /// The stage.
    pub stage: Stage,
    /// The wave size the code runs with.
    pub wave: WaveSize,
    /// Workgroup size (compute).
    pub workgroup: [u32; 3],
    /// Argument SGPRs: register number and what it holds. Others start undefined (0).
    pub sgprs: Vec<(u8, SgprValue)>,
    /// Argument VGPRs.
    pub vgprs: Vec<(u16, VgprValue)>,
    /// LDS bytes the shader uses.
    pub lds_bytes: u32,
    /// The host subgroup size the module will run with.
    pub host_subgroup: u32,
    /// Initial MODE register bits 0–3 (f32 rounding in 0–1, f16/f64 rounding in 2–3);
    /// `None` means round-to-nearest-even.
    pub float_mode: Option<u8>,
    /// Use [`Mapping::Workgroup`] even where the fast path fits (for testing the
    /// exact path on everything).
    pub force_workgroup_mapping: bool,
}

/// A storage buffer the recompiled shader binds, resolved from a V# descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BufferBinding {
    /// Binding number in descriptor set 0.
    pub binding: u32,
    /// The guest address the V# points at (its base).
    pub guest_base: u64,
    /// The V#'s `num_records` (bytes, for raw buffers).
    pub num_records: u32,
    /// The four V# dwords, as specialized on.
    pub descriptor: [u32; 4],
}

/// The recompiled shader.
#[derive(Debug, Clone)]
pub struct Output {
    /// SPIR-V words (entry point `main`).
    pub spirv: Vec<u32>,
    /// Storage buffers at set 0, in binding order.
    pub buffers: Vec<BufferBinding>,
    /// Push-constant bytes the module reads.
    pub push_bytes: u32,
    /// Cache key: SHA-1 of the code and of every descriptor fact specialized on.
    pub key: [u8; 20],
    /// The lane mapping used; with [`Mapping::Workgroup`] the module's local size is
    /// the wave size, not the guest workgroup size (dispatch the same group count).
    pub mapping: Mapping,
}

/// Recompiles a shader: decode, CFG, structurize, translate, passes, SPIR-V.
///
/// MODE: `s_getreg_b32` of the rounding fields (bits 0–3) returns
/// [`ShaderInput::float_mode`]; `s_setreg_imm32_b32` and `s_round_mode` are accepted
/// only when they write the value already there; SGPR-sourced MODE writes, other
/// fields and other hardware registers are errors naming the PC. The emitted arithmetic
/// rounds to nearest even, so an initial mode with other rounding is refused.
pub fn recompile(input: &ShaderInput<'_>, mem: &dyn GuestMemory) -> Result<Output> {
    if input.float_mode.unwrap_or(0) & 0xf != 0 {
        return Err(Error::State {
            pc: 0,
            why: format!(
                "initial MODE rounding {:#x}: only round-to-nearest-even arithmetic is emitted",
                input.float_mode.unwrap_or(0) & 0xf
            ),
        });
    }
    let lanes: u32 = input.workgroup.iter().product();
    let wave_lanes = match input.wave {
        WaveSize::Wave32 => 32,
        WaveSize::Wave64 => 64,
    };
    let program = cfg::Program::decode(input.code, input.target, input.wave)?;
    let one_d = input.workgroup[1] == 1 && input.workgroup[2] == 1;
    let fits = lanes <= input.host_subgroup && one_d && !translate::uses_cross_lane(&program);
    let mapping = if fits && !input.force_workgroup_mapping {
        Mapping::Subgroup
    } else if lanes <= wave_lanes {
        Mapping::Workgroup
    } else {
        return Err(Error::WaveMapping(format!(
            "workgroup of {lanes} lanes is more than one wave{wave_lanes}; multi-wave \
             workgroups are not implemented yet"
        )));
    };
    let tree = structurize::structurize(&program)?;
    let mut module = translate::translate(input, &program, &tree, mem, mapping)?;
    passes::run_all(&mut module);
    let spirv = spirv::emit(&module, input)?;
    let key = translate::cache_key(input, &module);
    Ok(Output {
        spirv,
        buffers: module.buffers.clone(),
        push_bytes: module.push_bytes,
        key,
        mapping,
    })
}

/// How guest lanes map onto host invocations (see the crate docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mapping {
    /// One guest wave is one host subgroup: ballots are subgroup ballots.
    #[default]
    Subgroup,
    /// One guest wave is one host workgroup of wave-size invocations: lanes past the
    /// guest workgroup exist as inactive lanes, and cross-lane operations go through
    /// workgroup memory with barriers.
    Workgroup,
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoMem;
    impl GuestMemory for NoMem {
        fn read(&self, _: u64, _: usize) -> Option<Vec<u8>> {
            None
        }
    }

    fn input(code: &[u8]) -> ShaderInput<'_> {
        ShaderInput {
            code,
            target: Target::Gfx1030,
            stage: Stage::Compute,
            wave: WaveSize::Wave64,
            workgroup: [8, 1, 1],
            sgprs: vec![],
            vgprs: vec![(0, VgprValue::LocalId(0))],
            lds_bytes: 0,
            host_subgroup: 8,
            float_mode: None,
            force_workgroup_mapping: false,
        }
    }

    fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn unsupported_instruction_names_pc_and_text() {
        // v_mov_b32 v0, 0; s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)? use s_sethalt 0 instead;
        // s_endpgm.
        let code = bytes(&[0x7e00_0280, 0xbf8d_0000, 0xbf81_0000]);
        let e = recompile(&input(&code), &NoMem).unwrap_err();
        match e {
            Error::Unsupported { pc, ref text, .. } => {
                assert_eq!(pc, 4);
                assert!(text.starts_with("s_sethalt"), "{text}");
            }
            other => panic!("{other}"),
        }
    }

    #[test]
    fn scalar_loop_emits_structured_spirv() {
        // s_mov_b32 s0, 4; loop: s_sub_u32 s0, s0, 1; s_cmp_lg_u32 s0, 0;
        // s_cbranch_scc1 loop; s_endpgm.
        let code = bytes(&[
            0xbe80_0384,
            0x8080_8100,
            0xbf07_8000,
            0xbf85_fffd,
            0xbf81_0000,
        ]);
        let out = recompile(&input(&code), &NoMem).unwrap();
        assert_eq!(out.spirv[0], 0x0723_0203);
        let text = format!(
            "{:?}",
            structurize::structurize(
                &cfg::Program::decode(&code, Target::Gfx1030, WaveSize::Wave64).unwrap()
            )
            .unwrap()
        );
        assert!(text.contains("Loop"), "{text}");
    }

    #[test]
    fn mode_register_contract() {
        let end = 0xbf81_0000;
        // s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4) reads the initial rounding (0).
        let ok = bytes(&[0xb900_1801, end]);
        assert!(recompile(&input(&ok), &NoMem).is_ok());
        // s_setreg_imm32_b32 hwreg(MODE, 0, 4), 0: no change, accepted; bits above the
        // width are ignored.
        let same = bytes(&[0xba80_1801, 0x0000_0010, end]);
        assert!(recompile(&input(&same), &NoMem).is_ok());
        // ... to 1 (round toward +inf for f32): a change, refused with the PC.
        let change = bytes(&[0x7e00_0280, 0xba80_0801, 1, end]);
        let e = recompile(&input(&change), &NoMem).unwrap_err();
        assert!(matches!(e, Error::Unsupported { pc: 4, .. }), "{e}");
        // s_setreg_b32 from an SGPR: refused.
        let sgpr = bytes(&[0xb980_1801, end]);
        assert!(recompile(&input(&sgpr), &NoMem).is_err());
        // s_round_mode 0 accepted, 3 refused.
        assert!(recompile(&input(&bytes(&[0xbfa4_0000, end])), &NoMem).is_ok());
        assert!(recompile(&input(&bytes(&[0xbfa4_0003, end])), &NoMem).is_err());
        // Other fields and registers: refused.
        let status = bytes(&[0xb900_1802, end]);
        assert!(recompile(&input(&status), &NoMem).is_err());
        let upper = bytes(&[0xb900_1901, end]);
        assert!(recompile(&input(&upper), &NoMem).is_err());
    }

    #[test]
    fn big_workgroups_are_rejected_not_miscompiled() {
        let code = bytes(&[0xbf81_0000]);
        let mut i = input(&code);
        i.workgroup = [128, 1, 1];
        assert!(matches!(recompile(&i, &NoMem), Err(Error::WaveMapping(_))));
        // One full wave takes the workgroup mapping.
        i.workgroup = [64, 1, 1];
        assert_eq!(recompile(&i, &NoMem).unwrap().mapping, Mapping::Workgroup);
    }

    #[test]
    fn branch_outside_code_is_an_error() {
        let code = bytes(&[0xbf82_0100, 0xbf81_0000]);
        assert!(matches!(
            recompile(&input(&code), &NoMem),
            Err(Error::ControlFlow { pc: 0, .. })
        ));
    }
}
