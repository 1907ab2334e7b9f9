//! RDNA → IR: each instruction becomes register gets, operations and register sets.
//!
//! Resource tracking runs first: a forward data-flow pass over the blocks finds which
//! SGPRs hold values known at recompile time at each instruction (argument constants,
//! `s_mov*`, and `s_load_dword*` from known addresses, read through [`GuestMemory`]). A
//! buffer instruction's V# must be known there; it becomes a [`BufferBinding`].

use rdna::{Encoding, Form, Operand, WaveSize};
use sha1::{Digest, Sha1};

use crate::cfg::{BranchCond, Exit, Inst, Program};
use crate::ir::{
    self, AtomicOp, BinOp, Block, Builtin, CmpOp, Op, Reg, Space, TriOp, UnOp, Val, EXEC_LO, VCC_LO,
};
use crate::structurize::Node;
use crate::{
    BufferBinding, Error, GuestMemory, Mapping, Result, SgprValue, ShaderInput, VgprValue,
};

/// What resource tracking knows about one scalar register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum K {
    /// No path has reached it yet.
    Top,
    /// Known value.
    Const(u32),
    /// Not known at recompile time.
    Var,
}

fn meet(a: K, b: K) -> K {
    match (a, b) {
        (K::Top, x) | (x, K::Top) => x,
        (K::Const(x), K::Const(y)) if x == y => a,
        _ => K::Var,
    }
}

type State = [K; 128];

fn special_reg(name: &str) -> Option<(u16, u8)> {
    Some(match name {
        "vcc_lo" => (VCC_LO, 1),
        "vcc_hi" => (VCC_LO + 1, 1),
        "vcc" => (VCC_LO, 2),
        "m0" => (ir::M0, 1),
        "exec_lo" => (EXEC_LO, 1),
        "exec_hi" => (EXEC_LO + 1, 1),
        "exec" => (EXEC_LO, 2),
        _ => return None,
    })
}

/// The scalar registers an operand names, if it names scalar registers.
fn scalar_regs(o: &Operand) -> Option<(u16, u8)> {
    match *o {
        Operand::Sgpr { first, count } => Some((first as u16, count)),
        Operand::Special(n) => special_reg(n),
        _ => None,
    }
}

fn inline_f32(e: u8) -> u32 {
    let f: f32 = match e {
        240 => 0.5,
        241 => -0.5,
        242 => 1.0,
        243 => -1.0,
        244 => 2.0,
        245 => -2.0,
        246 => 4.0,
        247 => -4.0,
        _ => return 0x3e22_f983, // 1/(2π)
    };
    f.to_bits()
}

/// Which scalar registers an instruction writes (for resource tracking).
fn scalar_writes(i: &Inst) -> Vec<u16> {
    let mut out = Vec::new();
    for (k, (name, o)) in i.inst.operands.iter().enumerate() {
        let is_dst = matches!(*name, "sdst" | "sdata") || (k == 0 && *name == "vdst");
        if is_dst {
            if let Some((r, n)) = scalar_regs(o) {
                out.extend(r..r + n as u16);
            }
        }
    }
    let n = &i.name;
    if i.inst.encoding == Encoding::Vopc
        || (i.inst.encoding == Encoding::Vop2 && n.contains("_co_ci_"))
    {
        let cmpx = n.starts_with("v_cmpx");
        let base = if cmpx { EXEC_LO } else { VCC_LO };
        out.extend([base, base + 1]);
    }
    if n.ends_with("saveexec_b32") || n.ends_with("saveexec_b64") || n.starts_with("v_cmpx") {
        out.extend([EXEC_LO, EXEC_LO + 1]);
    }
    out
}

fn operand<'a>(i: &'a Inst, field: &str) -> Option<&'a Operand> {
    i.inst
        .operands
        .iter()
        .find(|(n, _)| *n == field)
        .map(|(_, o)| o)
}

fn unsupported(i: &Inst, why: impl Into<String>) -> Error {
    Error::Unsupported {
        pc: i.pc,
        text: i.inst.text.clone(),
        why: why.into(),
    }
}

struct Tracker<'a> {
    mem: &'a dyn GuestMemory,
}

impl Tracker<'_> {
    fn value(&self, st: &State, o: &Operand) -> K {
        match *o {
            Operand::InlineInt(v) => K::Const(v as i32 as u32),
            Operand::Literal(v) => K::Const(v),
            Operand::InlineFloat(e) => K::Const(inline_f32(e)),
            _ => match scalar_regs(o) {
                Some((r, 1)) => st[r as usize],
                _ => K::Var,
            },
        }
    }

    /// The address an SMEM load reads, when known.
    fn smem_addr(&self, st: &State, i: &Inst) -> Option<u64> {
        let (b, _) = scalar_regs(operand(i, "sbase")?)?;
        let (K::Const(lo), K::Const(hi)) = (st[b as usize], st[b as usize + 1]) else {
            return None;
        };
        let off = match operand(i, "offset").or_else(|| operand(i, "soffset"))? {
            Operand::Imm(v) => *v as u64,
            o => match self.value(st, o) {
                K::Const(v) => v as u64,
                _ => return None,
            },
        };
        Some(((hi as u64) << 32 | lo as u64).wrapping_add(off))
    }

    fn smem_dwords(i: &Inst) -> Option<usize> {
        Some(match i.name.as_str() {
            "s_load_dword" | "s_buffer_load_dword" => 1,
            "s_load_dwordx2" | "s_buffer_load_dwordx2" => 2,
            "s_load_dwordx4" | "s_buffer_load_dwordx4" => 4,
            "s_load_dwordx8" | "s_buffer_load_dwordx8" => 8,
            "s_load_dwordx16" | "s_buffer_load_dwordx16" => 16,
            _ => return None,
        })
    }

    fn load(&self, addr: u64, n: usize) -> Option<Vec<u32>> {
        let b = self.mem.read(addr, n * 4)?;
        (b.len() == n * 4).then(|| {
            b.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
    }

    fn step(&self, st: &mut State, i: &Inst) {
        let dst = operand(i, "sdst").and_then(scalar_regs);
        match i.name.as_str() {
            "s_mov_b32" => {
                if let (Some((d, 1)), Some(s)) = (dst, operand(i, "ssrc0")) {
                    st[d as usize] = self.value(st, s);
                    return;
                }
            }
            "s_mov_b64" => {
                if let (Some((d, 2)), Some(s)) = (dst, operand(i, "ssrc0")) {
                    let v = match scalar_regs(s) {
                        Some((r, 2)) => [st[r as usize], st[r as usize + 1]],
                        _ => match self.value(st, s) {
                            K::Const(v) => [K::Const(v), K::Const(((v as i32) >> 31) as u32)],
                            k => [k, k],
                        },
                    };
                    st[d as usize] = v[0];
                    st[d as usize + 1] = v[1];
                    return;
                }
            }
            "s_movk_i32" => {
                if let (Some((d, 1)), Some(Operand::Imm(v))) = (dst, operand(i, "simm16")) {
                    st[d as usize] = K::Const(*v as i16 as i32 as u32);
                    return;
                }
            }
            _ => {}
        }
        // Only descriptor-table loads (`s_load_*`) are constants; `s_buffer_load_*`
        // reads buffer contents, which are dynamic, and falls through to `Var`.
        if let Some(n) = Self::smem_dwords(i).filter(|_| i.name.starts_with("s_load_")) {
            if let Some((d, _)) = operand(i, "sdata").and_then(scalar_regs) {
                let vals = self.smem_addr(st, i).and_then(|a| self.load(a, n));
                for k in 0..n {
                    st[d as usize + k] = vals.as_ref().map_or(K::Var, |v| K::Const(v[k]));
                }
                return;
            }
        }
        for r in scalar_writes(i) {
            if (r as usize) < st.len() {
                st[r as usize] = K::Var;
            }
        }
    }
}

fn entry_state(input: &ShaderInput<'_>) -> State {
    let mut st = [K::Var; 128];
    for &(r, v) in &input.sgprs {
        if let SgprValue::Const(c) = v {
            st[r as usize] = K::Const(c);
        }
    }
    st
}

/// Forward data flow: the known scalar registers at each block's entry.
fn track(input: &ShaderInput<'_>, p: &Program, t: &Tracker<'_>) -> Vec<State> {
    let n = p.blocks.len();
    let mut entry = vec![[K::Top; 128]; n];
    if n == 0 {
        return entry;
    }
    entry[0] = entry_state(input);
    let mut work: Vec<usize> = vec![0];
    let mut rounds = 0;
    while let Some(b) = work.pop() {
        rounds += 1;
        if rounds > 100_000 {
            break;
        }
        let mut st = entry[b];
        for i in &p.insts[p.blocks[b].body.clone()] {
            t.step(&mut st, i);
        }
        let mut succ = Vec::new();
        match p.blocks[b].exit {
            Exit::Fall => succ.push(b + 1),
            Exit::Jump(pc) => succ.extend(p.block_at(pc)),
            Exit::Cond { target, .. } => {
                succ.extend(p.block_at(target));
                succ.push(b + 1);
            }
            Exit::End => {}
        }
        for s in succ {
            if s >= n {
                continue;
            }
            let mut changed = false;
            for r in 0..128 {
                let m = meet(entry[s][r], st[r]);
                if m != entry[s][r] {
                    entry[s][r] = m;
                    changed = true;
                }
            }
            // A block reached for the first time still needs a visit.
            if changed || (s != 0 && entry[s].iter().all(|k| *k == K::Top)) {
                work.push(s);
            }
        }
    }
    entry
}

/// Whether the program reads other lanes' values (which needs [`Mapping::Workgroup`]).
pub fn uses_cross_lane(p: &Program) -> bool {
    p.insts.iter().any(|i| {
        matches!(i.inst.form, Form::Dpp16 | Form::Dpp8)
            || matches!(
                i.name.as_str(),
                "v_readlane_b32"
                    | "v_readfirstlane_b32"
                    | "v_writelane_b32"
                    | "v_permlane16_b32"
                    | "v_permlanex16_b32"
                    | "ds_swizzle_b32"
                    | "ds_bpermute_b32"
                    | "ds_permute_b32"
            )
    })
}

/// Translates a structured program into the IR.
pub fn translate(
    input: &ShaderInput<'_>,
    p: &Program,
    tree: &[Node],
    mem: &dyn GuestMemory,
    mapping: Mapping,
) -> Result<ir::Module> {
    let tracker = Tracker { mem };
    let entry = track(input, p, &tracker);
    let mut tr = Tr {
        input,
        p,
        tracker,
        entry,
        buffers: Vec::new(),
        push_bytes: 0,
        wave64: input.wave == WaveSize::Wave64,
        lds_reads: true,
        lds_writes: true,
        mapping,
    };
    let mut body = vec![ir::Node::Code(tr.prologue())];
    body.extend(tr.nodes(tree)?);
    Ok(ir::Module {
        body,
        buffers: tr.buffers,
        push_bytes: tr.push_bytes,
        workgroup: input.workgroup,
        lds_bytes: input.lds_bytes,
        mapping,
        wave_lanes: if tr.wave64 { 64 } else { 32 },
    })
}

/// The cache key: the code, the register state and every descriptor specialized on.
pub fn cache_key(input: &ShaderInput<'_>, m: &ir::Module) -> [u8; 20] {
    let mut h = Sha1::new();
    h.update(input.code);
    h.update(format!(
        "{:?}{:?}{:?}{:?}{}{}{:?}",
        input.target,
        input.wave,
        input.workgroup,
        input.sgprs,
        input.lds_bytes,
        input.host_subgroup,
        input.float_mode
    ));
    for b in &m.buffers {
        for w in b.descriptor {
            h.update(w.to_le_bytes());
        }
    }
    h.finalize().into()
}

struct Tr<'a> {
    input: &'a ShaderInput<'a>,
    p: &'a Program,
    tracker: Tracker<'a>,
    entry: Vec<State>,
    buffers: Vec<BufferBinding>,
    push_bytes: u32,
    wave64: bool,
    /// LDS reads / writes since the last barrier: a guest wave's DS instructions run in
    /// order across its lanes, which host invocations only do with a barrier between
    /// conflicting accesses.
    lds_reads: bool,
    lds_writes: bool,
    mapping: Mapping,
}

fn atomic_of(name: &str) -> Option<AtomicOp> {
    Some(match name {
        "add" => AtomicOp::Add,
        "sub" => AtomicOp::Sub,
        "smin" | "min_i32" => AtomicOp::MinI,
        "umin" | "min_u32" => AtomicOp::MinU,
        "smax" | "max_i32" => AtomicOp::MaxI,
        "umax" | "max_u32" => AtomicOp::MaxU,
        "and" | "and_b32" => AtomicOp::And,
        "or" | "or_b32" => AtomicOp::Or,
        "xor" | "xor_b32" => AtomicOp::Xor,
        "swap" | "wrxchg_rtn_b32" => AtomicOp::Swap,
        "add_u32" => AtomicOp::Add,
        "sub_u32" => AtomicOp::Sub,
        _ => return None,
    })
}

/// VOP3 input modifiers of one source.
#[derive(Clone, Copy, Default)]
struct Mods {
    neg: bool,
    abs: bool,
}

