//! Decoding a whole program and splitting it into basic blocks.

use rdna::{Instruction, Operand, Target, WaveSize};

use crate::{Error, Result};

/// How a basic block ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Falls through to the next block.
    Fall,
    /// `s_branch` to a block start.
    Jump(u32),
    /// A conditional branch: taken to `target` when `cond` holds, else falls through.
    Cond {
        /// What is tested.
        cond: BranchCond,
        /// Target PC.
        target: u32,
    },
    /// `s_endpgm`.
    End,
}

/// The condition of a scalar conditional branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BranchCond {
    /// `s_cbranch_scc0` (false) / `s_cbranch_scc1` (true).
    Scc(bool),
    /// `s_cbranch_vccz` (true: taken when VCC is zero) / `vccnz` (false).
    VccZero(bool),
    /// `s_cbranch_execz` (true) / `execnz` (false).
    ExecZero(bool),
}

/// One decoded instruction with its byte offset.
#[derive(Debug, Clone)]
pub struct Inst {
    /// Byte offset in the code.
    pub pc: u32,
    /// The decoded instruction.
    pub inst: Instruction,
    /// The mnemonic without an `_e32`/`_e64`/`_sdwa`/`_dpp` suffix.
    pub name: String,
}

/// A basic block: a run of instructions with one entry and one exit.
#[derive(Debug, Clone)]
pub struct Block {
    /// PC of its first instruction.
    pub start: u32,
    /// PC just past its last instruction.
    pub end: u32,
    /// Indices into [`Program::insts`] (the branch at the end excluded).
    pub body: std::ops::Range<usize>,
    /// How it ends.
    pub exit: Exit,
    /// PC of the exit instruction (the branch), or of the last instruction.
    pub exit_pc: u32,
}

/// A decoded program and its basic blocks, in address order.
#[derive(Debug, Clone)]
pub struct Program {
    /// Every instruction in address order.
    pub insts: Vec<Inst>,
    /// The blocks in address order.
    pub blocks: Vec<Block>,
}

/// The base mnemonic: `v_add_nc_u32_e32` → `v_add_nc_u32`.
pub fn base_name(m: &str) -> &str {
    for suf in ["_e32", "_e64", "_sdwa", "_dpp"] {
        if let Some(s) = m.strip_suffix(suf) {
            return s;
        }
    }
    m
}

fn simm16(i: &Instruction) -> i64 {
    i.operands
        .iter()
        .find_map(|(n, o)| match (n, o) {
            // The field is a signed 16-bit word count.
            (&"simm16", Operand::Imm(v)) => Some(*v as u16 as i16 as i64),
            _ => None,
        })
        .unwrap_or(0)
}

fn branch_of(name: &str) -> Option<Option<BranchCond>> {
    Some(match name {
        "s_branch" => None,
        "s_cbranch_scc0" => Some(BranchCond::Scc(false)),
        "s_cbranch_scc1" => Some(BranchCond::Scc(true)),
        "s_cbranch_vccz" => Some(BranchCond::VccZero(true)),
        "s_cbranch_vccnz" => Some(BranchCond::VccZero(false)),
        "s_cbranch_execz" => Some(BranchCond::ExecZero(true)),
        "s_cbranch_execnz" => Some(BranchCond::ExecZero(false)),
        _ => return None,
    })
}

impl Program {
    /// Decodes `code` from byte 0 and splits it into blocks. Decoding stops at the end
    /// of the bytes, or at an undecodable word after the last reachable `s_endpgm`.
    pub fn decode(code: &[u8], target: Target, wave: WaveSize) -> Result<Program> {
        let mut insts = Vec::new();
        let mut pos = 0usize;
        let mut max_target = 0u32;
        while pos < code.len() {
            let pc = pos as u32;
            let inst = match rdna::decode_wave(&code[pos..], target, wave) {
                Ok(i) => i,
                Err(e) => {
                    let after_end = insts
                        .last()
                        .is_some_and(|l: &Inst| l.name == "s_endpgm" && pc > max_target);
                    if after_end {
                        break;
                    }
                    return Err(Error::Decode {
                        pc,
                        msg: e.to_string(),
                    });
                }
            };
            let name = base_name(inst.mnemonic()).to_string();
            if branch_of(&name).is_some() {
                let t = pc as i64 + 4 + simm16(&inst) * 4;
                if t < 0 || t as usize > code.len() {
                    return Err(Error::ControlFlow {
                        pc,
                        why: format!("branch target {t:#x} outside the code"),
                    });
                }
                max_target = max_target.max(t as u32);
            }
            pos += inst.len;
            let is_end = name == "s_endpgm";
            insts.push(Inst { pc, inst, name });
            if is_end && pos as u32 > max_target && code[pos..].iter().all(|&b| b == 0) {
                break;
            }
        }
        // Leaders: the start, branch targets, and whatever follows a branch or the end.
        let mut leaders = std::collections::BTreeSet::new();
        leaders.insert(0u32);
        for (k, i) in insts.iter().enumerate() {
            if branch_of(&i.name).is_some() {
                leaders.insert((i.pc as i64 + 4 + simm16(&i.inst) * 4) as u32);
            }
            if (branch_of(&i.name).is_some() || i.name == "s_endpgm") && k + 1 < insts.len() {
                leaders.insert(insts[k + 1].pc);
            }
        }
        let index_of = |pc: u32| insts.iter().position(|i| i.pc == pc);
        for &l in &leaders {
            if index_of(l).is_none() && l as usize != code.len() {
                return Err(Error::ControlFlow {
                    pc: l,
                    why: "branch into the middle of an instruction".into(),
                });
            }
        }
        let mut blocks = Vec::new();
        let starts: Vec<usize> = leaders.iter().filter_map(|&l| index_of(l)).collect();
        for (n, &s) in starts.iter().enumerate() {
            let e = starts.get(n + 1).copied().unwrap_or(insts.len());
            let last = &insts[e - 1];
            let end_pc = last.pc + last.inst.len as u32;
            let (exit, body_end) = match branch_of(&last.name) {
                Some(c) => {
                    let t = (last.pc as i64 + 4 + simm16(&last.inst) * 4) as u32;
                    (
                        match c {
                            None => Exit::Jump(t),
                            Some(cond) => Exit::Cond { cond, target: t },
                        },
                        e - 1,
                    )
                }
                None if last.name == "s_endpgm" => (Exit::End, e - 1),
                None => (Exit::Fall, e),
            };
            blocks.push(Block {
                start: insts[s].pc,
                end: end_pc,
                body: s..body_end,
                exit,
                exit_pc: last.pc,
            });
        }
        if let Some(b) = blocks.last() {
            if b.exit == Exit::Fall {
                return Err(Error::ControlFlow {
                    pc: b.exit_pc,
                    why: "code runs off its end without s_endpgm".into(),
                });
            }
        }
        Ok(Program { insts, blocks })
    }

    /// The index of the block starting at `pc`.
    pub fn block_at(&self, pc: u32) -> Option<usize> {
        self.blocks.iter().position(|b| b.start == pc)
    }
}