impl Tr<'_> {
    fn prologue(&mut self) -> Block {
        let mut b = Block::default();
        for &(r, v) in &self.input.sgprs.clone() {
            let val = match v {
                SgprValue::Const(c) => b.push(Op::Const(c)),
                SgprValue::PushConstant(n) => {
                    self.push_bytes = self.push_bytes.max(4 * (n + 1));
                    b.push(Op::Push(n))
                }
                SgprValue::WorkgroupId(a) => b.push(Op::Builtin(Builtin::WorkgroupId(a))),
                SgprValue::NumWorkgroups(a) => b.push(Op::Builtin(Builtin::NumWorkgroups(a))),
                // One wave per workgroup on the fast path: wave 0 of 1.
                SgprValue::TgSize => b.push(Op::Const(1)),
            };
            b.push(Op::Set(Reg::S(r as u16), val));
        }
        // On the fast path the workgroup is one host subgroup, and the host may order
        // its lanes differently from the local invocation index. The guest relies on
        // lane = local index (ACO computes gl_LocalInvocationIndex with mbcnt), so the
        // local id VGPRs are derived from the lane, not from the host's own id.
        let [sx, sy, _] = self.input.workgroup;
        let lane = b.push(Op::Builtin(Builtin::Lane));
        let sxv = b.push(Op::Const(sx.max(1)));
        let sxy = b.push(Op::Const((sx * sy).max(1)));
        for &(r, v) in &self.input.vgprs {
            let VgprValue::LocalId(a) = v;
            let val = match a {
                0 => {
                    let q = b.push(Op::Bin(BinOp::DivU, lane, sxv));
                    let m = b.push(Op::Bin(BinOp::Mul, q, sxv));
                    b.push(Op::Bin(BinOp::Sub, lane, m))
                }
                1 => {
                    let syv = b.push(Op::Const(sy.max(1)));
                    let q = b.push(Op::Bin(BinOp::DivU, lane, sxv));
                    let q2 = b.push(Op::Bin(BinOp::DivU, q, syv));
                    let m = b.push(Op::Bin(BinOp::Mul, q2, syv));
                    b.push(Op::Bin(BinOp::Sub, q, m))
                }
                _ => b.push(Op::Bin(BinOp::DivU, lane, sxy)),
            };
            b.push(Op::Set(Reg::V(r), val));
        }
        // The guest workgroup's lanes start active; on the workgroup mapping the lanes
        // past it exist with EXEC clear, as on the hardware.
        let t = match self.mapping {
            Mapping::Subgroup => b.push(Op::ConstBool(true)),
            Mapping::Workgroup => {
                let n = b.push(Op::Const(self.input.workgroup.iter().product()));
                b.push(Op::Cmp(CmpOp::LtU, lane, n))
            }
        };
        let lo = b.push(Op::Ballot(t, 0));
        b.push(Op::Set(Reg::S(EXEC_LO), lo));
        let hi = if self.wave64 {
            b.push(Op::Ballot(t, 1))
        } else {
            b.push(Op::Const(0))
        };
        b.push(Op::Set(Reg::S(EXEC_LO + 1), hi));
        let z = b.push(Op::Const(0));
        for r in [Reg::S(VCC_LO), Reg::S(VCC_LO + 1), Reg::Scc, Reg::S(ir::M0)] {
            b.push(Op::Set(r, z));
        }
        b
    }

    fn nodes(&mut self, tree: &[Node]) -> Result<Vec<ir::Node>> {
        let mut out = Vec::new();
        for n in tree {
            out.push(match n {
                Node::Block(k) => ir::Node::Code(self.block(*k)?),
                Node::If {
                    cond,
                    want,
                    then,
                    els,
                    ..
                } => {
                    let mut cb = Block::default();
                    let c = self.branch_cond(&mut cb, *cond);
                    if !*want {
                        cb.push(Op::LogicNot(c));
                    }
                    ir::Node::If {
                        cond_block: cb,
                        then: self.nodes(then)?,
                        els: self.nodes(els)?,
                    }
                }
                Node::Loop { body, .. } => ir::Node::Loop(self.nodes(body)?),
                Node::Break => ir::Node::Break,
                Node::Continue => ir::Node::Continue,
                Node::End => ir::Node::End,
            });
        }
        Ok(out)
    }

    fn branch_cond(&self, b: &mut Block, c: BranchCond) -> Val {
        let zero = b.push(Op::Const(0));
        let (v, want) = match c {
            BranchCond::Scc(w) => (b.push(Op::Get(Reg::Scc)), !w),
            BranchCond::VccZero(w) => (self.get64_or(b, VCC_LO), w),
            BranchCond::ExecZero(w) => (self.get64_or(b, EXEC_LO), w),
        };
        // `want` true: taken when the value is zero.
        b.push(Op::Cmp(if want { CmpOp::Eq } else { CmpOp::Ne }, v, zero))
    }

    /// The OR of a lane mask's halves (for zero tests).
    fn get64_or(&self, b: &mut Block, r: u16) -> Val {
        let lo = b.push(Op::Get(Reg::S(r)));
        if !self.wave64 {
            return lo;
        }
        let hi = b.push(Op::Get(Reg::S(r + 1)));
        b.push(Op::Bin(BinOp::Or, lo, hi))
    }

    fn block(&mut self, k: usize) -> Result<Block> {
        let mut st = self.entry[k];
        let mut b = Block::default();
        // Another block may have touched LDS without a barrier since.
        self.lds_reads = true;
        self.lds_writes = true;
        let range = self.p.blocks[k].body.clone();
        for idx in range {
            let i = &self.p.insts[idx];
            self.inst(&mut b, &st, i)?;
            self.tracker.step(&mut st, i);
        }
        Ok(b)
    }

    // ---- operand helpers ----

    fn src(&self, b: &mut Block, i: &Inst, o: &Operand) -> Result<Val> {
        Ok(match *o {
            Operand::Vgpr { first, .. } => b.push(Op::Get(Reg::V(first))),
            Operand::InlineInt(v) => b.push(Op::Const(v as i32 as u32)),
            Operand::InlineFloat(e) => b.push(Op::Const(inline_f32(e))),
            Operand::Literal(v) => b.push(Op::Const(v)),
            Operand::Special("null") => b.push(Op::Const(0)),
            Operand::Special("scc" | "src_scc") => b.push(Op::Get(Reg::Scc)),
            _ => match scalar_regs(o) {
                Some((r, _)) => b.push(Op::Get(Reg::S(r))),
                None => return Err(unsupported(i, format!("operand {o:?}"))),
            },
        })
    }

    /// A 64-bit scalar source as (lo, hi).
    fn src64(&self, b: &mut Block, i: &Inst, o: &Operand) -> Result<(Val, Val)> {
        Ok(match *o {
            Operand::InlineInt(v) => {
                let v = v as i64 as u64;
                (
                    b.push(Op::Const(v as u32)),
                    b.push(Op::Const((v >> 32) as u32)),
                )
            }
            Operand::Literal(v) => (b.push(Op::Const(v)), b.push(Op::Const(0))),
            // 64-bit operands read inline float constants as f64.
            Operand::InlineFloat(e) => {
                let v = (f32::from_bits(inline_f32(e)) as f64).to_bits();
                let v = if e == 248 { 0x3fc4_5f30_6dc9_c882 } else { v };
                (
                    b.push(Op::Const(v as u32)),
                    b.push(Op::Const((v >> 32) as u32)),
                )
            }
            _ => match scalar_regs(o) {
                Some((r, 2)) => (b.push(Op::Get(Reg::S(r))), b.push(Op::Get(Reg::S(r + 1)))),
                _ => return Err(unsupported(i, format!("64-bit operand {o:?}"))),
            },
        })
    }

    /// A 64-bit VALU source as (lo, hi): a VGPR or SGPR pair, or a constant.
    fn vsrc64(&self, b: &mut Block, i: &Inst, o: &Operand) -> Result<(Val, Val)> {
        match *o {
            Operand::Vgpr { first, .. } => Ok((
                b.push(Op::Get(Reg::V(first))),
                b.push(Op::Get(Reg::V(first + 1))),
            )),
            _ => self.src64(b, i, o),
        }
    }

    /// The source operands, in order, after the destinations.
    fn srcs<'b>(&self, i: &'b Inst) -> Vec<&'b Operand> {
        i.inst
            .operands
            .iter()
            .filter(|(n, _)| !matches!(*n, "vdst" | "sdst"))
            .map(|(_, o)| o)
            .collect()
    }

    fn vop3_mods(&self, i: &Inst) -> ([Mods; 3], bool, u32) {
        let mut m = [Mods::default(); 3];
        if i.inst.form == Form::Dpp16 {
            let w = i.inst.words[1];
            m[0] = Mods {
                neg: (w >> 20) & 1 != 0,
                abs: (w >> 21) & 1 != 0,
            };
            m[1] = Mods {
                neg: (w >> 22) & 1 != 0,
                abs: (w >> 23) & 1 != 0,
            };
            return (m, false, 0);
        }
        if i.inst.form == Form::Sdwa {
            let w = i.inst.words[1];
            m[0] = Mods {
                neg: (w >> 20) & 1 != 0,
                abs: (w >> 21) & 1 != 0,
            };
            m[1] = Mods {
                neg: (w >> 28) & 1 != 0,
                abs: (w >> 29) & 1 != 0,
            };
            return (m, (w >> 13) & 1 != 0, (w >> 14) & 3);
        }
        if i.inst.encoding != Encoding::Vop3 || i.inst.words.len() < 2 {
            return (m, false, 0);
        }
        let w0 = i.inst.words[0];
        let w1 = i.inst.words[1];
        let vop3b = i.inst.operands.iter().any(|(n, _)| *n == "sdst");
        for (k, mk) in m.iter_mut().enumerate() {
            mk.abs = !vop3b && (w0 >> (8 + k)) & 1 != 0;
            mk.neg = (w1 >> (29 + k)) & 1 != 0;
        }
        let clamp = (w0 >> 15) & 1 != 0;
        let omod = (w1 >> 27) & 3;
        (m, clamp, omod)
    }

    /// The lane's EXEC bit.
    fn active(&self, b: &mut Block) -> Val {
        let lane = b.push(Op::Builtin(Builtin::Lane));
        let lo = b.push(Op::Get(Reg::S(EXEC_LO)));
        self.lane_bit(b, lo, lane, EXEC_LO)
    }

    /// The lane's bit of the mask in scalar registers `r`, `r + 1`.
    fn lane_bit(&self, b: &mut Block, lo: Val, lane: Val, r: u16) -> Val {
        let one = b.push(Op::Const(1));
        let word = if self.wave64 {
            let hi = b.push(Op::Get(Reg::S(r + 1)));
            let c32 = b.push(Op::Const(32));
            let is_hi = b.push(Op::Cmp(CmpOp::GeU, lane, c32));
            let w = b.push(Op::Select(is_hi, hi, lo));
            let sub = b.push(Op::Bin(BinOp::Sub, lane, c32));
            let sh = b.push(Op::Select(is_hi, sub, lane));
            b.push(Op::Bin(BinOp::ShrU, w, sh))
        } else {
            b.push(Op::Bin(BinOp::ShrU, lo, lane))
        };
        let bit = b.push(Op::Bin(BinOp::And, word, one));
        let zero = b.push(Op::Const(0));
        b.push(Op::Cmp(CmpOp::Ne, bit, zero))
    }

    fn mask_bit(&self, b: &mut Block, i: &Inst, o: &Operand) -> Result<Val> {
        let Some((r, _)) = scalar_regs(o) else {
            return Err(unsupported(i, format!("lane-mask operand {o:?}")));
        };
        let lo = b.push(Op::Get(Reg::S(r)));
        let lane = b.push(Op::Builtin(Builtin::Lane));
        Ok(self.lane_bit(b, lo, lane, r))
    }

    /// Writes a VGPR in active lanes only.
    fn vset(&self, b: &mut Block, active: Val, d: u16, v: Val) {
        let old = b.push(Op::Get(Reg::V(d)));
        let s = b.push(Op::Select(active, v, old));
        b.push(Op::Set(Reg::V(d), s));
    }

    /// Writes a lane mask: the ballot of `cond` in active lanes.
    fn mask_set(&self, b: &mut Block, active: Val, r: u16, cond: Val) {
        let c = b.push(Op::Bin(BinOp::LogicAnd, cond, active));
        let lo = b.push(Op::Ballot(c, 0));
        b.push(Op::Set(Reg::S(r), lo));
        if self.wave64 {
            let hi = b.push(Op::Ballot(c, 1));
            b.push(Op::Set(Reg::S(r + 1), hi));
        }
    }

    fn vdst(&self, i: &Inst) -> Result<u16> {
        match operand(i, "vdst") {
            Some(Operand::Vgpr { first, .. }) => Ok(*first),
            _ => Err(unsupported(i, "no VGPR destination")),
        }
    }

    fn sdst_reg(&self, i: &Inst, field: &str) -> Result<u16> {
        operand(i, field)
            .and_then(scalar_regs)
            .map(|(r, _)| r)
            .ok_or_else(|| unsupported(i, "no scalar destination"))
    }

    // ---- instructions ----

    fn inst(&mut self, b: &mut Block, st: &State, i: &Inst) -> Result<()> {
        let name = i.name.as_str();
        match name {
            "s_waitcnt" | "s_waitcnt_vscnt" | "s_waitcnt_vmcnt" | "s_waitcnt_lgkmcnt"
            | "s_waitcnt_expcnt" | "s_clause" | "s_nop" | "s_inst_prefetch" | "s_code_end" => {
                // The SPIR-V memory model orders these accesses already: a waitcnt only
                // waits for results that SPIR-V loads return synchronously.
                return Ok(());
            }
            _ => {}
        }
        match i.inst.encoding {
            Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopk | Encoding::Sopc => self.salu(b, i),
            Encoding::Smem => self.smem(b, st, i),
            Encoding::Vop1 | Encoding::Vop2 | Encoding::Vop3 | Encoding::Vopc | Encoding::Vop3p => {
                let sdwa_ok = i.inst.form == Form::Sdwa && i.inst.encoding != Encoding::Vopc;
                let dpp_ok = i.inst.form == Form::Dpp16 && i.inst.encoding != Encoding::Vopc;
                if i.inst.form != Form::Basic && !sdwa_ok && !dpp_ok {
                    return Err(unsupported(
                        i,
                        "DPP and VOPC-SDWA forms are not translated yet",
                    ));
                }
                self.valu(b, i)
            }
            Encoding::Mubuf => self.mubuf(b, st, i),
            Encoding::Ds => self.ds(b, i),
            Encoding::Sopp if i.name == "s_round_mode" => self.round_mode(i),
            Encoding::Sopp if i.name == "s_barrier" => {
                b.push(Op::Barrier);
                self.lds_reads = false;
                self.lds_writes = false;
                Ok(())
            }
            _ => Err(unsupported(i, "encoding not translated yet")),
        }
    }

    fn smem(&mut self, b: &mut Block, st: &State, i: &Inst) -> Result<()> {
        let Some(n) = Tracker::smem_dwords(i) else {
            return Err(unsupported(i, "scalar memory operation not translated yet"));
        };
        if i.name.starts_with("s_buffer_load") {
            return self.s_buffer_load(b, st, i, n);
        }
        let Some((d, _)) = operand(i, "sdata").and_then(scalar_regs) else {
            return Err(unsupported(i, "no destination"));
        };
        let Some(addr) = self.tracker.smem_addr(st, i) else {
            return Err(unsupported(
                i,
                "scalar load from an address not known at recompile time",
            ));
        };
        let Some(vals) = self.tracker.load(addr, n) else {
            return Err(Error::State {
                pc: i.pc,
                why: format!(
                    "guest memory at {addr:#x} ({} bytes) is not readable",
                    n * 4
                ),
            });
        };
        for (k, v) in vals.into_iter().enumerate() {
            let c = b.push(Op::Const(v));
            b.push(Op::Set(Reg::S(d + k as u16), c));
        }
        Ok(())
    }

    /// The initial MODE rounding bits (0–3); round-to-nearest-even when unknown.
    fn mode_bits(&self) -> u32 {
        self.input.float_mode.unwrap_or(0) as u32 & 0xf
    }

    /// `s_getreg_b32` / `s_setreg*`: only the MODE rounding fields, read as the initial
    /// state and "written" only with the value they already hold (the reference
    /// architecture's MODE contract). Everything else is an error naming the PC.
    fn hwreg(&mut self, b: &mut Block, i: &Inst) -> Result<()> {
        let simm = i.inst.words[0] & 0xffff;
        let (id, off, size) = (simm & 0x3f, (simm >> 6) & 0x1f, ((simm >> 11) & 0x1f) + 1);
        const HW_REG_MODE: u32 = 1;
        if id != HW_REG_MODE || off + size > 4 {
            return Err(unsupported(
                i,
                "hardware register access outside MODE rounding bits 0-3",
            ));
        }
        let mask = (1u32 << size) - 1;
        let current = (self.mode_bits() >> off) & mask;
        match i.name.as_str() {
            "s_getreg_b32" => {
                let d = self.sdst_reg(i, "sdst")?;
                let v = b.push(Op::Const(current));
                b.push(Op::Set(Reg::S(d), v));
                Ok(())
            }
            "s_setreg_imm32_b32" => {
                let imm = i.inst.words.get(1).copied().unwrap_or(0);
                // Source bits above the field width are ignored.
                if imm & mask == current {
                    Ok(())
                } else {
                    Err(unsupported(
                        i,
                        format!(
                            "MODE rounding change to {:#x} (initial {current:#x}) needs                              control-flow-aware mode tracking",
                            imm & mask
                        ),
                    ))
                }
            }
            _ => Err(unsupported(i, "MODE write from an SGPR")),
        }
    }

    fn round_mode(&mut self, i: &Inst) -> Result<()> {
        let imm = i.inst.words[0] & 0xf;
        if imm == self.mode_bits() {
            Ok(())
        } else {
            Err(unsupported(
                i,
                format!(
                    "rounding mode change to {imm:#x} (initial {:#x})",
                    self.mode_bits()
                ),
            ))
        }
    }

    fn salu(&mut self, b: &mut Block, i: &Inst) -> Result<()> {
        let name = i.name.as_str();
        if matches!(name, "s_getreg_b32" | "s_setreg_b32" | "s_setreg_imm32_b32") {
            return self.hwreg(b, i);
        }
        let srcs = self.srcs(i);
        let scc_set = |b: &mut Block, c: Val| {
            let one = b.push(Op::Const(1));
            let zero = b.push(Op::Const(0));
            let v = b.push(Op::Select(c, one, zero));
            b.push(Op::Set(Reg::Scc, v));
        };
        let nonzero = |b: &mut Block, v: Val| {
            let z = b.push(Op::Const(0));
            b.push(Op::Cmp(CmpOp::Ne, v, z))
        };
        // 64-bit bitwise operations and saveexec work on register pairs.
        if let Some(op) = name
            .strip_suffix("_saveexec_b64")
            .or(name.strip_suffix("_saveexec_b32"))
        {
            let wide = name.ends_with("b64");
            let d = self.sdst_reg(i, "sdst")?;
            let halves = if wide { 2 } else { 1 };
            let (s_lo, s_hi) = if wide {
                self.src64(b, i, srcs[0])?
            } else {
                let v = self.src(b, i, srcs[0])?;
                (v, b.push(Op::Const(0)))
            };
            let mut any = None;
            for h in 0..halves {
                let e = b.push(Op::Get(Reg::S(EXEC_LO + h)));
                b.push(Op::Set(Reg::S(d + h), e));
                let s = if h == 0 { s_lo } else { s_hi };
                let ne = b.push(Op::Un(UnOp::Not, e));
                let ns = b.push(Op::Un(UnOp::Not, s));
                let r = match op {
                    "s_and" => b.push(Op::Bin(BinOp::And, s, e)),
                    "s_or" => b.push(Op::Bin(BinOp::Or, s, e)),
                    "s_xor" => b.push(Op::Bin(BinOp::Xor, s, e)),
                    "s_andn2" => b.push(Op::Bin(BinOp::And, s, ne)),
                    "s_orn2" => b.push(Op::Bin(BinOp::Or, s, ne)),
                    "s_andn1" => b.push(Op::Bin(BinOp::And, ns, e)),
                    "s_orn1" => b.push(Op::Bin(BinOp::Or, ns, e)),
                    _ => return Err(unsupported(i, "saveexec variant")),
                };
                b.push(Op::Set(Reg::S(EXEC_LO + h), r));
                any = Some(match any {
                    None => r,
                    Some(a) => b.push(Op::Bin(BinOp::Or, a, r)),
                });
            }
            if !wide {
                // wave32 code leaves exec_hi alone.
            }
            let a = any.expect("at least one half");
            let c = nonzero(b, a);
            scc_set(b, c);
            return Ok(());
        }
        if let Some(op) = name.strip_suffix("_b64") {
            let bit = match op {
                "s_and" => Some(BinOp::And),
                "s_or" => Some(BinOp::Or),
                "s_xor" => Some(BinOp::Xor),
                "s_andn2" | "s_orn2" | "s_nand" | "s_nor" | "s_xnor" => Some(BinOp::And),
                _ => None,
            };
            if let Some(bop) = bit {
                let d = self.sdst_reg(i, "sdst")?;
                let (a0, a1) = self.src64(b, i, srcs[0])?;
                let (b0, b1) = self.src64(b, i, srcs[1])?;
                let mut res = [a0, a0];
                for (h, (x, y)) in [(a0, b0), (a1, b1)].into_iter().enumerate() {
                    res[h] = self.bitop(b, op, bop, x, y);
                }
                b.push(Op::Set(Reg::S(d), res[0]));
                b.push(Op::Set(Reg::S(d + 1), res[1]));
                let o = b.push(Op::Bin(BinOp::Or, res[0], res[1]));
                let c = nonzero(b, o);
                scc_set(b, c);
                return Ok(());
            }
            if op == "s_not" {
                let d = self.sdst_reg(i, "sdst")?;
                let (a0, a1) = self.src64(b, i, srcs[0])?;
                let r0 = b.push(Op::Un(UnOp::Not, a0));
                let r1 = b.push(Op::Un(UnOp::Not, a1));
                b.push(Op::Set(Reg::S(d), r0));
                b.push(Op::Set(Reg::S(d + 1), r1));
                let o = b.push(Op::Bin(BinOp::Or, r0, r1));
                let c = nonzero(b, o);
                scc_set(b, c);
                return Ok(());
            }
            if op == "s_bfm" {
                // ((1 << width) - 1) << offset, 64-bit; width and offset are 6-bit.
                let d = self.sdst_reg(i, "sdst")?;
                let w = self.src(b, i, srcs[0])?;
                let o = self.src(b, i, srcs[1])?;
                let one = b.push(Op::Const(1));
                let zero = b.push(Op::Const(0));
                let (bl, bh) = shift64(b, "v_lshlrev_b64", one, zero, w);
                let c64 = b.push(Op::Const(63));
                let wm = b.push(Op::Bin(BinOp::And, w, c64));
                let none = b.push(Op::Cmp(CmpOp::Eq, wm, zero));
                // 64-bit (1 << w) - 1: borrow from the high word when the low one is 0.
                let borrow = b.push(Op::Cmp(CmpOp::Eq, bl, zero));
                let ml = b.push(Op::Bin(BinOp::Sub, bl, one));
                let bh1 = b.push(Op::Bin(BinOp::Sub, bh, one));
                let mh = b.push(Op::Select(borrow, bh1, bh));
                let ml = b.push(Op::Select(none, zero, ml));
                let mh = b.push(Op::Select(none, zero, mh));
                let (rl, rh) = shift64(b, "v_lshlrev_b64", ml, mh, o);
                b.push(Op::Set(Reg::S(d), rl));
                b.push(Op::Set(Reg::S(d + 1), rh));
                return Ok(());
            }
            if op == "s_mov" || op == "s_cselect" {
                let d = self.sdst_reg(i, "sdst")?;
                let (a0, a1) = self.src64(b, i, srcs[0])?;
                let (r0, r1) = if op == "s_cselect" {
                    let (b0, b1) = self.src64(b, i, srcs[1])?;
                    let scc = b.push(Op::Get(Reg::Scc));
                    let c = nonzero(b, scc);
                    (b.push(Op::Select(c, a0, b0)), b.push(Op::Select(c, a1, b1)))
                } else {
                    (a0, a1)
                };
                b.push(Op::Set(Reg::S(d), r0));
                b.push(Op::Set(Reg::S(d + 1), r1));
                return Ok(());
            }
            if op == "s_cmp_eq_u64" || op == "s_cmp_lg_u64" {
                unreachable!()
            }
        }
        if matches!(name, "s_ff1_i32_b64" | "s_bcnt1_i32_b64") {
            let d = self.sdst_reg(i, "sdst")?;
            let (lo, hi) = self.src64(b, i, srcs[0])?;
            if name == "s_ff1_i32_b64" {
                // Lowest set bit of the 64-bit value, -1 when none.
                let flo = b.push(Op::Un(UnOp::FindLsb, lo));
                let fhi = b.push(Op::Un(UnOp::FindLsb, hi));
                let c32 = b.push(Op::Const(32));
                let h = b.push(Op::Bin(BinOp::Add, fhi, c32));
                let z = b.push(Op::Const(0));
                let all = b.push(Op::Const(u32::MAX));
                let hi_set = b.push(Op::Cmp(CmpOp::Ne, hi, z));
                let h = b.push(Op::Select(hi_set, h, all));
                let lo_set = b.push(Op::Cmp(CmpOp::Ne, lo, z));
                let r = b.push(Op::Select(lo_set, flo, h));
                b.push(Op::Set(Reg::S(d), r));
            } else {
                let a = b.push(Op::Un(UnOp::BitCount, lo));
                let c = b.push(Op::Un(UnOp::BitCount, hi));
                let r = b.push(Op::Bin(BinOp::Add, a, c));
                b.push(Op::Set(Reg::S(d), r));
                let c = nonzero(b, r);
                scc_set(b, c);
            }
            return Ok(());
        }
        if matches!(name, "s_lshl_b64" | "s_lshr_b64" | "s_ashr_i64") {
            let d = self.sdst_reg(i, "sdst")?;
            let (lo, hi) = self.src64(b, i, srcs[0])?;
            let sh = self.src(b, i, srcs[1])?;
            let vname = match name {
                "s_lshl_b64" => "v_lshlrev_b64",
                "s_lshr_b64" => "v_lshrrev_b64",
                _ => "v_ashrrev_i64",
            };
            let (rl, rh) = shift64(b, vname, lo, hi, sh);
            b.push(Op::Set(Reg::S(d), rl));
            b.push(Op::Set(Reg::S(d + 1), rh));
            let o = b.push(Op::Bin(BinOp::Or, rl, rh));
            let c = nonzero(b, o);
            scc_set(b, c);
            return Ok(());
        }
        if name == "s_cmp_eq_u64" || name == "s_cmp_lg_u64" {
            let (a0, a1) = self.src64(b, i, srcs[0])?;
            let (b0, b1) = self.src64(b, i, srcs[1])?;
            let x0 = b.push(Op::Bin(BinOp::Xor, a0, b0));
            let x1 = b.push(Op::Bin(BinOp::Xor, a1, b1));
            let x = b.push(Op::Bin(BinOp::Or, x0, x1));
            let z = b.push(Op::Const(0));
            let c = b.push(Op::Cmp(
                if name.contains("eq") {
                    CmpOp::Eq
                } else {
                    CmpOp::Ne
                },
                x,
                z,
            ));
            scc_set(b, c);
            return Ok(());
        }
        // 32-bit forms.
        if name == "s_movk_i32"
            || name.starts_with("s_cmpk_")
            || name == "s_addk_i32"
            || name == "s_mulk_i32"
        {
            let imm = match operand(i, "simm16") {
                Some(Operand::Imm(v)) => *v,
                _ => return Err(unsupported(i, "no simm16")),
            };
            let d = self.sdst_reg(i, "sdst")?;
            let signed = name.ends_with("_i32");
            let k = if signed {
                imm as i16 as i32 as u32
            } else {
                imm as u16 as u32
            };
            let kv = b.push(Op::Const(k));
            if name == "s_movk_i32" {
                b.push(Op::Set(Reg::S(d), kv));
                return Ok(());
            }
            let cur = b.push(Op::Get(Reg::S(d)));
            if name == "s_addk_i32" {
                let r = b.push(Op::Bin(BinOp::Add, cur, kv));
                b.push(Op::Set(Reg::S(d), r));
                let c = self.signed_overflow(b, cur, kv, r, false);
                scc_set(b, c);
                return Ok(());
            }
            if name == "s_mulk_i32" {
                let r = b.push(Op::Bin(BinOp::Mul, cur, kv));
                b.push(Op::Set(Reg::S(d), r));
                return Ok(());
            }
            let cmp = cmp_of(name.trim_start_matches("s_cmpk_"))
                .ok_or_else(|| unsupported(i, "compare"))?;
            let c = b.push(Op::Cmp(cmp, cur, kv));
            scc_set(b, c);
            return Ok(());
        }
        if let Some(rest) = name.strip_prefix("s_cmp_") {
            let cmp = cmp_of(rest).ok_or_else(|| unsupported(i, "compare"))?;
            let x = self.src(b, i, srcs[0])?;
            let y = self.src(b, i, srcs[1])?;
            let c = b.push(Op::Cmp(cmp, x, y));
            scc_set(b, c);
            return Ok(());
        }
        if name == "s_bitcmp0_b32" || name == "s_bitcmp1_b32" {
            let x = self.src(b, i, srcs[0])?;
            let y = self.src(b, i, srcs[1])?;
            let m = b.push(Op::Const(31));
            let sh = b.push(Op::Bin(BinOp::And, y, m));
            let v = b.push(Op::Bin(BinOp::ShrU, x, sh));
            let one = b.push(Op::Const(1));
            let bit = b.push(Op::Bin(BinOp::And, v, one));
            let want = b.push(Op::Const(if name.contains("cmp1") { 1 } else { 0 }));
            let c = b.push(Op::Cmp(CmpOp::Eq, bit, want));
            scc_set(b, c);
            return Ok(());
        }
        let d = self.sdst_reg(i, "sdst")?;
        let x = self.src(b, i, srcs[0])?;
        let y = match srcs.get(1) {
            Some(o) => Some(self.src(b, i, o)?),
            None => None,
        };
        let two = |y: Option<Val>| y.ok_or_else(|| unsupported(i, "missing operand"));
        let mask5 = |b: &mut Block, v: Val| {
            let m = b.push(Op::Const(31));
            b.push(Op::Bin(BinOp::And, v, m))
        };
        let (r, scc): (Val, Option<Val>) = match name {
            "s_mov_b32" => (x, None),
            "s_not_b32" => {
                let r = b.push(Op::Un(UnOp::Not, x));
                (r, Some(nonzero(b, r)))
            }
            "s_brev_b32" => (b.push(Op::Un(UnOp::BitReverse, x)), None),
            "s_bcnt1_i32_b32" => {
                let r = b.push(Op::Un(UnOp::BitCount, x));
                (r, Some(nonzero(b, r)))
            }
            "s_ff1_i32_b32" => (b.push(Op::Un(UnOp::FindLsb, x)), None),
            "s_abs_i32" => {
                let z = b.push(Op::Const(0));
                let n = b.push(Op::Bin(BinOp::Sub, z, x));
                let neg = b.push(Op::Cmp(CmpOp::LtI, x, z));
                let r = b.push(Op::Select(neg, n, x));
                (r, Some(nonzero(b, r)))
            }
            "s_sext_i32_i8" | "s_sext_i32_i16" => {
                let w = if name.ends_with("i8") { 8 } else { 16 };
                let z = b.push(Op::Const(0));
                let wv = b.push(Op::Const(w));
                (b.push(Op::Tri(TriOp::BfeI, x, z, wv)), None)
            }
            "s_add_u32" | "s_add_i32" | "s_sub_u32" | "s_sub_i32" => {
                let y = two(y)?;
                let sub = name.starts_with("s_sub");
                let r = b.push(Op::Bin(if sub { BinOp::Sub } else { BinOp::Add }, x, y));
                let c = if name.ends_with("_u32") {
                    if sub {
                        b.push(Op::Cmp(CmpOp::GtU, y, x))
                    } else {
                        b.push(Op::Cmp(CmpOp::LtU, r, x))
                    }
                } else {
                    self.signed_overflow(b, x, y, r, sub)
                };
                (r, Some(c))
            }
            "s_addc_u32" | "s_subb_u32" => {
                let y = two(y)?;
                let cin = b.push(Op::Get(Reg::Scc));
                if name == "s_addc_u32" {
                    let t = b.push(Op::Bin(BinOp::Add, x, y));
                    let r = b.push(Op::Bin(BinOp::Add, t, cin));
                    let c1 = b.push(Op::Cmp(CmpOp::LtU, t, x));
                    let c2 = b.push(Op::Cmp(CmpOp::LtU, r, t));
                    (r, Some(b.push(Op::Bin(BinOp::LogicOr, c1, c2))))
                } else {
                    let t = b.push(Op::Bin(BinOp::Sub, x, y));
                    let r = b.push(Op::Bin(BinOp::Sub, t, cin));
                    let c1 = b.push(Op::Cmp(CmpOp::GtU, y, x));
                    let c2 = b.push(Op::Cmp(CmpOp::GtU, cin, t));
                    (r, Some(b.push(Op::Bin(BinOp::LogicOr, c1, c2))))
                }
            }
            "s_mul_i32" => (b.push(Op::Bin(BinOp::Mul, x, two(y)?)), None),
            "s_mul_hi_u32" => (b.push(Op::Bin(BinOp::MulHiU, x, two(y)?)), None),
            "s_mul_hi_i32" => (b.push(Op::Bin(BinOp::MulHiI, x, two(y)?)), None),
            "s_and_b32" | "s_or_b32" | "s_xor_b32" | "s_andn2_b32" | "s_orn2_b32"
            | "s_nand_b32" | "s_nor_b32" | "s_xnor_b32" => {
                let op = name.trim_end_matches("_b32");
                let r = self.bitop(b, op, BinOp::And, x, two(y)?);
                (r, Some(nonzero(b, r)))
            }
            "s_lshl_b32" | "s_lshr_b32" | "s_ashr_i32" => {
                let sh = mask5(b, two(y)?);
                let op = match name {
                    "s_lshl_b32" => BinOp::Shl,
                    "s_lshr_b32" => BinOp::ShrU,
                    _ => BinOp::ShrI,
                };
                let r = b.push(Op::Bin(op, x, sh));
                (r, Some(nonzero(b, r)))
            }
            "s_lshl1_add_u32" | "s_lshl2_add_u32" | "s_lshl3_add_u32" | "s_lshl4_add_u32" => {
                let n = (name.as_bytes()[6] - b'0') as u32;
                let nv = b.push(Op::Const(n));
                let t = b.push(Op::Bin(BinOp::Shl, x, nv));
                let r = b.push(Op::Bin(BinOp::Add, t, two(y)?));
                // Carry out of the 32-bit add, or bits shifted out.
                let back = b.push(Op::Bin(BinOp::ShrU, t, nv));
                let lost = b.push(Op::Cmp(CmpOp::Ne, back, x));
                let c = b.push(Op::Cmp(CmpOp::LtU, r, t));
                (r, Some(b.push(Op::Bin(BinOp::LogicOr, lost, c))))
            }
            "s_min_i32" | "s_min_u32" | "s_max_i32" | "s_max_u32" => {
                let y = two(y)?;
                let cmp = match name {
                    "s_min_i32" => CmpOp::LtI,
                    "s_min_u32" => CmpOp::LtU,
                    "s_max_i32" => CmpOp::GtI,
                    _ => CmpOp::GtU,
                };
                let c = b.push(Op::Cmp(cmp, x, y));
                (b.push(Op::Select(c, x, y)), Some(c))
            }
            "s_cselect_b32" => {
                let scc = b.push(Op::Get(Reg::Scc));
                let c = nonzero(b, scc);
                (b.push(Op::Select(c, x, two(y)?)), None)
            }
            "s_bfe_u32" | "s_bfe_i32" => {
                let y = two(y)?;
                let off = mask5(b, y);
                let sixteen = b.push(Op::Const(16));
                let w0 = b.push(Op::Bin(BinOp::ShrU, y, sixteen));
                let m7f = b.push(Op::Const(0x7f));
                let w = b.push(Op::Bin(BinOp::And, w0, m7f));
                let op = if name.ends_with("u32") {
                    TriOp::BfeU
                } else {
                    TriOp::BfeI
                };
                let r = b.push(Op::Tri(op, x, off, w));
                (r, Some(nonzero(b, r)))
            }
            "s_bfm_b32" => {
                let y = two(y)?;
                let w = mask5(b, x);
                let off = mask5(b, y);
                let one = b.push(Op::Const(1));
                let t = b.push(Op::Bin(BinOp::Shl, one, w));
                let m = b.push(Op::Bin(BinOp::Sub, t, one));
                (b.push(Op::Bin(BinOp::Shl, m, off)), None)
            }
            _ => return Err(unsupported(i, "scalar ALU operation not translated yet")),
        };
        b.push(Op::Set(Reg::S(d), r));
        if let Some(c) = scc {
            scc_set(b, c);
        }
        Ok(())
    }

    fn bitop(&self, b: &mut Block, op: &str, _hint: BinOp, x: Val, y: Val) -> Val {
        let op = op.trim_start_matches("s_");
        match op {
            "and" => b.push(Op::Bin(BinOp::And, x, y)),
            "or" => b.push(Op::Bin(BinOp::Or, x, y)),
            "xor" => b.push(Op::Bin(BinOp::Xor, x, y)),
            "andn2" => {
                let n = b.push(Op::Un(UnOp::Not, y));
                b.push(Op::Bin(BinOp::And, x, n))
            }
            "orn2" => {
                let n = b.push(Op::Un(UnOp::Not, y));
                b.push(Op::Bin(BinOp::Or, x, n))
            }
            "nand" => {
                let a = b.push(Op::Bin(BinOp::And, x, y));
                b.push(Op::Un(UnOp::Not, a))
            }
            "nor" => {
                let a = b.push(Op::Bin(BinOp::Or, x, y));
                b.push(Op::Un(UnOp::Not, a))
            }
            _ => {
                let a = b.push(Op::Bin(BinOp::Xor, x, y));
                b.push(Op::Un(UnOp::Not, a))
            }
        }
    }

    fn signed_overflow(&self, b: &mut Block, x: Val, y: Val, r: Val, sub: bool) -> Val {
        // Overflow when the operands' signs make it possible and the result's sign differs.
        let z = b.push(Op::Const(0));
        let xs = b.push(Op::Cmp(CmpOp::LtI, x, z));
        let ys = b.push(Op::Cmp(CmpOp::LtI, y, z));
        let rs = b.push(Op::Cmp(CmpOp::LtI, r, z));
        let same = b.push(Op::Cmp(CmpOp::Eq, xs, ys));
        let same = if sub {
            b.push(Op::LogicNot(same))
        } else {
            same
        };
        let diff = b.push(Op::Cmp(CmpOp::Ne, xs, rs));
        b.push(Op::Bin(BinOp::LogicAnd, same, diff))
    }

    fn valu(&mut self, b: &mut Block, i: &Inst) -> Result<()> {
        let full = i.name.as_str();
        let (mods, clamp, omod) = self.vop3_mods(i);
        let srcs = self.srcs(i);
        if i.inst.encoding == Encoding::Vop3p {
            return self.vop3p(b, i, full);
        }
        if full.ends_with("16") || full.contains("_f16") {
            return self.valu16(b, i, full, &srcs, mods, clamp, omod);
        }
        let wide = full.contains("_f64") || full.ends_with("_u64") || full.ends_with("_i64");
        if wide && !matches!(full, "v_lshlrev_b64" | "v_lshrrev_b64" | "v_ashrrev_i64") {
            return self.valu64(b, i, full, &srcs, mods, clamp, omod);
        }
        // Compares.
        if let Some(rest) = full.strip_prefix("v_cmp_").or(full.strip_prefix("v_cmpx_")) {
            let cmpx = full.starts_with("v_cmpx_");
            let (cond, ty) = rest
                .rsplit_once('_')
                .ok_or_else(|| unsupported(i, "compare"))?;
            let float = ty.starts_with('f');
            if !matches!(ty, "f32" | "i32" | "u32") {
                return Err(unsupported(i, "compare type not translated yet"));
            }
            let x = self.fsrc(b, i, srcs[0], mods[0], float)?;
            let y = self.fsrc(b, i, srcs[1], mods[1], float)?;
            let active = self.active(b);
            let c = match (cond, float) {
                ("f", _) => b.push(Op::ConstBool(false)),
                ("t" | "tru", _) => b.push(Op::ConstBool(true)),
                (_, true) => {
                    let op = fcmp_of(cond).ok_or_else(|| unsupported(i, "compare"))?;
                    b.push(Op::Cmp(op, x, y))
                }
                (_, false) => {
                    let signed = ty == "i32";
                    let op = icmp_of(cond, signed).ok_or_else(|| unsupported(i, "compare"))?;
                    b.push(Op::Cmp(op, x, y))
                }
            };
            let d = if cmpx {
                EXEC_LO
            } else if i.inst.encoding == Encoding::Vopc {
                VCC_LO
            } else {
                self.sdst_reg(i, "vdst")
                    .or_else(|_| self.sdst_reg(i, "sdst"))?
            };
            self.mask_set(b, active, d, c);
            return Ok(());
        }
        if let Some(r) = self.cross_lane(b, i, full, &srcs)? {
            return Ok(r);
        }
        let d = self.vdst(i)?;
        let active = self.active(b);
        if matches!(full, "v_lshlrev_b64" | "v_lshrrev_b64" | "v_ashrrev_i64") {
            let s = self.src(b, i, srcs[0])?;
            let (lo, hi) = self.vsrc64(b, i, srcs[1])?;
            let (rlo, rhi) = shift64(b, full, lo, hi, s);
            self.vset(b, active, d, rlo);
            self.vset(b, active, d + 1, rhi);
            return Ok(());
        }
        let float_op = is_float_op(full);
        let mut v = Vec::new();
        for (k, o) in srcs.iter().enumerate() {
            let m = mods.get(k).copied().unwrap_or_default();
            // The third source of these is a lane mask, read per lane below.
            let is_mask = (full.starts_with("v_cndmask") || full.contains("_co_ci_")) && k == 2;
            if is_mask {
                break;
            }
            v.push(self.fsrc(b, i, o, m, float_op)?);
        }
        // DPP: src0 comes from another lane; some lanes may not write.
        let mut write_ok = None;
        if i.inst.form == Form::Dpp16 {
            let (val, ok) = self.dpp16(b, i)?;
            let m = mods[0];
            let mut val = val;
            if m.abs {
                val = b.push(Op::Un(UnOp::FAbs, val));
            }
            if m.neg {
                val = b.push(Op::Un(UnOp::FNeg, val));
            }
            if !v.is_empty() {
                v[0] = val;
            }
            write_ok = Some(ok);
        }
        let sdwa = (i.inst.form == Form::Sdwa).then(|| i.inst.words[1]);
        if let Some(w) = sdwa {
            // Source selects: a byte or word of the register, zero- or sign-extended.
            for (k, (sel, sext)) in [
                ((w >> 16) & 7, (w >> 19) & 1),
                ((w >> 24) & 7, (w >> 27) & 1),
            ]
            .into_iter()
            .enumerate()
            {
                if k < v.len() && sel != 6 {
                    v[k] = sdwa_select(b, v[k], sel, sext != 0)
                        .ok_or_else(|| unsupported(i, "SDWA select"))?;
                }
            }
        }
        let arg = |k: usize| -> Result<Val> {
            v.get(k)
                .copied()
                .ok_or_else(|| unsupported(i, "missing operand"))
        };
        let fbin =
            |b: &mut Block, op: BinOp| -> Result<Val> { Ok(b.push(Op::Bin(op, arg(0)?, arg(1)?))) };
        let ibin = fbin;
        let un = |b: &mut Block, op: UnOp| -> Result<Val> { Ok(b.push(Op::Un(op, arg(0)?))) };
        let mask31 = |b: &mut Block, x: Val| {
            let m = b.push(Op::Const(31));
            b.push(Op::Bin(BinOp::And, x, m))
        };
        let lo24 = |b: &mut Block, x: Val, signed: bool| {
            let z = b.push(Op::Const(0));
            let w = b.push(Op::Const(24));
            b.push(Op::Tri(
                if signed { TriOp::BfeI } else { TriOp::BfeU },
                x,
                z,
                w,
            ))
        };
        let r = match full {
            "v_mov_b32" => arg(0)?,
            "v_not_b32" => un(b, UnOp::Not)?,
            "v_bfrev_b32" => un(b, UnOp::BitReverse)?,
            "v_ffbl_b32" => un(b, UnOp::FindLsb)?,
            "v_ffbh_u32" => {
                // Count of leading zeros; -1 for zero input.
                let m = un(b, UnOp::FindMsbU)?;
                let c31 = b.push(Op::Const(31));
                let r = b.push(Op::Bin(BinOp::Sub, c31, m));
                let z = b.push(Op::Const(0));
                let is0 = b.push(Op::Cmp(CmpOp::Eq, arg(0)?, z));
                let all = b.push(Op::Const(u32::MAX));
                b.push(Op::Select(is0, all, r))
            }
            "v_ffbh_i32" => {
                // Leading bits equal to the sign; -1 when all bits are.
                let m = un(b, UnOp::FindMsbS)?;
                let c31 = b.push(Op::Const(31));
                let r = b.push(Op::Bin(BinOp::Sub, c31, m));
                let all = b.push(Op::Const(u32::MAX));
                let none = b.push(Op::Cmp(CmpOp::Eq, m, all));
                b.push(Op::Select(none, all, r))
            }
            "v_cvt_f32_u32" => un(b, UnOp::F32FromU32)?,
            "v_cvt_f32_i32" => un(b, UnOp::F32FromI32)?,
            "v_cvt_u32_f32" => un(b, UnOp::U32FromF32)?,
            "v_cvt_i32_f32" => un(b, UnOp::I32FromF32)?,
            "v_rcp_f32" => un(b, UnOp::FRcp)?,
            "v_sqrt_f32" => un(b, UnOp::FSqrt)?,
            "v_rsq_f32" => un(b, UnOp::FRsq)?,
            "v_exp_f32" => un(b, UnOp::FExp2)?,
            "v_log_f32" => un(b, UnOp::FLog2)?,
            "v_sin_f32" => un(b, UnOp::FSinRev)?,
            "v_cos_f32" => un(b, UnOp::FCosRev)?,
            "v_floor_f32" => un(b, UnOp::FFloor)?,
            "v_ceil_f32" => un(b, UnOp::FCeil)?,
            "v_trunc_f32" => un(b, UnOp::FTrunc)?,
            "v_rndne_f32" => un(b, UnOp::FRoundEven)?,
            "v_fract_f32" => un(b, UnOp::FFract)?,
            "v_add_f32" => fbin(b, BinOp::FAdd)?,
            "v_sub_f32" => fbin(b, BinOp::FSub)?,
            "v_subrev_f32" => b.push(Op::Bin(BinOp::FSub, arg(1)?, arg(0)?)),
            "v_mul_f32" => fbin(b, BinOp::FMul)?,
            "v_min_f32" => fbin(b, BinOp::FMin)?,
            "v_max_f32" => fbin(b, BinOp::FMax)?,
            "v_fma_f32" => b.push(Op::Tri(TriOp::FFma, arg(0)?, arg(1)?, arg(2)?)),
            "v_fmac_f32" => {
                let acc = b.push(Op::Get(Reg::V(d)));
                b.push(Op::Tri(TriOp::FFma, arg(0)?, arg(1)?, acc))
            }
            "v_fmamk_f32" => b.push(Op::Tri(TriOp::FFma, arg(0)?, arg(1)?, arg(2)?)),
            "v_fmaak_f32" => b.push(Op::Tri(TriOp::FFma, arg(0)?, arg(1)?, arg(2)?)),
            "v_add_nc_u32" | "v_add_u32" => ibin(b, BinOp::Add)?,
            "v_sub_nc_u32" => ibin(b, BinOp::Sub)?,
            "v_subrev_nc_u32" => b.push(Op::Bin(BinOp::Sub, arg(1)?, arg(0)?)),
            "v_mul_lo_u32" => ibin(b, BinOp::Mul)?,
            "v_mul_hi_u32" => ibin(b, BinOp::MulHiU)?,
            "v_mul_hi_i32" => ibin(b, BinOp::MulHiI)?,
            "v_mul_u32_u24" | "v_mul_i32_i24" => {
                let s = full == "v_mul_i32_i24";
                let x = lo24(b, arg(0)?, s);
                let y = lo24(b, arg(1)?, s);
                b.push(Op::Bin(BinOp::Mul, x, y))
            }
            "v_mad_u32_u24" | "v_mad_i32_i24" => {
                let s = full == "v_mad_i32_i24";
                let x = lo24(b, arg(0)?, s);
                let y = lo24(b, arg(1)?, s);
                let m = b.push(Op::Bin(BinOp::Mul, x, y));
                b.push(Op::Bin(BinOp::Add, m, arg(2)?))
            }
            "v_mul_hi_u32_u24" => {
                let x = lo24(b, arg(0)?, false);
                let y = lo24(b, arg(1)?, false);
                b.push(Op::Bin(BinOp::MulHiU, x, y))
            }
            "v_and_b32" => ibin(b, BinOp::And)?,
            "v_or_b32" => ibin(b, BinOp::Or)?,
            "v_xor_b32" => ibin(b, BinOp::Xor)?,
            "v_xnor_b32" => {
                let x = ibin(b, BinOp::Xor)?;
                b.push(Op::Un(UnOp::Not, x))
            }
            "v_lshlrev_b32" | "v_lshrrev_b32" | "v_ashrrev_i32" => {
                let sh = mask31(b, arg(0)?);
                let op = match full {
                    "v_lshlrev_b32" => BinOp::Shl,
                    "v_lshrrev_b32" => BinOp::ShrU,
                    _ => BinOp::ShrI,
                };
                b.push(Op::Bin(op, arg(1)?, sh))
            }
            "v_min_i32" => ibin(b, BinOp::MinI)?,
            "v_max_i32" => ibin(b, BinOp::MaxI)?,
            "v_min_u32" => ibin(b, BinOp::MinU)?,
            "v_max_u32" => ibin(b, BinOp::MaxU)?,
            "v_lshl_add_u32" => {
                let sh = mask31(b, arg(1)?);
                let t = b.push(Op::Bin(BinOp::Shl, arg(0)?, sh));
                b.push(Op::Bin(BinOp::Add, t, arg(2)?))
            }
            "v_add_lshl_u32" => {
                let t = ibin(b, BinOp::Add)?;
                let sh = mask31(b, arg(2)?);
                b.push(Op::Bin(BinOp::Shl, t, sh))
            }
            "v_lshl_or_b32" => {
                let sh = mask31(b, arg(1)?);
                let t = b.push(Op::Bin(BinOp::Shl, arg(0)?, sh));
                b.push(Op::Bin(BinOp::Or, t, arg(2)?))
            }
            "v_and_or_b32" => {
                let t = ibin(b, BinOp::And)?;
                b.push(Op::Bin(BinOp::Or, t, arg(2)?))
            }
            "v_bcnt_u32_b32" => {
                let c = un(b, UnOp::BitCount)?;
                b.push(Op::Bin(BinOp::Add, c, arg(1)?))
            }
            "v_xor3_b32" => {
                let t = ibin(b, BinOp::Xor)?;
                b.push(Op::Bin(BinOp::Xor, t, arg(2)?))
            }
            "v_or3_b32" => {
                let t = ibin(b, BinOp::Or)?;
                b.push(Op::Bin(BinOp::Or, t, arg(2)?))
            }
            "v_add3_u32" => {
                let t = ibin(b, BinOp::Add)?;
                b.push(Op::Bin(BinOp::Add, t, arg(2)?))
            }
            "v_xad_u32" => {
                let t = ibin(b, BinOp::Xor)?;
                b.push(Op::Bin(BinOp::Add, t, arg(2)?))
            }
            "v_bfe_u32" | "v_bfe_i32" => {
                let off = mask31(b, arg(1)?);
                let w = mask31(b, arg(2)?);
                let op = if full == "v_bfe_u32" {
                    TriOp::BfeU
                } else {
                    TriOp::BfeI
                };
                b.push(Op::Tri(op, arg(0)?, off, w))
            }
            "v_bfi_b32" => {
                let t = ibin(b, BinOp::And)?;
                let n = b.push(Op::Un(UnOp::Not, arg(0)?));
                let u = b.push(Op::Bin(BinOp::And, n, arg(2)?));
                b.push(Op::Bin(BinOp::Or, t, u))
            }
            "v_min3_u32" | "v_max3_u32" | "v_min3_i32" | "v_max3_i32" | "v_min3_f32"
            | "v_max3_f32" => {
                let op = match full {
                    "v_min3_u32" => BinOp::MinU,
                    "v_max3_u32" => BinOp::MaxU,
                    "v_min3_i32" => BinOp::MinI,
                    "v_max3_i32" => BinOp::MaxI,
                    "v_min3_f32" => BinOp::FMin,
                    _ => BinOp::FMax,
                };
                let t = b.push(Op::Bin(op, arg(0)?, arg(1)?));
                b.push(Op::Bin(op, t, arg(2)?))
            }
            "v_med3_u32" | "v_med3_i32" | "v_med3_f32" => {
                let (mn, mx) = if full.ends_with("u32") {
                    (BinOp::MinU, BinOp::MaxU)
                } else if full.ends_with("f32") {
                    (BinOp::FMin, BinOp::FMax)
                } else {
                    (BinOp::MinI, BinOp::MaxI)
                };
                let lo = b.push(Op::Bin(mn, arg(0)?, arg(1)?));
                let hi = b.push(Op::Bin(mx, arg(0)?, arg(1)?));
                let t = b.push(Op::Bin(mn, hi, arg(2)?));
                b.push(Op::Bin(mx, lo, t))
            }
            "v_mbcnt_lo_u32_b32" | "v_mbcnt_hi_u32_b32" => {
                let lane = b.push(Op::Builtin(Builtin::Lane));
                let c32 = b.push(Op::Const(32));
                let one = b.push(Op::Const(1));
                let all = b.push(Op::Const(u32::MAX));
                let zero = b.push(Op::Const(0));
                let hi = full == "v_mbcnt_hi_u32_b32";
                // Bits of this half below the lane.
                let n = if hi {
                    b.push(Op::Bin(BinOp::Sub, lane, c32))
                } else {
                    lane
                };
                let ge = b.push(Op::Cmp(CmpOp::GeU, lane, c32));
                let lt = b.push(Op::Cmp(CmpOp::LtU, lane, c32));
                let c31 = b_31(b);
                let sh = b.push(Op::Bin(BinOp::And, n, c31));
                let bit = b.push(Op::Bin(BinOp::Shl, one, sh));
                let below = b.push(Op::Bin(BinOp::Sub, bit, one));
                let m = if hi {
                    // lane < 32: nothing of the high half is below; lane ≥ 64 impossible.
                    b.push(Op::Select(lt, zero, below))
                } else {
                    b.push(Op::Select(ge, all, below))
                };
                let masked = b.push(Op::Bin(BinOp::And, arg(0)?, m));
                let cnt = b.push(Op::Un(UnOp::BitCount, masked));
                b.push(Op::Bin(BinOp::Add, cnt, arg(1)?))
            }
            "v_cndmask_b32" => {
                let m = match i.inst.encoding {
                    Encoding::Vop2 => Operand::Special("vcc"),
                    _ => srcs
                        .get(2)
                        .map(|o| (*o).clone())
                        .ok_or_else(|| unsupported(i, "mask"))?,
                };
                let c = self.mask_bit(b, i, &m)?;
                b.push(Op::Select(c, arg(1)?, arg(0)?))
            }
            "v_add_co_u32" | "v_sub_co_u32" | "v_subrev_co_u32" | "v_add_co_ci_u32"
            | "v_sub_co_ci_u32" | "v_subrev_co_ci_u32" => {
                let (x, y) = if full.starts_with("v_subrev") {
                    (arg(1)?, arg(0)?)
                } else {
                    (arg(0)?, arg(1)?)
                };
                let cin = if full.ends_with("_ci_u32") {
                    let m = match i.inst.encoding {
                        Encoding::Vop2 => Operand::Special("vcc"),
                        _ => srcs
                            .get(2)
                            .map(|o| (*o).clone())
                            .ok_or_else(|| unsupported(i, "carry in"))?,
                    };
                    let c = self.mask_bit(b, i, &m)?;
                    let one = b.push(Op::Const(1));
                    let zero = b.push(Op::Const(0));
                    b.push(Op::Select(c, one, zero))
                } else {
                    b.push(Op::Const(0))
                };
                let add = full.starts_with("v_add");
                let (r, carry) = if add {
                    let t = b.push(Op::Bin(BinOp::Add, x, y));
                    let r = b.push(Op::Bin(BinOp::Add, t, cin));
                    let c1 = b.push(Op::Cmp(CmpOp::LtU, t, x));
                    let c2 = b.push(Op::Cmp(CmpOp::LtU, r, t));
                    (r, b.push(Op::Bin(BinOp::LogicOr, c1, c2)))
                } else {
                    let t = b.push(Op::Bin(BinOp::Sub, x, y));
                    let r = b.push(Op::Bin(BinOp::Sub, t, cin));
                    let c1 = b.push(Op::Cmp(CmpOp::GtU, y, x));
                    let c2 = b.push(Op::Cmp(CmpOp::GtU, cin, t));
                    (r, b.push(Op::Bin(BinOp::LogicOr, c1, c2)))
                };
                let cd = match i.inst.encoding {
                    Encoding::Vop2 => VCC_LO,
                    _ => self.sdst_reg(i, "sdst")?,
                };
                if clamp {
                    return Err(unsupported(i, "clamp on carry arithmetic"));
                }
                self.vset(b, active, d, r);
                self.mask_set(b, active, cd, carry);
                return Ok(());
            }
            _ => return Err(unsupported(i, "vector ALU operation not translated yet")),
        };
        let r = if omod != 0 {
            if !float_op {
                return Err(unsupported(i, "output modifier on an integer operation"));
            }
            // mul:2, mul:4, div:2: exact power-of-two scaling, before the clamp.
            let k = [1.0f32, 2.0, 4.0, 0.5][omod as usize];
            let kv = b.push(Op::Const(k.to_bits()));
            b.push(Op::Bin(BinOp::FMul, r, kv))
        } else {
            r
        };
        let r = if clamp {
            if !float_op {
                return Err(unsupported(i, "integer clamp"));
            }
            b.push(Op::Un(UnOp::FClamp01, r))
        } else {
            r
        };
        let active = match write_ok {
            Some(ok) => b.push(Op::Bin(BinOp::LogicAnd, active, ok)),
            None => active,
        };
        let r = match sdwa {
            Some(w) if (w >> 8) & 7 != 6 => {
                let old = b.push(Op::Get(Reg::V(d)));
                sdwa_place(b, r, old, (w >> 8) & 7, (w >> 11) & 3)
                    .ok_or_else(|| unsupported(i, "SDWA destination select"))?
            }
            _ => r,
        };
        self.vset(b, active, d, r);
        Ok(())
    }

    /// A VALU source with its VOP3 float modifiers applied.
    fn fsrc(&self, b: &mut Block, i: &Inst, o: &Operand, m: Mods, float: bool) -> Result<Val> {
        let mut v = self.src(b, i, o)?;
        if (m.abs || m.neg) && !float {
            return Err(unsupported(i, "neg/abs on an integer operand"));
        }
        if m.abs {
            v = b.push(Op::Un(UnOp::FAbs, v));
        }
        if m.neg {
            v = b.push(Op::Un(UnOp::FNeg, v));
        }
        Ok(v)
    }

    /// The binding of the V# in `s[rs:rs+3]`, which must be known here.
    fn binding_for(&mut self, st: &State, i: &Inst, rs: u16) -> Result<(u32, [u32; 4])> {
        let mut desc = [0u32; 4];
        for (k, d) in desc.iter_mut().enumerate() {
            match st[rs as usize + k] {
                K::Const(v) => *d = v,
                _ => {
                    return Err(Error::State {
                        pc: i.pc,
                        why: format!("V# in s[{}:{}] is not known at recompile time", rs, rs + 3),
                    })
                }
            }
        }
        let base = desc[0] as u64 | ((desc[1] & 0xffff) as u64) << 32;
        let binding = match self.buffers.iter().find(|x| x.descriptor == desc) {
            Some(x) => x.binding,
            None => {
                let binding = self.buffers.len() as u32;
                self.buffers.push(BufferBinding {
                    binding,
                    guest_base: base,
                    num_records: desc[2],
                    descriptor: desc,
                });
                binding
            }
        };
        Ok((binding, desc))
    }

    /// `s_buffer_load_dword*`: a uniform load through a V# at a (possibly dynamic)
    /// offset; out-of-range dwords read 0.
    fn s_buffer_load(&mut self, b: &mut Block, st: &State, i: &Inst, n: usize) -> Result<()> {
        let Some((d, _)) = operand(i, "sdata").and_then(scalar_regs) else {
            return Err(unsupported(i, "no destination"));
        };
        let Some((rs, 4)) = operand(i, "sbase").and_then(scalar_regs) else {
            return Err(unsupported(i, "no V# operand"));
        };
        let (binding, desc) = self.binding_for(st, i, rs)?;
        let mut off = b.push(Op::Const(0));
        for f in ["offset", "soffset"] {
            if let Some(o) = operand(i, f) {
                let v = match o {
                    Operand::Imm(v) => b.push(Op::Const(*v as u32)),
                    o => self.src(b, i, o)?,
                };
                off = b.push(Op::Bin(BinOp::Add, off, v));
            }
        }
        // SMEM ignores the low two offset bits.
        let m = b.push(Op::Const(!3));
        let off = b.push(Op::Bin(BinOp::And, off, m));
        for k in 0..n {
            let c = b.push(Op::Const(4 * k as u32));
            let o = b.push(Op::Bin(BinOp::Add, off, c));
            let v = b.push(Op::Load {
                binding,
                offset: o,
                num_records: desc[2],
            });
            b.push(Op::Set(Reg::S(d + k as u16), v));
        }
        Ok(())
    }

    /// Orders an LDS access after earlier conflicting ones of other lanes.
    fn lds_order(&mut self, b: &mut Block, reads: bool, writes: bool) {
        let conflict =
            (writes && (self.lds_reads || self.lds_writes)) || (reads && self.lds_writes);
        if conflict {
            b.push(Op::Barrier);
            self.lds_reads = false;
            self.lds_writes = false;
        }
        self.lds_reads |= reads;
        self.lds_writes |= writes;
    }

    fn ds(&mut self, b: &mut Block, i: &Inst) -> Result<()> {
        let name = i.name.as_str();
        let (w0, w1) = (i.inst.words[0], i.inst.words[1]);
        if (w0 >> 17) & 1 != 0 {
            return Err(unsupported(i, "GDS"));
        }
        let (off0, off1) = (w0 & 0xff, (w0 >> 8) & 0xff);
        let off16 = off0 | off1 << 8;
        let addr = (w1 & 0xff) as u16;
        let data0 = ((w1 >> 8) & 0xff) as u16;
        let data1 = ((w1 >> 16) & 0xff) as u16;
        let vdst = ((w1 >> 24) & 0xff) as u16;
        let op = name.strip_prefix("ds_").unwrap_or(name);
        // (dword offsets from the address, data registers) for plain reads and writes.
        let rw: Option<(bool, Vec<(u32, u16)>)> = match op {
            "write_b32" => Some((true, vec![(off16, data0)])),
            "write_b64" => Some((true, vec![(off16, data0), (off16 + 4, data0 + 1)])),
            "write_b96" => Some((
                true,
                (0..3).map(|k| (off16 + 4 * k, data0 + k as u16)).collect(),
            )),
            "write_b128" => Some((
                true,
                (0..4).map(|k| (off16 + 4 * k, data0 + k as u16)).collect(),
            )),
            "write2_b32" => Some((true, vec![(off0 * 4, data0), (off1 * 4, data1)])),
            "write2st64_b32" => Some((true, vec![(off0 * 256, data0), (off1 * 256, data1)])),
            "read_b32" => Some((false, vec![(off16, vdst)])),
            "read_b64" => Some((false, vec![(off16, vdst), (off16 + 4, vdst + 1)])),
            "read_b96" => Some((
                false,
                (0..3).map(|k| (off16 + 4 * k, vdst + k as u16)).collect(),
            )),
            "read_b128" => Some((
                false,
                (0..4).map(|k| (off16 + 4 * k, vdst + k as u16)).collect(),
            )),
            "read2_b32" => Some((false, vec![(off0 * 4, vdst), (off1 * 4, vdst + 1)])),
            "read2st64_b32" => Some((false, vec![(off0 * 256, vdst), (off1 * 256, vdst + 1)])),
            _ => None,
        };
        let active = self.active(b);
        let base = b.push(Op::Get(Reg::V(addr)));
        if let Some((write, parts)) = rw {
            self.lds_order(b, !write, write);
            let mut loaded = Vec::new();
            for (off, reg) in parts {
                let k = b.push(Op::Const(off));
                let a = b.push(Op::Bin(BinOp::Add, base, k));
                if write {
                    let v = b.push(Op::Get(Reg::V(reg)));
                    b.push(Op::LdsStore {
                        offset: a,
                        value: v,
                        guard: active,
                    });
                } else {
                    loaded.push((reg, b.push(Op::LdsLoad(a))));
                }
            }
            for (reg, v) in loaded {
                self.vset(b, active, reg, v);
            }
            return Ok(());
        }
        if op == "bpermute_b32" {
            // Each lane reads data0 of lane (addr + offset) / 4; inactive sources read 0.
            let k = b.push(Op::Const(off16));
            let a = b.push(Op::Bin(BinOp::Add, base, k));
            let two = b.push(Op::Const(2));
            let src = b.push(Op::Bin(BinOp::ShrU, a, two));
            let m = b.push(Op::Const(self.lane_mask()));
            let src = b.push(Op::Bin(BinOp::And, src, m));
            let v = self.read_lane(b, i, data0, src)?;
            let e = self.exec_bit(b, src);
            let zero = b.push(Op::Const(0));
            let v = b.push(Op::Select(e, v, zero));
            self.vset(b, active, vdst, v);
            return Ok(());
        }
        let (aop, rtn) = match op
            .strip_suffix("_rtn_u32")
            .or(op.strip_suffix("_rtn_i32"))
            .or(op.strip_suffix("_rtn_b32"))
        {
            Some(base) => (atomic_of(base).or(atomic_of(op)), true),
            None => (atomic_of(op), op == "wrxchg_rtn_b32"),
        };
        let Some(aop) = aop else {
            return Err(unsupported(i, "LDS operation not translated yet"));
        };
        self.lds_order(b, true, true);
        let k = b.push(Op::Const(off16));
        let a = b.push(Op::Bin(BinOp::Add, base, k));
        let v = b.push(Op::Get(Reg::V(data0)));
        let old = b.push(Op::Atomic {
            space: Space::Lds,
            op: aop,
            offset: a,
            value: v,
            guard: active,
        });
        if rtn {
            self.vset(b, active, vdst, old);
        }
        Ok(())
    }

    fn mubuf(&mut self, b: &mut Block, st: &State, i: &Inst) -> Result<()> {
        let name = i.name.as_str();
        if let Some(op) = name.strip_prefix("buffer_atomic_") {
            return self.mubuf_atomic(b, st, i, op);
        }
        let (store, n) = match name {
            "buffer_load_dword" => (false, 1),
            "buffer_load_dwordx2" => (false, 2),
            "buffer_load_dwordx3" => (false, 3),
            "buffer_load_dwordx4" => (false, 4),
            "buffer_store_dword" => (true, 1),
            "buffer_store_dwordx2" => (true, 2),
            "buffer_store_dwordx3" => (true, 3),
            "buffer_store_dwordx4" => (true, 4),
            "buffer_load_ubyte" | "buffer_load_sbyte" | "buffer_load_ushort"
            | "buffer_load_sshort" | "buffer_store_byte" | "buffer_store_short" => (false, 0),
            _ => return Err(unsupported(i, "buffer operation not translated yet")),
        };
        let w0 = i.inst.words[0];
        let w1 = i.inst.words[1];
        let imm_off = w0 & 0xfff;
        let offen = (w0 >> 12) & 1 != 0;
        let idxen = (w0 >> 13) & 1 != 0;
        let lds = (w0 >> 16) & 1 != 0;
        let tfe = (w1 >> 23) & 1 != 0;
        if lds || tfe {
            return Err(unsupported(i, "lds/tfe buffer forms"));
        }
        let Some((rs, 4)) = operand(i, "srsrc").and_then(scalar_regs) else {
            return Err(unsupported(i, "no V# operand"));
        };
        let (binding, desc) = self.binding_for(st, i, rs)?;
        let stride = (desc[1] >> 16) & 0x3fff;
        if idxen && stride != 0 {
            return Err(unsupported(i, "indexed (structured) buffer access"));
        }
        let vaddr = match operand(i, "vaddr") {
            Some(Operand::Vgpr { first, .. }) => *first + if idxen { 1 } else { 0 },
            _ => 0,
        };
        let soff = match operand(i, "soffset") {
            Some(o) => self.src(b, i, o)?,
            None => b.push(Op::Const(0)),
        };
        let k = b.push(Op::Const(imm_off));
        let mut off = b.push(Op::Bin(BinOp::Add, soff, k));
        if offen {
            let va = b.push(Op::Get(Reg::V(vaddr)));
            off = b.push(Op::Bin(BinOp::Add, va, off));
        }
        let vdata = match operand(i, "vdata") {
            Some(Operand::Vgpr { first, .. }) => *first,
            _ => return Err(unsupported(i, "no data VGPR")),
        };
        let active = self.active(b);
        if n == 0 {
            return self.sub_dword(b, name, off, vdata, active, binding, desc[2]);
        }
        let mut loaded = Vec::new();
        for c in 0..n {
            let ck = b.push(Op::Const(4 * c as u32));
            let o = b.push(Op::Bin(BinOp::Add, off, ck));
            if store {
                let v = b.push(Op::Get(Reg::V(vdata + c as u16)));
                b.push(Op::Store {
                    binding,
                    offset: o,
                    value: v,
                    guard: active,
                    num_records: desc[2],
                });
            } else {
                loaded.push(b.push(Op::Load {
                    binding,
                    offset: o,
                    num_records: desc[2],
                }));
            }
        }
        for (c, v) in loaded.into_iter().enumerate() {
            self.vset(b, active, vdata + c as u16, v);
        }
        Ok(())
    }
}

/// Byte `sel` (0–3) or word (4–5) of `v`, zero- or sign-extended.
fn sdwa_select(b: &mut Block, v: Val, sel: u32, sext: bool) -> Option<Val> {
    let (off, width) = match sel {
        0..=3 => (8 * sel, 8),
        4 | 5 => (16 * (sel - 4), 16),
        _ => return None,
    };
    let o = b.push(Op::Const(off));
    let w = b.push(Op::Const(width));
    Some(b.push(Op::Tri(
        if sext { TriOp::BfeI } else { TriOp::BfeU },
        v,
        o,
        w,
    )))
}

/// Places the low byte/word of `r` at select `sel` of the destination; the other bits
/// are zero (`unused` 0), the sign of the placed field (1), or `old`'s (2).
fn sdwa_place(b: &mut Block, r: Val, old: Val, sel: u32, unused: u32) -> Option<Val> {
    let (off, width) = match sel {
        0..=3 => (8 * sel, 8u32),
        4 | 5 => (16 * (sel - 4), 16),
        _ => return None,
    };
    let field = ((1u64 << width) - 1) as u32;
    let fm = b.push(Op::Const(field));
    let low = b.push(Op::Bin(BinOp::And, r, fm));
    let ov = b.push(Op::Const(off));
    let placed = b.push(Op::Bin(BinOp::Shl, low, ov));
    Some(match unused {
        0 => placed,
        1 => {
            // Sign-extend the field upwards; bits below it are zero.
            let z = b.push(Op::Const(0));
            let wv = b.push(Op::Const(width));
            let sx = b.push(Op::Tri(TriOp::BfeI, r, z, wv));
            b.push(Op::Bin(BinOp::Shl, sx, ov))
        }
        2 => {
            let keep = b.push(Op::Const(!(field << off)));
            let k = b.push(Op::Bin(BinOp::And, old, keep));
            b.push(Op::Bin(BinOp::Or, k, placed))
        }
        _ => return None,
    })
}

/// Bits `16 * hi .. 16 * hi + 16` of `v`, in the low half.
/// An f16 inline constant's bits (16-bit float operands read them as f16).
fn inline_f16(e: u8) -> u32 {
    match e {
        240 => 0x3800,
        241 => 0xb800,
        242 => 0x3c00,
        243 => 0xbc00,
        244 => 0x4000,
        245 => 0xc000,
        246 => 0x4400,
        247 => 0xc400,
        _ => 0x3118, // 1/(2π)
    }
}

fn half16(b: &mut Block, v: Val, hi: bool) -> Val {
    let r = if hi {
        let s = b.push(Op::Const(16));
        b.push(Op::Bin(BinOp::ShrU, v, s))
    } else {
        v
    };
    let m = b.push(Op::Const(0xffff));
    b.push(Op::Bin(BinOp::And, r, m))
}

/// One 16-bit operation on 16-bit inputs (in low halves); the result is in the low
/// 16 bits. Float ones compute in f32 and round once to f16, which is exact for a
/// single add, multiply, min or max (f32 holds every such result's rounding bits).
fn op16(b: &mut Block, base: &str, a: &[Val]) -> Option<Val> {
    let f = |b: &mut Block, v: Val| b.push(Op::Un(UnOp::F32FromF16, v));
    let m = b.push(Op::Const(0xffff));
    let m15 = b.push(Op::Const(15));
    let sh = |b: &mut Block, v: Val| b.push(Op::Bin(BinOp::And, v, m15));
    let sext = |b: &mut Block, v: Val| {
        let z = b.push(Op::Const(0));
        let w = b.push(Op::Const(16));
        b.push(Op::Tri(TriOp::BfeI, v, z, w))
    };
    let r = match base {
        "add_f16" | "sub_f16" | "mul_f16" | "min_f16" | "max_f16" | "subrev_f16" => {
            let (x, y) = (f(b, a[0]), f(b, *a.get(1)?));
            let (x, y) = if base == "subrev_f16" { (y, x) } else { (x, y) };
            let op = match base {
                "add_f16" => BinOp::FAdd,
                "sub_f16" | "subrev_f16" => BinOp::FSub,
                "mul_f16" => BinOp::FMul,
                "min_f16" => BinOp::FMin,
                _ => BinOp::FMax,
            };
            let r = b.push(Op::Bin(op, x, y));
            return Some(b.push(Op::Un(UnOp::F16FromF32, r)));
        }
        "fma_f16" | "mad_f16" => {
            let (x, y, z) = (f(b, a[0]), f(b, *a.get(1)?), f(b, *a.get(2)?));
            let r = b.push(Op::Tri(TriOp::FFma, x, y, z));
            return Some(b.push(Op::Un(UnOp::F16FromF32, r)));
        }
        "add_u16" | "add_nc_u16" => b.push(Op::Bin(BinOp::Add, a[0], *a.get(1)?)),
        "sub_u16" | "sub_nc_u16" => b.push(Op::Bin(BinOp::Sub, a[0], *a.get(1)?)),
        "mul_lo_u16" => b.push(Op::Bin(BinOp::Mul, a[0], *a.get(1)?)),
        "mad_u16" => {
            let p = b.push(Op::Bin(BinOp::Mul, a[0], *a.get(1)?));
            b.push(Op::Bin(BinOp::Add, p, *a.get(2)?))
        }
        "lshlrev_b16" => {
            let s = sh(b, a[0]);
            b.push(Op::Bin(BinOp::Shl, *a.get(1)?, s))
        }
        "lshrrev_b16" => {
            let s = sh(b, a[0]);
            b.push(Op::Bin(BinOp::ShrU, *a.get(1)?, s))
        }
        "ashrrev_i16" => {
            let s = sh(b, a[0]);
            let v = sext(b, *a.get(1)?);
            b.push(Op::Bin(BinOp::ShrI, v, s))
        }
        "min_u16" => b.push(Op::Bin(BinOp::MinU, a[0], *a.get(1)?)),
        "max_u16" => b.push(Op::Bin(BinOp::MaxU, a[0], *a.get(1)?)),
        "min_i16" | "max_i16" => {
            let (x, y) = (sext(b, a[0]), sext(b, *a.get(1)?));
            let op = if base == "min_i16" {
                BinOp::MinI
            } else {
                BinOp::MaxI
            };
            b.push(Op::Bin(op, x, y))
        }
        _ => return None,
    };
    Some(b.push(Op::Bin(BinOp::And, r, m)))
}

impl Tr<'_> {
    /// Byte and short buffer accesses through the containing dword. A store clears
    /// and then sets its bits with two atomics, so lanes storing to other bytes of
    /// the same dword do not race. (Range checks are per dword.)
    #[allow(clippy::too_many_arguments)]
    fn sub_dword(
        &mut self,
        b: &mut Block,
        name: &str,
        off: Val,
        vdata: u16,
        active: Val,
        binding: u32,
        num_records: u32,
    ) -> Result<()> {
        let width = if name.ends_with("byte") { 8 } else { 16 };
        let m3 = b.push(Op::Const(3));
        let sub = b.push(Op::Bin(BinOp::And, off, m3));
        let eight = b.push(Op::Const(8));
        let shift = b.push(Op::Bin(BinOp::Mul, sub, eight));
        let not3 = b.push(Op::Const(!3));
        let base = b.push(Op::Bin(BinOp::And, off, not3));
        let space = Space::Buffer {
            binding,
            num_records,
        };
        if name.starts_with("buffer_store") {
            let fm = b.push(Op::Const((1u32 << width) - 1));
            let v = b.push(Op::Get(Reg::V(vdata)));
            let v = b.push(Op::Bin(BinOp::And, v, fm));
            let v = b.push(Op::Bin(BinOp::Shl, v, shift));
            let mask = b.push(Op::Bin(BinOp::Shl, fm, shift));
            let clear = b.push(Op::Un(UnOp::Not, mask));
            b.push(Op::Atomic {
                space,
                op: AtomicOp::And,
                offset: base,
                value: clear,
                guard: active,
            });
            b.push(Op::Atomic {
                space,
                op: AtomicOp::Or,
                offset: base,
                value: v,
                guard: active,
            });
            return Ok(());
        }
        let w = b.push(Op::Load {
            binding,
            offset: base,
            num_records,
        });
        let wv = b.push(Op::Const(width));
        let signed = name.contains("_s");
        let r = b.push(Op::Tri(
            if signed { TriOp::BfeI } else { TriOp::BfeU },
            w,
            shift,
            wv,
        ));
        self.vset(b, active, vdata, r);
        Ok(())
    }

    /// Packed 16-bit math (VOP3P): each half picks its source halves with
    /// op_sel / op_sel_hi and its negations with neg_lo / neg_hi.
    fn vop3p(&mut self, b: &mut Block, i: &Inst, name: &str) -> Result<()> {
        let Some(base) = name.strip_prefix("v_pk_") else {
            return Err(unsupported(i, "VOP3P operation not translated yet"));
        };
        let (w0, w1) = (i.inst.words[0], i.inst.words[1]);
        if (w0 >> 15) & 1 != 0 {
            return Err(unsupported(i, "packed clamp"));
        }
        let op_sel = (w0 >> 11) & 7;
        let op_sel_hi = ((w1 >> 27) & 3) | (((w0 >> 14) & 1) << 2);
        let neg_hi = (w0 >> 8) & 7;
        let neg_lo = (w1 >> 29) & 7;
        let float = base.ends_with("f16");
        let d = self.vdst(i)?;
        let srcs = self.srcs(i);
        let mut vals = Vec::new();
        for o in &srcs {
            vals.push(match o {
                // Assumed: the f16 constant fills the low half only (unverified for a
                // high-half select; no corpus shader does that yet).
                Operand::InlineFloat(e) if float => b.push(Op::Const(inline_f16(*e))),
                _ => self.src(b, i, o)?,
            });
        }
        let active = self.active(b);
        let mut halves = Vec::new();
        for h in 0..2 {
            let (sel, neg) = if h == 0 {
                (op_sel, neg_lo)
            } else {
                (op_sel_hi, neg_hi)
            };
            let mut args = Vec::new();
            for (k, &v) in vals.iter().enumerate() {
                let mut x = half16(b, v, (sel >> k) & 1 != 0);
                if (neg >> k) & 1 != 0 {
                    if !float {
                        return Err(unsupported(i, "neg on an integer operand"));
                    }
                    let s = b.push(Op::Const(0x8000));
                    x = b.push(Op::Bin(BinOp::Xor, x, s));
                }
                args.push(x);
            }
            let r = op16(b, base, &args)
                .ok_or_else(|| unsupported(i, "packed operation not translated yet"))?;
            halves.push(r);
        }
        let s16 = b.push(Op::Const(16));
        let hi = b.push(Op::Bin(BinOp::Shl, halves[1], s16));
        let r = b.push(Op::Bin(BinOp::Or, halves[0], hi));
        self.vset(b, active, d, r);
        Ok(())
    }

    /// Scalar 16-bit VALU: VOP3 op_sel picks source halves and the destination half
    /// (the other half is kept); VOP1/VOP2 forms use and write the low halves.
    #[allow(clippy::too_many_arguments)]
    fn valu16(
        &mut self,
        b: &mut Block,
        i: &Inst,
        name: &str,
        srcs: &[&Operand],
        mods: [Mods; 3],
        clamp: bool,
        omod: u32,
    ) -> Result<()> {
        if clamp || i.inst.form != Form::Basic {
            return Err(unsupported(i, "clamp or SDWA/DPP on a 16-bit operation"));
        }
        let op_sel = if i.inst.encoding == Encoding::Vop3 {
            (i.inst.words[0] >> 11) & 0xf
        } else {
            0
        };
        let d = self.vdst(i)?;
        let active = self.active(b);
        let mut vals = Vec::new();
        let f16_in = name.contains("_f16") && name != "v_cvt_f16_f32";
        for (k, o) in srcs.iter().enumerate() {
            let v = match o {
                Operand::InlineFloat(e) if f16_in => b.push(Op::Const(inline_f16(*e))),
                _ => self.src(b, i, o)?,
            };
            vals.push(half16(b, v, (op_sel >> k) & 1 != 0));
        }
        // Conversions to and from f32 and f16 float modifiers.
        let fmod16 = |b: &mut Block, mut x: Val, m: Mods| {
            if m.abs {
                let k = b.push(Op::Const(0x7fff));
                x = b.push(Op::Bin(BinOp::And, x, k));
            }
            if m.neg {
                let k = b.push(Op::Const(0x8000));
                x = b.push(Op::Bin(BinOp::Xor, x, k));
            }
            x
        };
        let full_word = match name {
            "v_cvt_f32_f16" => {
                let x = fmod16(b, vals[0], mods[0]);
                let r = b.push(Op::Un(UnOp::F32FromF16, x));
                let r = if omod != 0 {
                    let k = [1.0f32, 2.0, 4.0, 0.5][omod as usize];
                    let kv = b.push(Op::Const(k.to_bits()));
                    b.push(Op::Bin(BinOp::FMul, r, kv))
                } else {
                    r
                };
                Some(r)
            }
            _ => None,
        };
        if let Some(r) = full_word {
            self.vset(b, active, d, r);
            return Ok(());
        }
        if omod != 0 {
            return Err(unsupported(i, "output modifier on a 16-bit operation"));
        }
        let r = if name == "v_cvt_f16_f32" {
            let v = self.fsrc(b, i, srcs[0], mods[0], true)?;
            b.push(Op::Un(UnOp::F16FromF32, v))
        } else {
            let base = name.strip_prefix("v_").unwrap_or(name);
            let args: Vec<Val> = vals
                .iter()
                .zip(mods.iter())
                .map(|(&v, &m)| {
                    if base.ends_with("f16") {
                        fmod16(b, v, m)
                    } else {
                        v
                    }
                })
                .collect();
            op16(b, base, &args)
                .ok_or_else(|| unsupported(i, "16-bit operation not translated yet"))?
        };
        // Write the selected half and keep the other.
        let old = b.push(Op::Get(Reg::V(d)));
        let hi_dst = (op_sel >> 3) & 1 != 0;
        let s16 = b.push(Op::Const(16));
        let merged = if hi_dst {
            let lo = half16(b, old, false);
            let h = b.push(Op::Bin(BinOp::Shl, r, s16));
            b.push(Op::Bin(BinOp::Or, lo, h))
        } else {
            let keep = b.push(Op::Const(0xffff_0000));
            let k = b.push(Op::Bin(BinOp::And, old, keep));
            b.push(Op::Bin(BinOp::Or, k, r))
        };
        self.vset(b, active, d, merged);
        Ok(())
    }

    /// A 64-bit VALU source with f64 modifiers (sign bit of the high word) as a U64.
    fn src64v(&self, b: &mut Block, i: &Inst, o: &Operand, m: Mods, float: bool) -> Result<Val> {
        let (lo, mut hi) = match *o {
            // A 32-bit literal of a 64-bit float operand is its high word.
            Operand::Literal(v) if float => (b.push(Op::Const(0)), b.push(Op::Const(v))),
            _ => self.vsrc64(b, i, o)?,
        };
        if (m.abs || m.neg) && !float {
            return Err(unsupported(i, "neg/abs on an integer operand"));
        }
        if m.abs {
            let k = b.push(Op::Const(0x7fff_ffff));
            hi = b.push(Op::Bin(BinOp::And, hi, k));
        }
        if m.neg {
            let k = b.push(Op::Const(0x8000_0000));
            hi = b.push(Op::Bin(BinOp::Xor, hi, k));
        }
        Ok(b.push(Op::Pack64(lo, hi)))
    }

    /// f64 arithmetic and 64-bit compares.
    #[allow(clippy::too_many_arguments)]
    fn valu64(
        &mut self,
        b: &mut Block,
        i: &Inst,
        name: &str,
        srcs: &[&Operand],
        mods: [Mods; 3],
        clamp: bool,
        omod: u32,
    ) -> Result<()> {
        let active = self.active(b);
        if let Some(rest) = name.strip_prefix("v_cmp_") {
            let (cond, ty) = rest
                .rsplit_once('_')
                .ok_or_else(|| unsupported(i, "compare"))?;
            let float = ty == "f64";
            let x = self.src64v(b, i, srcs[0], mods[0], float)?;
            let y = self.src64v(b, i, srcs[1], mods[1], float)?;
            let c = match cond {
                "f" => b.push(Op::ConstBool(false)),
                "t" | "tru" => b.push(Op::ConstBool(true)),
                _ if float => {
                    let op = fcmp_of(cond).ok_or_else(|| unsupported(i, "compare"))?;
                    b.push(Op::Cmp(op, x, y))
                }
                _ => {
                    let op = icmp_of(cond, ty == "i64").ok_or_else(|| unsupported(i, "compare"))?;
                    b.push(Op::Cmp(op, x, y))
                }
            };
            let d = if i.inst.encoding == Encoding::Vopc {
                VCC_LO
            } else {
                self.sdst_reg(i, "vdst")
                    .or_else(|_| self.sdst_reg(i, "sdst"))?
            };
            self.mask_set(b, active, d, c);
            return Ok(());
        }
        let d = self.vdst(i)?;
        // Results: a U64 (written to a pair) or a U32 (one register).
        let f64src = |tr: &Self, b: &mut Block, k: usize| -> Result<Val> {
            let o = srcs
                .get(k)
                .ok_or_else(|| unsupported(i, "missing operand"))?;
            tr.src64v(b, i, o, mods[k], true)
        };
        let r = match name {
            "v_add_f64" | "v_mul_f64" | "v_min_f64" | "v_max_f64" => {
                let x = f64src(self, b, 0)?;
                let y = f64src(self, b, 1)?;
                let op = match name {
                    "v_add_f64" => BinOp::FAdd,
                    "v_mul_f64" => BinOp::FMul,
                    "v_min_f64" => BinOp::FMin,
                    _ => BinOp::FMax,
                };
                b.push(Op::Bin(op, x, y))
            }
            "v_fma_f64" => {
                let x = f64src(self, b, 0)?;
                let y = f64src(self, b, 1)?;
                let z = f64src(self, b, 2)?;
                b.push(Op::Tri(TriOp::FFma, x, y, z))
            }
            "v_sqrt_f64" | "v_rsq_f64" | "v_rcp_f64" | "v_floor_f64" | "v_ceil_f64"
            | "v_trunc_f64" | "v_rndne_f64" | "v_fract_f64" => {
                let x = f64src(self, b, 0)?;
                let op = match name {
                    "v_sqrt_f64" => UnOp::FSqrt,
                    "v_rsq_f64" => UnOp::FRsq,
                    "v_rcp_f64" => UnOp::FRcp,
                    "v_floor_f64" => UnOp::FFloor,
                    "v_ceil_f64" => UnOp::FCeil,
                    "v_trunc_f64" => UnOp::FTrunc,
                    "v_rndne_f64" => UnOp::FRoundEven,
                    _ => UnOp::FFract,
                };
                b.push(Op::Un(op, x))
            }
            "v_cvt_f64_f32" | "v_cvt_f64_i32" | "v_cvt_f64_u32" => {
                let x = self.fsrc(b, i, srcs[0], mods[0], name == "v_cvt_f64_f32")?;
                let op = match name {
                    "v_cvt_f64_f32" => UnOp::F64FromF32,
                    "v_cvt_f64_i32" => UnOp::F64FromI32,
                    _ => UnOp::F64FromU32,
                };
                b.push(Op::Un(op, x))
            }
            "v_cvt_f32_f64" | "v_cvt_i32_f64" | "v_cvt_u32_f64" => {
                let x = f64src(self, b, 0)?;
                let op = match name {
                    "v_cvt_f32_f64" => UnOp::F32FromF64,
                    "v_cvt_i32_f64" => UnOp::I32FromF64,
                    _ => UnOp::U32FromF64,
                };
                let r = b.push(Op::Un(op, x));
                if omod != 0 || (clamp && name != "v_cvt_f32_f64") {
                    return Err(unsupported(i, "output modifier on a conversion"));
                }
                let r = if clamp {
                    b.push(Op::Un(UnOp::FClamp01, r))
                } else {
                    r
                };
                self.vset(b, active, d, r);
                return Ok(());
            }
            _ => return Err(unsupported(i, "64-bit vector operation not translated yet")),
        };
        let r = if omod != 0 {
            let k = [1.0f64, 2.0, 4.0, 0.5][omod as usize].to_bits();
            let lo = b.push(Op::Const(k as u32));
            let hi = b.push(Op::Const((k >> 32) as u32));
            let kv = b.push(Op::Pack64(lo, hi));
            b.push(Op::Bin(BinOp::FMul, r, kv))
        } else {
            r
        };
        let r = if clamp {
            b.push(Op::Un(UnOp::FClamp01, r))
        } else {
            r
        };
        let lo = b.push(Op::Half(r, 0));
        let hi = b.push(Op::Half(r, 1));
        self.vset(b, active, d, lo);
        self.vset(b, active, d + 1, hi);
        Ok(())
    }

    fn lane_mask(&self) -> u32 {
        if self.wave64 {
            63
        } else {
            31
        }
    }

    /// The value of VGPR `reg` at lane `src` (a value).
    fn read_lane(&self, b: &mut Block, i: &Inst, reg: u16, src: Val) -> Result<Val> {
        if self.mapping != Mapping::Workgroup {
            return Err(unsupported(
                i,
                "cross-lane read outside the workgroup mapping",
            ));
        }
        let v = b.push(Op::Get(Reg::V(reg)));
        let m = b.push(Op::Const(self.lane_mask()));
        let l = b.push(Op::Bin(BinOp::And, src, m));
        Ok(b.push(Op::Shuffle(v, l)))
    }

    /// Whether lane `l` (a value) is set in EXEC.
    fn exec_bit(&self, b: &mut Block, l: Val) -> Val {
        let lo = b.push(Op::Get(Reg::S(EXEC_LO)));
        self.lane_bit(b, lo, l, EXEC_LO)
    }

    /// DPP16's src0 for this lane: (value, whether this lane writes).
    fn dpp16(&self, b: &mut Block, i: &Inst) -> Result<(Val, Val)> {
        let w = i.inst.words[1];
        let src0 = (w & 0xff) as u16;
        let ctrl = (w >> 8) & 0x1ff;
        let fi = (w >> 18) & 1 != 0;
        let bound_zero = (w >> 19) & 1 != 0;
        let bank_mask = (w >> 24) & 0xf;
        let row_mask = (w >> 28) & 0xf;
        let lane = b.push(Op::Builtin(Builtin::Lane));
        let c = |b: &mut Block, v: u32| b.push(Op::Const(v));
        let m15 = c(b, 15);
        let r = b.push(Op::Bin(BinOp::And, lane, m15));
        let not15 = c(b, !15);
        let row_base = b.push(Op::Bin(BinOp::And, lane, not15));
        let t = b.push(Op::ConstBool(true));
        // (source lane within the row, whether it is inside the row)
        let (sr, in_row) = match ctrl {
            0x000..=0x0ff => {
                let m3 = c(b, 3);
                let q = b.push(Op::Bin(BinOp::And, lane, m3));
                let two = c(b, 2);
                let sh = b.push(Op::Bin(BinOp::Mul, q, two));
                let cc = c(b, ctrl);
                let sel = b.push(Op::Bin(BinOp::ShrU, cc, sh));
                let sel = b.push(Op::Bin(BinOp::And, sel, m3));
                let qb = c(b, 12);
                let quad = b.push(Op::Bin(BinOp::And, r, qb));
                (b.push(Op::Bin(BinOp::Or, quad, sel)), t)
            }
            0x101..=0x10f => {
                let n = c(b, ctrl & 0xf);
                let s = b.push(Op::Bin(BinOp::Add, r, n));
                let sixteen = c(b, 16);
                (s, b.push(Op::Cmp(CmpOp::LtU, s, sixteen)))
            }
            0x111..=0x11f => {
                let n = c(b, ctrl & 0xf);
                let s = b.push(Op::Bin(BinOp::Sub, r, n));
                (s, b.push(Op::Cmp(CmpOp::GeU, r, n)))
            }
            0x121..=0x12f => {
                let n = c(b, ctrl & 0xf);
                let s = b.push(Op::Bin(BinOp::Sub, r, n));
                (b.push(Op::Bin(BinOp::And, s, m15)), t)
            }
            0x140 => (b.push(Op::Bin(BinOp::Sub, m15, r)), t),
            0x141 => {
                let m8 = c(b, 8);
                let hi = b.push(Op::Bin(BinOp::And, r, m8));
                let m7 = c(b, 7);
                let lo = b.push(Op::Bin(BinOp::And, r, m7));
                let inv = b.push(Op::Bin(BinOp::Sub, m7, lo));
                (b.push(Op::Bin(BinOp::Or, hi, inv)), t)
            }
            0x150..=0x15f => (c(b, ctrl & 0xf), t),
            0x160..=0x16f => {
                let n = c(b, ctrl & 0xf);
                (b.push(Op::Bin(BinOp::Xor, r, n)), t)
            }
            _ => return Err(unsupported(i, format!("DPP control {ctrl:#x}"))),
        };
        let sr = b.push(Op::Bin(BinOp::And, sr, m15));
        let src = b.push(Op::Bin(BinOp::Or, row_base, sr));
        let fetched = self.read_lane(b, i, src0, src)?;
        let valid = if fi {
            in_row
        } else {
            let e = self.exec_bit(b, src);
            b.push(Op::Bin(BinOp::LogicAnd, in_row, e))
        };
        let zero = c(b, 0);
        let val = b.push(Op::Select(valid, fetched, zero));
        let mut ok = if bound_zero { t } else { valid };
        // Row and bank masks: lanes whose row or bank bit is clear do not write.
        for (mask, shift, and) in [(row_mask, 4u32, 3u32), (bank_mask, 2, 3)] {
            if mask != 0xf {
                let sh = c(b, shift);
                let x = b.push(Op::Bin(BinOp::ShrU, lane, sh));
                let a = c(b, and);
                let idx = b.push(Op::Bin(BinOp::And, x, a));
                let mv = c(b, mask);
                let bit = b.push(Op::Bin(BinOp::ShrU, mv, idx));
                let one = c(b, 1);
                let bit = b.push(Op::Bin(BinOp::And, bit, one));
                let set = b.push(Op::Cmp(CmpOp::Ne, bit, zero));
                ok = b.push(Op::Bin(BinOp::LogicAnd, ok, set));
            }
        }
        Ok((val, ok))
    }

    /// Lane-crossing VALU instructions; `Some(())` when handled.
    fn cross_lane(
        &mut self,
        b: &mut Block,
        i: &Inst,
        name: &str,
        srcs: &[&Operand],
    ) -> Result<Option<()>> {
        let vreg = |o: &Operand| match o {
            Operand::Vgpr { first, .. } => Some(*first),
            _ => None,
        };
        match name {
            "v_readlane_b32" | "v_readfirstlane_b32" => {
                let d = match i.inst.operands.first().and_then(|(_, o)| scalar_regs(o)) {
                    Some((r, _)) => r,
                    None => return Err(unsupported(i, "readlane destination")),
                };
                let Some(v) = srcs.first().and_then(|o| vreg(o)) else {
                    return Err(unsupported(i, "readlane source must be a VGPR"));
                };
                let lane = if name == "v_readlane_b32" {
                    let o = srcs.get(1).ok_or_else(|| unsupported(i, "lane select"))?;
                    self.src(b, i, o)?
                } else {
                    // The first active lane; lane 0 when none is.
                    let lo = b.push(Op::Get(Reg::S(EXEC_LO)));
                    let flo = b.push(Op::Un(UnOp::FindLsb, lo));
                    let zero = b.push(Op::Const(0));
                    let lo_set = b.push(Op::Cmp(CmpOp::Ne, lo, zero));
                    if self.wave64 {
                        let hi = b.push(Op::Get(Reg::S(EXEC_LO + 1)));
                        let fhi = b.push(Op::Un(UnOp::FindLsb, hi));
                        let c32 = b.push(Op::Const(32));
                        let h = b.push(Op::Bin(BinOp::Add, fhi, c32));
                        let hi_set = b.push(Op::Cmp(CmpOp::Ne, hi, zero));
                        let h = b.push(Op::Select(hi_set, h, zero));
                        b.push(Op::Select(lo_set, flo, h))
                    } else {
                        b.push(Op::Select(lo_set, flo, zero))
                    }
                };
                let r = self.read_lane(b, i, v, lane)?;
                b.push(Op::Set(Reg::S(d), r));
                Ok(Some(()))
            }
            "v_writelane_b32" => {
                let d = self.vdst(i)?;
                let val = self.src(b, i, srcs[0])?;
                let sel = self.src(b, i, srcs.get(1).ok_or_else(|| unsupported(i, "lane"))?)?;
                let m = b.push(Op::Const(self.lane_mask()));
                let sel = b.push(Op::Bin(BinOp::And, sel, m));
                let lane = b.push(Op::Builtin(Builtin::Lane));
                // Writes regardless of EXEC.
                let me = b.push(Op::Cmp(CmpOp::Eq, lane, sel));
                self.vset(b, me, d, val);
                Ok(Some(()))
            }
            "v_permlane16_b32" | "v_permlanex16_b32" => {
                let d = self.vdst(i)?;
                let Some(v) = srcs.first().and_then(|o| vreg(o)) else {
                    return Err(unsupported(i, "permlane source must be a VGPR"));
                };
                let s1 = self.src(b, i, srcs[1])?;
                let s2 = self.src(b, i, srcs[2])?;
                let w0 = i.inst.words[0];
                let fi = (w0 >> 11) & 1 != 0;
                let bound_zero = (w0 >> 12) & 1 != 0;
                let lane = b.push(Op::Builtin(Builtin::Lane));
                let m15 = b.push(Op::Const(15));
                let r = b.push(Op::Bin(BinOp::And, lane, m15));
                let m7 = b.push(Op::Const(7));
                let k = b.push(Op::Bin(BinOp::And, r, m7));
                let four = b.push(Op::Const(4));
                let sh = b.push(Op::Bin(BinOp::Mul, k, four));
                let eight = b.push(Op::Const(8));
                let upper = b.push(Op::Cmp(CmpOp::GeU, r, eight));
                let word = b.push(Op::Select(upper, s2, s1));
                let sel = b.push(Op::Bin(BinOp::ShrU, word, sh));
                let sel = b.push(Op::Bin(BinOp::And, sel, m15));
                let not15 = b.push(Op::Const(!15));
                let mut row = b.push(Op::Bin(BinOp::And, lane, not15));
                if name == "v_permlanex16_b32" {
                    // The other row of the pair.
                    let sixteen = b.push(Op::Const(16));
                    row = b.push(Op::Bin(BinOp::Xor, row, sixteen));
                }
                let src = b.push(Op::Bin(BinOp::Or, row, sel));
                let fetched = self.read_lane(b, i, v, src)?;
                let active = self.active(b);
                let valid = if fi {
                    b.push(Op::ConstBool(true))
                } else {
                    self.exec_bit(b, src)
                };
                let zero = b.push(Op::Const(0));
                let old = b.push(Op::Get(Reg::V(d)));
                let other = if bound_zero { zero } else { old };
                let val = b.push(Op::Select(valid, fetched, other));
                self.vset(b, active, d, val);
                Ok(Some(()))
            }
            _ => Ok(None),
        }
    }

    fn mubuf_atomic(&mut self, b: &mut Block, st: &State, i: &Inst, op: &str) -> Result<()> {
        let Some(aop) = atomic_of(op) else {
            return Err(unsupported(i, "buffer atomic not translated yet"));
        };
        let (w0, w1) = (i.inst.words[0], i.inst.words[1]);
        let offen = (w0 >> 12) & 1 != 0;
        let idxen = (w0 >> 13) & 1 != 0;
        let glc = (w0 >> 14) & 1 != 0;
        if idxen || (w1 >> 23) & 1 != 0 {
            return Err(unsupported(i, "indexed or tfe buffer atomic"));
        }
        let Some((rs, 4)) = operand(i, "srsrc").and_then(scalar_regs) else {
            return Err(unsupported(i, "no V# operand"));
        };
        let (binding, desc) = self.binding_for(st, i, rs)?;
        let soff = match operand(i, "soffset") {
            Some(o) => self.src(b, i, o)?,
            None => b.push(Op::Const(0)),
        };
        let k = b.push(Op::Const(w0 & 0xfff));
        let mut off = b.push(Op::Bin(BinOp::Add, soff, k));
        if offen {
            let va = b.push(Op::Get(Reg::V((w1 & 0xff) as u16)));
            off = b.push(Op::Bin(BinOp::Add, va, off));
        }
        let vdata = ((w1 >> 8) & 0xff) as u16;
        let active = self.active(b);
        let v = b.push(Op::Get(Reg::V(vdata)));
        let old = b.push(Op::Atomic {
            space: Space::Buffer {
                binding,
                num_records: desc[2],
            },
            op: aop,
            offset: off,
            value: v,
            guard: active,
        });
        if glc {
            // glc: the pre-operation value comes back in vdata.
            self.vset(b, active, vdata, old);
        }
        Ok(())
    }
}

/// A 64-bit shift of (lo, hi) by `s & 63`, from 32-bit operations.
fn shift64(b: &mut Block, name: &str, lo: Val, hi: Val, s: Val) -> (Val, Val) {
    let m63 = b.push(Op::Const(63));
    let s = b.push(Op::Bin(BinOp::And, s, m63));
    let c32 = b.push(Op::Const(32));
    let zero = b.push(Op::Const(0));
    let big = b.push(Op::Cmp(CmpOp::GeU, s, c32));
    let is0 = b.push(Op::Cmp(CmpOp::Eq, s, zero));
    let s_lo = b.push(Op::Bin(BinOp::Sub, s, c32)); // s - 32 (used when big)
    let inv = b.push(Op::Bin(BinOp::Sub, c32, s)); // 32 - s (used when 0 < s < 32)
    match name {
        "v_lshlrev_b64" => {
            let l = b.push(Op::Bin(BinOp::Shl, lo, s));
            let h = b.push(Op::Bin(BinOp::Shl, hi, s));
            let carry = b.push(Op::Bin(BinOp::ShrU, lo, inv));
            let carry = b.push(Op::Select(is0, zero, carry));
            let h = b.push(Op::Bin(BinOp::Or, h, carry));
            let hb = b.push(Op::Bin(BinOp::Shl, lo, s_lo));
            (
                b.push(Op::Select(big, zero, l)),
                b.push(Op::Select(big, hb, h)),
            )
        }
        _ => {
            let arith = name == "v_ashrrev_i64";
            let op = if arith { BinOp::ShrI } else { BinOp::ShrU };
            let h = b.push(Op::Bin(op, hi, s));
            let l = b.push(Op::Bin(BinOp::ShrU, lo, s));
            let carry = b.push(Op::Bin(BinOp::Shl, hi, inv));
            let carry = b.push(Op::Select(is0, zero, carry));
            let l = b.push(Op::Bin(BinOp::Or, l, carry));
            let lb = b.push(Op::Bin(op, hi, s_lo));
            let c31 = b.push(Op::Const(31));
            let fill = if arith {
                b.push(Op::Bin(BinOp::ShrI, hi, c31))
            } else {
                zero
            };
            (
                b.push(Op::Select(big, lb, l)),
                b.push(Op::Select(big, fill, h)),
            )
        }
    }
}

fn b_31(b: &mut Block) -> Val {
    b.push(Op::Const(31))
}

fn is_float_op(name: &str) -> bool {
    name.contains("_f32")
}

fn cmp_of(s: &str) -> Option<CmpOp> {
    let (c, ty) = s.rsplit_once('_')?;
    icmp_of(c, ty == "i32")
}

fn icmp_of(c: &str, signed: bool) -> Option<CmpOp> {
    Some(match (c, signed) {
        ("eq", _) => CmpOp::Eq,
        ("lg" | "ne", _) => CmpOp::Ne,
        ("lt", false) => CmpOp::LtU,
        ("le", false) => CmpOp::LeU,
        ("gt", false) => CmpOp::GtU,
        ("ge", false) => CmpOp::GeU,
        ("lt", true) => CmpOp::LtI,
        ("le", true) => CmpOp::LeI,
        ("gt", true) => CmpOp::GtI,
        ("ge", true) => CmpOp::GeI,
        _ => return None,
    })
}

fn fcmp_of(c: &str) -> Option<CmpOp> {
    Some(match c {
        "eq" => CmpOp::FOEq,
        "lt" => CmpOp::FOLt,
        "le" => CmpOp::FOLe,
        "gt" => CmpOp::FOGt,
        "ge" => CmpOp::FOGe,
        "lg" => CmpOp::FONe,
        "o" => CmpOp::FOrd,
        "u" => CmpOp::FUnord,
        "neq" => CmpOp::FUNe,
        "nlg" => CmpOp::FUEq,
        "nge" => CmpOp::FULt,
        "ngt" => CmpOp::FULe,
        "nle" => CmpOp::FUGt,
        "nlt" => CmpOp::FUGe,
        _ => return None,
    })
}
