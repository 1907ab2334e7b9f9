//! IR → SPIR-V 1.3 through `rspirv`.
//!
//! Each guest register is a `Function` variable of type `uint`; floats are handled as
//! their bit patterns and bitcast around each float instruction. Storage buffers are
//! `uint[]` runtime arrays at set 0, binding n; the push-constant block is a `uint`
//! array. Loads are range-checked against the V#'s `num_records` (an out-of-range
//! load returns 0, an out-of-range store is dropped), as the hardware does.

use std::collections::{BTreeSet, HashMap};

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand as SpvOperand};
use spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, LoopControl, MemoryModel, Scope, SelectionControl, StorageClass, Word,
};

use crate::ir::{
    AtomicOp, BinOp, Block, Builtin, CmpOp, Module, Node, Op, Reg, Space, TriOp, Ty, UnOp, Val,
};
use crate::{Error, Result, ShaderInput};

// GLSL.std.450 instruction numbers.
const GLSL_ROUND_EVEN: u32 = 2;
const GLSL_PACK_HALF_2X16: u32 = 58;
const GLSL_UNPACK_HALF_2X16: u32 = 62;
const GLSL_TRUNC: u32 = 3;
const GLSL_FLOOR: u32 = 8;
const GLSL_CEIL: u32 = 9;
const GLSL_FRACT: u32 = 10;
const GLSL_SIN: u32 = 13;
const GLSL_COS: u32 = 14;
const GLSL_EXP2: u32 = 29;
const GLSL_LOG2: u32 = 30;
const GLSL_SQRT: u32 = 31;
const GLSL_INVERSE_SQRT: u32 = 32;
const GLSL_UMIN: u32 = 38;
const GLSL_SMIN: u32 = 39;
const GLSL_UMAX: u32 = 41;
const GLSL_SMAX: u32 = 42;
const GLSL_FMA: u32 = 50;
const GLSL_FIND_ILSB: u32 = 73;
const GLSL_FIND_SMSB: u32 = 74;
const GLSL_FIND_UMSB: u32 = 75;
const GLSL_NMIN: u32 = 79;
const GLSL_NMAX: u32 = 80;

fn is_to64(op: UnOp) -> bool {
    matches!(op, UnOp::F64FromF32 | UnOp::F64FromI32 | UnOp::F64FromU32)
}

struct Types {
    u32: Word,
    f32: Word,
    bool: Word,
    uvec4: Word,
    mul_ext: Word,
    ptr_fn_u32: Word,
    ptr_sb_u32: Word,
    ptr_pc_u32: Word,
    ptr_in_u32: Word,
    ptr_wg_u32: Word,
}

struct Emitter {
    b: Builder,
    t: Types,
    glsl: Word,
    regs: HashMap<Reg, Word>,
    buffers: Vec<Word>,
    push: Option<Word>,
    builtins: HashMap<&'static str, Word>,
    interface: Vec<Word>,
    /// Innermost loop: (merge, continue).
    loops: Vec<(Word, Word)>,
    /// Whether the current block still needs a terminator.
    open: bool,
    /// The LDS array and its size in bytes.
    lds: Option<(Word, u32)>,
    /// A function variable holding a guarded atomic's result.
    atom_tmp: Word,
    /// Workgroup mapping: the exchange array (one word per lane) and the ballot words.
    xch: Option<(Word, Word)>,
    /// Ballots already computed in the current block, by condition id.
    ballots: HashMap<Word, (Word, Word)>,
    /// Lanes per wave.
    wave_lanes: u32,
    /// (u64, f64, uvec2) once a 64-bit value is used (declaring the capabilities).
    t64: Option<(Word, Word, Word)>,
}

fn spv_err(e: impl std::fmt::Debug) -> Error {
    Error::State {
        pc: 0,
        why: format!("SPIR-V builder: {e:?}"),
    }
}

fn collect_block(b: &Block, out: &mut BTreeSet<Reg>) {
    for op in &b.ops {
        if let Op::Get(r) | Op::Set(r, _) = op {
            out.insert(*r);
        }
    }
}

fn collect_regs(nodes: &[Node], out: &mut BTreeSet<Reg>) {
    let block = |b: &Block, out: &mut BTreeSet<Reg>| collect_block(b, out);
    for n in nodes {
        match n {
            Node::Code(b) => block(b, out),
            Node::If {
                cond_block,
                then,
                els,
            } => {
                block(cond_block, out);
                collect_regs(then, out);
                collect_regs(els, out);
            }
            Node::Loop(body) => collect_regs(body, out),
            _ => {}
        }
    }
}

/// Emits the SPIR-V module for a translated shader.
pub fn emit(m: &Module, input: &ShaderInput<'_>) -> Result<Vec<u32>> {
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(Capability::Shader);
    b.capability(Capability::GroupNonUniform);
    b.capability(Capability::GroupNonUniformBallot);
    let glsl = b.ext_inst_import("GLSL.std.450");
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let u32t = b.type_int(32, 0);
    let f32t = b.type_float(32, None);
    let boolt = b.type_bool();
    let uvec3 = b.type_vector(u32t, 3);
    let uvec4 = b.type_vector(u32t, 4);
    let mul_ext = b.type_struct([u32t, u32t]);
    let t = Types {
        u32: u32t,
        f32: f32t,
        bool: boolt,

        uvec4,
        mul_ext,
        ptr_fn_u32: b.type_pointer(None, StorageClass::Function, u32t),
        ptr_sb_u32: b.type_pointer(None, StorageClass::StorageBuffer, u32t),
        ptr_pc_u32: b.type_pointer(None, StorageClass::PushConstant, u32t),
        ptr_in_u32: b.type_pointer(None, StorageClass::Input, u32t),
        ptr_wg_u32: b.type_pointer(None, StorageClass::Workgroup, u32t),
    };
    let mut e = Emitter {
        b,
        t,
        glsl,
        regs: HashMap::new(),
        buffers: Vec::new(),
        push: None,
        builtins: HashMap::new(),
        interface: Vec::new(),
        loops: Vec::new(),
        open: false,
        lds: None,
        atom_tmp: 0,
        xch: None,
        ballots: HashMap::new(),
        wave_lanes: m.wave_lanes,
        t64: None,
    };
    if m.mapping == crate::Mapping::Workgroup {
        let n = e.b.constant_bit32(u32t, m.wave_lanes);
        let arr = e.b.type_array(u32t, n);
        let ptr = e.b.type_pointer(None, StorageClass::Workgroup, arr);
        let xch = e.b.variable(ptr, None, StorageClass::Workgroup, None);
        let two = e.b.constant_bit32(u32t, 2);
        let arr2 = e.b.type_array(u32t, two);
        let ptr2 = e.b.type_pointer(None, StorageClass::Workgroup, arr2);
        let bal = e.b.variable(ptr2, None, StorageClass::Workgroup, None);
        e.xch = Some((xch, bal));
    }
    if m.lds_bytes > 0 {
        let words = m.lds_bytes.div_ceil(4);
        let n = e.b.constant_bit32(u32t, words);
        let arr = e.b.type_array(u32t, n);
        let ptr = e.b.type_pointer(None, StorageClass::Workgroup, arr);
        let v = e.b.variable(ptr, None, StorageClass::Workgroup, None);
        e.lds = Some((v, words * 4));
    }
    // Storage buffers: struct { uint data[]; } at set 0.
    if !m.buffers.is_empty() {
        let rta = e.b.type_runtime_array(u32t);
        e.b.decorate(rta, Decoration::ArrayStride, [SpvOperand::LiteralBit32(4)]);
        let st = e.b.type_struct([rta]);
        e.b.decorate(st, Decoration::Block, []);
        e.b.member_decorate(st, 0, Decoration::Offset, [SpvOperand::LiteralBit32(0)]);
        let ptr = e.b.type_pointer(None, StorageClass::StorageBuffer, st);
        for buf in &m.buffers {
            let v = e.b.variable(ptr, None, StorageClass::StorageBuffer, None);
            e.b.decorate(v, Decoration::DescriptorSet, [SpvOperand::LiteralBit32(0)]);
            e.b.decorate(
                v,
                Decoration::Binding,
                [SpvOperand::LiteralBit32(buf.binding)],
            );
            e.buffers.push(v);
        }
    }
    if m.push_bytes > 0 {
        let n = e.b.constant_bit32(u32t, m.push_bytes / 4);
        let arr = e.b.type_array(u32t, n);
        e.b.decorate(arr, Decoration::ArrayStride, [SpvOperand::LiteralBit32(4)]);
        let st = e.b.type_struct([arr]);
        e.b.decorate(st, Decoration::Block, []);
        e.b.member_decorate(st, 0, Decoration::Offset, [SpvOperand::LiteralBit32(0)]);
        let ptr = e.b.type_pointer(None, StorageClass::PushConstant, st);
        e.push = Some(e.b.variable(ptr, None, StorageClass::PushConstant, None));
    }
    for (name, bi, vec) in [
        ("wg", BuiltIn::WorkgroupId, true),
        ("local", BuiltIn::LocalInvocationId, true),
        ("num", BuiltIn::NumWorkgroups, true),
        ("lane", BuiltIn::SubgroupLocalInvocationId, false),
        ("index", BuiltIn::LocalInvocationIndex, false),
    ] {
        let ty = if vec { uvec3 } else { u32t };
        let ptr = e.b.type_pointer(None, StorageClass::Input, ty);
        let v = e.b.variable(ptr, None, StorageClass::Input, None);
        e.b.decorate(v, Decoration::BuiltIn, [SpvOperand::BuiltIn(bi)]);
        e.builtins.insert(name, v);
        e.interface.push(v);
    }
    let fty = e.b.type_function(void, []);
    let main =
        e.b.begin_function(void, None, FunctionControl::NONE, fty)
            .map_err(spv_err)?;
    e.b.begin_block(None).map_err(spv_err)?;
    e.open = true;
    let mut regs = BTreeSet::new();
    collect_regs(&m.body, &mut regs);
    let zero = e.b.constant_bit32(u32t, 0);
    e.atom_tmp =
        e.b.variable(e.t.ptr_fn_u32, None, StorageClass::Function, Some(zero));
    for r in regs {
        let v =
            e.b.variable(e.t.ptr_fn_u32, None, StorageClass::Function, Some(zero));
        e.regs.insert(r, v);
    }
    e.nodes(&m.body)?;
    if e.open {
        e.b.ret().map_err(spv_err)?;
    }
    e.b.end_function().map_err(spv_err)?;
    let iface = e.interface.clone();
    e.b.entry_point(ExecutionModel::GLCompute, main, "main", iface);
    // On the workgroup mapping the host workgroup is one guest wave.
    let [x, y, z] = match m.mapping {
        crate::Mapping::Subgroup => input.workgroup,
        crate::Mapping::Workgroup => [m.wave_lanes, 1, 1],
    };
    e.b.execution_mode(main, ExecutionMode::LocalSize, [x, y, z]);
    let _ = &e.builtins;
    Ok(e.b.module().assemble())
}

impl Emitter {
    fn nodes(&mut self, nodes: &[Node]) -> Result<()> {
        for n in nodes {
            if !self.open {
                // Unreachable code after a terminator still needs a block.
                self.b.begin_block(None).map_err(spv_err)?;
                self.open = true;
            }
            match n {
                Node::Code(b) => {
                    self.block(b)?;
                }
                Node::If {
                    cond_block,
                    then,
                    els,
                } => {
                    let vals = self.block(cond_block)?;
                    let c = vals
                        .iter()
                        .rev()
                        .find_map(|v| *v)
                        .ok_or_else(|| spv_err("if without a condition"))?;
                    let merge = self.b.id();
                    let then_l = self.b.id();
                    let else_l = if els.is_empty() { merge } else { self.b.id() };
                    self.b
                        .selection_merge(merge, SelectionControl::NONE)
                        .map_err(spv_err)?;
                    self.b
                        .branch_conditional(c, then_l, else_l, [])
                        .map_err(spv_err)?;
                    self.b.begin_block(Some(then_l)).map_err(spv_err)?;
                    self.open = true;
                    self.nodes(then)?;
                    self.close(merge)?;
                    if !els.is_empty() {
                        self.b.begin_block(Some(else_l)).map_err(spv_err)?;
                        self.open = true;
                        self.nodes(els)?;
                        self.close(merge)?;
                    }
                    self.b.begin_block(Some(merge)).map_err(spv_err)?;
                    self.open = true;
                }
                Node::Loop(body) => {
                    let header = self.b.id();
                    let body_l = self.b.id();
                    let cont = self.b.id();
                    let merge = self.b.id();
                    self.b.branch(header).map_err(spv_err)?;
                    self.b.begin_block(Some(header)).map_err(spv_err)?;
                    self.b
                        .loop_merge(merge, cont, LoopControl::NONE, [])
                        .map_err(spv_err)?;
                    self.b.branch(body_l).map_err(spv_err)?;
                    self.b.begin_block(Some(body_l)).map_err(spv_err)?;
                    self.open = true;
                    self.loops.push((merge, cont));
                    self.nodes(body)?;
                    self.loops.pop();
                    // Falling off the end of the body leaves the loop.
                    self.close(merge)?;
                    self.b.begin_block(Some(cont)).map_err(spv_err)?;
                    self.b.branch(header).map_err(spv_err)?;
                    self.b.begin_block(Some(merge)).map_err(spv_err)?;
                    self.open = true;
                }
                Node::Break | Node::Continue => {
                    let &(merge, cont) = self
                        .loops
                        .last()
                        .ok_or_else(|| spv_err("break outside a loop"))?;
                    let to = if matches!(n, Node::Break) {
                        merge
                    } else {
                        cont
                    };
                    self.b.branch(to).map_err(spv_err)?;
                    self.open = false;
                }
                Node::End => {
                    self.b.ret().map_err(spv_err)?;
                    self.open = false;
                }
            }
        }
        Ok(())
    }

    fn close(&mut self, to: Word) -> Result<()> {
        if self.open {
            self.b.branch(to).map_err(spv_err)?;
            self.open = false;
        }
        Ok(())
    }

    fn c(&mut self, v: u32) -> Word {
        self.b.constant_bit32(self.t.u32, v)
    }

    fn as_f(&mut self, v: Word) -> Result<Word> {
        self.b.bitcast(self.t.f32, None, v).map_err(spv_err)
    }

    fn as_u(&mut self, v: Word) -> Result<Word> {
        self.b.bitcast(self.t.u32, None, v).map_err(spv_err)
    }

    fn glsl(&mut self, ty: Word, inst: u32, args: &[Word]) -> Result<Word> {
        let ops: Vec<_> = args.iter().map(|&a| SpvOperand::IdRef(a)).collect();
        self.b
            .ext_inst(ty, None, self.glsl, inst, ops)
            .map_err(spv_err)
    }

    fn fglsl(&mut self, inst: u32, args: &[Word]) -> Result<Word> {
        let mut fs = Vec::new();
        for &a in args {
            fs.push(self.as_f(a)?);
        }
        let r = self.glsl(self.t.f32, inst, &fs)?;
        self.as_u(r)
    }

    fn builtin(&mut self, name: &'static str, comp: Option<u32>) -> Result<Word> {
        let var = self.builtins[name];
        match comp {
            Some(c) => {
                let idx = self.c(c);
                let p = self
                    .b
                    .access_chain(self.t.ptr_in_u32, None, var, [idx])
                    .map_err(spv_err)?;
                self.b.load(self.t.u32, None, p, None, []).map_err(spv_err)
            }
            None => self
                .b
                .load(self.t.u32, None, var, None, [])
                .map_err(spv_err),
        }
    }

    /// Emits a block; returns the SPIR-V id of each value (None for void or removed).
    fn block(&mut self, blk: &Block) -> Result<Vec<Option<Word>>> {
        // Memoized ballots are only reused within one block (between two ballots of
        // the same condition nothing can change it).
        self.ballots.clear();
        let mut ids: Vec<Option<Word>> = Vec::with_capacity(blk.ops.len());
        for (k, op) in blk.ops.iter().enumerate() {
            let g = |v: Val| ids[v.0 as usize].expect("value defined before use");
            let t = &self.t;
            let (u, f, bo) = (t.u32, t.f32, t.bool);
            let id = match *op {
                Op::Nop => None,
                Op::Const(c) => Some(self.c(c)),
                Op::ConstBool(true) => Some(self.b.constant_true(bo)),
                Op::ConstBool(false) => Some(self.b.constant_false(bo)),
                Op::Get(r) => Some(
                    self.b
                        .load(u, None, self.regs[&r], None, [])
                        .map_err(spv_err)?,
                ),
                Op::Set(r, v) => {
                    self.b
                        .store(self.regs[&r], g(v), None, [])
                        .map_err(spv_err)?;
                    None
                }
                Op::Pack64(lo, hi) => {
                    let (u64t, _, uv2) = self.t64();
                    let v = self
                        .b
                        .composite_construct(uv2, None, [g(lo), g(hi)])
                        .map_err(spv_err)?;
                    Some(self.b.bitcast(u64t, None, v).map_err(spv_err)?)
                }
                Op::Half(v, h) => {
                    let (_, _, uv2) = self.t64();
                    let p = self.b.bitcast(uv2, None, g(v)).map_err(spv_err)?;
                    Some(
                        self.b
                            .composite_extract(u, None, p, [h as u32])
                            .map_err(spv_err)?,
                    )
                }
                Op::Un(op, x) if blk.types[x.0 as usize] == Ty::U64 || is_to64(op) => {
                    Some(self.un64(op, g(x))?)
                }
                Op::Bin(op, x, y) if blk.types[x.0 as usize] == Ty::U64 => {
                    Some(self.bin64(op, g(x), g(y))?)
                }
                Op::Tri(TriOp::FFma, x, y, z) if blk.types[x.0 as usize] == Ty::U64 => {
                    Some(self.f64op(|e, f, a| e.glsl(f, GLSL_FMA, a), &[g(x), g(y), g(z)])?)
                }
                Op::Cmp(op, x, y) if blk.types[x.0 as usize] == Ty::U64 => {
                    Some(self.cmp64(op, g(x), g(y))?)
                }
                Op::Un(op, x) => Some(self.un(op, g(x))?),
                Op::Bin(op, x, y) => Some(self.bin(op, g(x), g(y))?),
                Op::Tri(op, x, y, z) => Some(self.tri(op, g(x), g(y), g(z))?),
                Op::Cmp(op, x, y) => {
                    let is_bool = blk.types[x.0 as usize] == Ty::Bool;
                    Some(self.cmp(op, g(x), g(y), is_bool)?)
                }
                Op::Select(c, x, y) => {
                    let ty = match blk.types[x.0 as usize] {
                        Ty::Bool => bo,
                        Ty::U64 => self.t64().0,
                        _ => u,
                    };
                    Some(self.b.select(ty, None, g(c), g(x), g(y)).map_err(spv_err)?)
                }
                Op::LogicNot(x) => Some(self.b.logical_not(bo, None, g(x)).map_err(spv_err)?),
                Op::Builtin(bi) => Some(match bi {
                    Builtin::WorkgroupId(a) => self.builtin("wg", Some(a as u32))?,
                    Builtin::LocalId(a) => self.builtin("local", Some(a as u32))?,
                    Builtin::NumWorkgroups(a) => self.builtin("num", Some(a as u32))?,
                    Builtin::Lane if self.xch.is_some() => self.builtin("index", None)?,
                    Builtin::Lane => self.builtin("lane", None)?,
                }),
                Op::Push(n) => {
                    let pv = self.push.ok_or_else(|| spv_err("no push block"))?;
                    let z = self.c(0);
                    let i = self.c(n);
                    let p = self
                        .b
                        .access_chain(self.t.ptr_pc_u32, None, pv, [z, i])
                        .map_err(spv_err)?;
                    Some(self.b.load(u, None, p, None, []).map_err(spv_err)?)
                }
                Op::Shuffle(v, lane) => Some(self.shuffle(g(v), g(lane))?),
                Op::Ballot(x, half) if self.xch.is_some() => {
                    let (lo, hi) = self.wg_ballot(g(x))?;
                    Some(if half == 0 { lo } else { hi })
                }
                Op::Ballot(x, half) => {
                    let scope = self.c(Scope::Subgroup as u32);
                    let bal = self
                        .b
                        .group_non_uniform_ballot(self.t.uvec4, None, scope, g(x))
                        .map_err(spv_err)?;
                    Some(
                        self.b
                            .composite_extract(u, None, bal, [half as u32])
                            .map_err(spv_err)?,
                    )
                }
                Op::Load {
                    binding,
                    offset,
                    num_records,
                } => {
                    let (inr, idx) = self.range(g(offset), num_records)?;
                    let z = self.c(0);
                    let safe = self.b.select(u, None, inr, idx, z).map_err(spv_err)?;
                    let p = self
                        .b
                        .access_chain(
                            self.t.ptr_sb_u32,
                            None,
                            self.buffers[binding as usize],
                            [z, safe],
                        )
                        .map_err(spv_err)?;
                    let v = self.b.load(u, None, p, None, []).map_err(spv_err)?;
                    Some(self.b.select(u, None, inr, v, z).map_err(spv_err)?)
                }
                Op::LdsLoad(offset) => {
                    let (lds, size) = self.lds.ok_or_else(|| spv_err("LDS access without LDS"))?;
                    let (inr, idx) = self.range(g(offset), size)?;
                    let z = self.c(0);
                    let safe = self.b.select(u, None, inr, idx, z).map_err(spv_err)?;
                    let p = self
                        .b
                        .access_chain(self.t.ptr_wg_u32, None, lds, [safe])
                        .map_err(spv_err)?;
                    let v = self.b.load(u, None, p, None, []).map_err(spv_err)?;
                    Some(self.b.select(u, None, inr, v, z).map_err(spv_err)?)
                }
                Op::LdsStore {
                    offset,
                    value,
                    guard,
                } => {
                    let (lds, size) = self.lds.ok_or_else(|| spv_err("LDS access without LDS"))?;
                    let (inr, idx) = self.range(g(offset), size)?;
                    let c = self
                        .b
                        .logical_and(bo, None, inr, g(guard))
                        .map_err(spv_err)?;
                    let val = g(value);
                    self.guarded(c, |e| {
                        let p =
                            e.b.access_chain(e.t.ptr_wg_u32, None, lds, [idx])
                                .map_err(spv_err)?;
                        e.b.store(p, val, None, []).map_err(spv_err)
                    })?;
                    None
                }
                Op::Atomic {
                    space,
                    op,
                    offset,
                    value,
                    guard,
                } => Some(self.atomic(space, op, g(offset), g(value), g(guard))?),
                Op::Barrier => {
                    let wg = self.c(Scope::Workgroup as u32);
                    // AcquireRelease | UniformMemory | WorkgroupMemory.
                    let sem = self.c(0x8 | 0x40 | 0x100);
                    self.b.control_barrier(wg, wg, sem).map_err(spv_err)?;
                    None
                }
                Op::Store {
                    binding,
                    offset,
                    value,
                    guard,
                    num_records,
                } => {
                    let (inr, idx) = self.range(g(offset), num_records)?;
                    let c = self
                        .b
                        .logical_and(bo, None, inr, g(guard))
                        .map_err(spv_err)?;
                    let then_l = self.b.id();
                    let merge = self.b.id();
                    self.b
                        .selection_merge(merge, SelectionControl::NONE)
                        .map_err(spv_err)?;
                    self.b
                        .branch_conditional(c, then_l, merge, [])
                        .map_err(spv_err)?;
                    self.b.begin_block(Some(then_l)).map_err(spv_err)?;
                    let z = self.c(0);
                    let p = self
                        .b
                        .access_chain(
                            self.t.ptr_sb_u32,
                            None,
                            self.buffers[binding as usize],
                            [z, idx],
                        )
                        .map_err(spv_err)?;
                    self.b.store(p, g(value), None, []).map_err(spv_err)?;
                    self.b.branch(merge).map_err(spv_err)?;
                    self.b.begin_block(Some(merge)).map_err(spv_err)?;
                    None
                }
            };
            let _ = (f, k);
            ids.push(id);
        }
        Ok(ids)
    }

    /// The 64-bit types, declaring Int64 and Float64 on first use.
    fn t64(&mut self) -> (Word, Word, Word) {
        if let Some(t) = self.t64 {
            return t;
        }
        self.b.capability(Capability::Int64);
        self.b.capability(Capability::Float64);
        let u64t = self.b.type_int(64, 0);
        let f64t = self.b.type_float(64, None);
        let uv2 = self.b.type_vector(self.t.u32, 2);
        self.t64 = Some((u64t, f64t, uv2));
        (u64t, f64t, uv2)
    }

    /// Applies an f64 operation to 64-bit words (bitcasts around it).
    fn f64op(
        &mut self,
        k: impl FnOnce(&mut Emitter, Word, &[Word]) -> Result<Word>,
        args: &[Word],
    ) -> Result<Word> {
        let (u64t, f64t, _) = self.t64();
        let mut fs = Vec::new();
        for &a in args {
            fs.push(self.b.bitcast(f64t, None, a).map_err(spv_err)?);
        }
        let r = k(self, f64t, &fs)?;
        self.b.bitcast(u64t, None, r).map_err(spv_err)
    }

    fn un64(&mut self, op: UnOp, x: Word) -> Result<Word> {
        let (u64t, f64t, _) = self.t64();
        let (u, f) = (self.t.u32, self.t.f32);
        Ok(match op {
            UnOp::F64FromF32 => {
                let xf = self.as_f(x)?;
                let d = self.b.f_convert(f64t, None, xf).map_err(spv_err)?;
                self.b.bitcast(u64t, None, d).map_err(spv_err)?
            }
            UnOp::F64FromI32 | UnOp::F64FromU32 => {
                let d = if op == UnOp::F64FromI32 {
                    self.b.convert_s_to_f(f64t, None, x)
                } else {
                    self.b.convert_u_to_f(f64t, None, x)
                }
                .map_err(spv_err)?;
                self.b.bitcast(u64t, None, d).map_err(spv_err)?
            }
            UnOp::F32FromF64 => {
                let d = self.b.bitcast(f64t, None, x).map_err(spv_err)?;
                let r = self.b.f_convert(f, None, d).map_err(spv_err)?;
                self.as_u(r)?
            }
            UnOp::I32FromF64 | UnOp::U32FromF64 => {
                let d = self.b.bitcast(f64t, None, x).map_err(spv_err)?;
                self.cvt_float_to_int(d, f64t, op == UnOp::I32FromF64)?
            }
            UnOp::FSqrt => self.f64op(|e, t, a| e.glsl(t, GLSL_SQRT, a), &[x])?,
            UnOp::FRsq => self.f64op(|e, t, a| e.glsl(t, GLSL_INVERSE_SQRT, a), &[x])?,
            UnOp::FFloor => self.f64op(|e, t, a| e.glsl(t, GLSL_FLOOR, a), &[x])?,
            UnOp::FCeil => self.f64op(|e, t, a| e.glsl(t, GLSL_CEIL, a), &[x])?,
            UnOp::FTrunc => self.f64op(|e, t, a| e.glsl(t, GLSL_TRUNC, a), &[x])?,
            UnOp::FRoundEven => self.f64op(|e, t, a| e.glsl(t, GLSL_ROUND_EVEN, a), &[x])?,
            UnOp::FFract => self.f64op(|e, t, a| e.glsl(t, GLSL_FRACT, a), &[x])?,
            UnOp::FRcp => self.f64op(
                |e, t, a| {
                    let one = e.b.constant_bit64(t, 1.0f64.to_bits());
                    e.b.f_div(t, None, one, a[0]).map_err(spv_err)
                },
                &[x],
            )?,
            UnOp::FClamp01 => self.f64op(
                |e, t, a| {
                    let z = e.b.constant_bit64(t, 0);
                    let one = e.b.constant_bit64(t, 1.0f64.to_bits());
                    let lo = e.glsl(t, GLSL_NMAX, &[a[0], z])?;
                    e.glsl(t, GLSL_NMIN, &[lo, one])
                },
                &[x],
            )?,
            _ => {
                let _ = u;
                return Err(spv_err(format!("64-bit {op:?} is not emitted")));
            }
        })
    }

    fn bin64(&mut self, op: BinOp, x: Word, y: Word) -> Result<Word> {
        let (u64t, _, _) = self.t64();
        let b2 = |e: &mut Emitter, k: fn(&mut Builder, Word, Word, Word) -> Result<Word>| {
            e.f64op(|e, t, a| k(&mut e.b, t, a[0], a[1]), &[x, y])
        };
        Ok(match op {
            BinOp::FAdd => b2(self, |b, t, p, q| b.f_add(t, None, p, q).map_err(spv_err))?,
            BinOp::FSub => b2(self, |b, t, p, q| b.f_sub(t, None, p, q).map_err(spv_err))?,
            BinOp::FMul => b2(self, |b, t, p, q| b.f_mul(t, None, p, q).map_err(spv_err))?,
            BinOp::FMin => self.f64op(|e, t, a| e.glsl(t, GLSL_NMIN, a), &[x, y])?,
            BinOp::FMax => self.f64op(|e, t, a| e.glsl(t, GLSL_NMAX, a), &[x, y])?,
            BinOp::Add => self.b.i_add(u64t, None, x, y).map_err(spv_err)?,
            BinOp::Sub => self.b.i_sub(u64t, None, x, y).map_err(spv_err)?,
            _ => return Err(spv_err(format!("64-bit {op:?} is not emitted"))),
        })
    }

    fn cmp64(&mut self, op: CmpOp, x: Word, y: Word) -> Result<Word> {
        let (_, f64t, _) = self.t64();
        let bo = self.t.bool;
        let is_int = matches!(
            op,
            CmpOp::Eq
                | CmpOp::Ne
                | CmpOp::LtU
                | CmpOp::LeU
                | CmpOp::GtU
                | CmpOp::GeU
                | CmpOp::LtI
                | CmpOp::LeI
                | CmpOp::GtI
                | CmpOp::GeI
        );
        if is_int {
            return self.cmp(op, x, y, false);
        }
        let a = self.b.bitcast(f64t, None, x).map_err(spv_err)?;
        let c = self.b.bitcast(f64t, None, y).map_err(spv_err)?;
        self.fcmp(op, a, c, bo)
    }

    fn wg_barrier(&mut self) -> Result<()> {
        let wg = self.c(Scope::Workgroup as u32);
        let sem = self.c(0x8 | 0x100);
        self.b.control_barrier(wg, wg, sem).map_err(spv_err)
    }

    fn lane_index(&mut self) -> Result<Word> {
        self.builtin("index", None)
    }

    /// A wave ballot in workgroup memory: clear, barrier, OR in each lane's bit,
    /// barrier, read both words.
    fn wg_ballot(&mut self, cond: Word) -> Result<(Word, Word)> {
        if let Some(&r) = self.ballots.get(&cond) {
            return Ok(r);
        }
        let (u, bo) = (self.t.u32, self.t.bool);
        let (_, bal) = self.xch.ok_or_else(|| spv_err("no exchange arrays"))?;
        let lane = self.lane_index()?;
        let z = self.c(0);
        let one = self.c(1);
        self.wg_barrier()?;
        let first = self.b.i_equal(bo, None, lane, z).map_err(spv_err)?;
        self.guarded(first, |e| {
            for k in [0, 1] {
                let kk = e.c(k);
                let p =
                    e.b.access_chain(e.t.ptr_wg_u32, None, bal, [kk])
                        .map_err(spv_err)?;
                e.b.store(p, z, None, []).map_err(spv_err)?;
            }
            Ok(())
        })?;
        self.wg_barrier()?;
        self.guarded(cond, |e| {
            let five = e.c(5);
            let m31 = e.c(31);
            let w =
                e.b.shift_right_logical(u, None, lane, five)
                    .map_err(spv_err)?;
            let bit = e.b.bitwise_and(u, None, lane, m31).map_err(spv_err)?;
            let mask = e.b.shift_left_logical(u, None, one, bit).map_err(spv_err)?;
            let p =
                e.b.access_chain(e.t.ptr_wg_u32, None, bal, [w])
                    .map_err(spv_err)?;
            let sc = e.c(Scope::Workgroup as u32);
            let sem = e.c(0);
            e.b.atomic_or(u, None, p, sc, sem, mask).map_err(spv_err)?;
            Ok(())
        })?;
        self.wg_barrier()?;
        let mut out = [0; 2];
        for (k, o) in out.iter_mut().enumerate() {
            let kk = self.c(k as u32);
            let p = self
                .b
                .access_chain(self.t.ptr_wg_u32, None, bal, [kk])
                .map_err(spv_err)?;
            *o = self.b.load(u, None, p, None, []).map_err(spv_err)?;
        }
        let r = (out[0], out[1]);
        self.ballots.insert(cond, r);
        Ok(r)
    }

    /// `v` at lane `src` of the wave, through the exchange array.
    fn shuffle(&mut self, v: Word, src: Word) -> Result<Word> {
        let u = self.t.u32;
        let (xch, _) = self
            .xch
            .ok_or_else(|| spv_err("cross-lane read without exchange"))?;
        let lane = self.lane_index()?;
        // The barrier before the write also orders it after the previous exchange's reads.
        self.wg_barrier()?;
        let p = self
            .b
            .access_chain(self.t.ptr_wg_u32, None, xch, [lane])
            .map_err(spv_err)?;
        self.b.store(p, v, None, []).map_err(spv_err)?;
        self.wg_barrier()?;
        let m = self.c(self.wave_lanes - 1);
        let s = self.b.bitwise_and(u, None, src, m).map_err(spv_err)?;
        let q = self
            .b
            .access_chain(self.t.ptr_wg_u32, None, xch, [s])
            .map_err(spv_err)?;
        self.b.load(u, None, q, None, []).map_err(spv_err)
    }

    /// Runs `f` in a selection construct taken when `c` holds.
    fn guarded(&mut self, c: Word, f: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let then_l = self.b.id();
        let merge = self.b.id();
        self.b
            .selection_merge(merge, SelectionControl::NONE)
            .map_err(spv_err)?;
        self.b
            .branch_conditional(c, then_l, merge, [])
            .map_err(spv_err)?;
        self.b.begin_block(Some(then_l)).map_err(spv_err)?;
        f(self)?;
        self.b.branch(merge).map_err(spv_err)?;
        self.b.begin_block(Some(merge)).map_err(spv_err)?;
        Ok(())
    }

    fn atomic(
        &mut self,
        space: Space,
        op: AtomicOp,
        off: Word,
        val: Word,
        guard: Word,
    ) -> Result<Word> {
        let (u, bo) = (self.t.u32, self.t.bool);
        let (base, size, ptr_ty, scope) = match space {
            Space::Buffer {
                binding,
                num_records,
            } => (
                self.buffers[binding as usize],
                num_records,
                self.t.ptr_sb_u32,
                Scope::Device,
            ),
            Space::Lds => {
                let (v, size) = self.lds.ok_or_else(|| spv_err("LDS atomic without LDS"))?;
                (v, size, self.t.ptr_wg_u32, Scope::Workgroup)
            }
        };
        let (inr, idx) = self.range(off, size)?;
        let c = self.b.logical_and(bo, None, inr, guard).map_err(spv_err)?;
        let z = self.c(0);
        let tmp = self.atom_tmp;
        self.b.store(tmp, z, None, []).map_err(spv_err)?;
        let is_buf = matches!(space, Space::Buffer { .. });
        self.guarded(c, |e| {
            let p = if is_buf {
                e.b.access_chain(ptr_ty, None, base, [z, idx])
            } else {
                e.b.access_chain(ptr_ty, None, base, [idx])
            }
            .map_err(spv_err)?;
            let sc = e.c(scope as u32);
            let sem = e.c(0);
            let b = &mut e.b;
            let old = match op {
                AtomicOp::Add => b.atomic_i_add(u, None, p, sc, sem, val),
                AtomicOp::Sub => b.atomic_i_sub(u, None, p, sc, sem, val),
                AtomicOp::MinI => b.atomic_s_min(u, None, p, sc, sem, val),
                AtomicOp::MinU => b.atomic_u_min(u, None, p, sc, sem, val),
                AtomicOp::MaxI => b.atomic_s_max(u, None, p, sc, sem, val),
                AtomicOp::MaxU => b.atomic_u_max(u, None, p, sc, sem, val),
                AtomicOp::And => b.atomic_and(u, None, p, sc, sem, val),
                AtomicOp::Or => b.atomic_or(u, None, p, sc, sem, val),
                AtomicOp::Xor => b.atomic_xor(u, None, p, sc, sem, val),
                AtomicOp::Swap => b.atomic_exchange(u, None, p, sc, sem, val),
            }
            .map_err(spv_err)?;
            e.b.store(tmp, old, None, []).map_err(spv_err)
        })?;
        self.b.load(u, None, tmp, None, []).map_err(spv_err)
    }

    /// (offset + 4 <= num_records, offset / 4).
    fn range(&mut self, off: Word, num_records: u32) -> Result<(Word, Word)> {
        let (u, bo) = (self.t.u32, self.t.bool);
        let inr = if num_records < 4 {
            self.b.constant_false(bo)
        } else {
            let lim = self.c(num_records - 4);
            self.b
                .u_less_than_equal(bo, None, off, lim)
                .map_err(spv_err)?
        };
        let two = self.c(2);
        let idx = self
            .b
            .shift_right_logical(u, None, off, two)
            .map_err(spv_err)?;
        Ok((inr, idx))
    }

    fn un(&mut self, op: UnOp, x: Word) -> Result<Word> {
        let (u, f) = (self.t.u32, self.t.f32);
        let b = &mut self.b;
        Ok(match op {
            UnOp::Not => b.not(u, None, x).map_err(spv_err)?,
            UnOp::Neg => b.s_negate(u, None, x).map_err(spv_err)?,
            UnOp::BitReverse => b.bit_reverse(u, None, x).map_err(spv_err)?,
            UnOp::BitCount => b.bit_count(u, None, x).map_err(spv_err)?,
            UnOp::FindLsb => self.glsl(u, GLSL_FIND_ILSB, &[x])?,
            UnOp::FindMsbU => self.glsl(u, GLSL_FIND_UMSB, &[x])?,
            UnOp::FindMsbS => self.glsl(u, GLSL_FIND_SMSB, &[x])?,
            UnOp::FNeg => {
                let m = self.c(0x8000_0000);
                self.b.bitwise_xor(u, None, x, m).map_err(spv_err)?
            }
            UnOp::FAbs => {
                let m = self.c(0x7fff_ffff);
                self.b.bitwise_and(u, None, x, m).map_err(spv_err)?
            }
            UnOp::F32FromU32 => {
                let r = b.convert_u_to_f(f, None, x).map_err(spv_err)?;
                self.as_u(r)?
            }
            UnOp::F32FromI32 => {
                let r = b.convert_s_to_f(f, None, x).map_err(spv_err)?;
                self.as_u(r)?
            }
            UnOp::U32FromF32 | UnOp::I32FromF32 => self.cvt_f_to_int(x, op == UnOp::I32FromF32)?,
            UnOp::FRcp => {
                let one = self.b.constant_bit32(f, 1.0f32.to_bits());
                let xf = self.as_f(x)?;
                let r = self.b.f_div(f, None, one, xf).map_err(spv_err)?;
                self.as_u(r)?
            }
            UnOp::FSqrt => self.fglsl(GLSL_SQRT, &[x])?,
            UnOp::FRsq => self.fglsl(GLSL_INVERSE_SQRT, &[x])?,
            UnOp::FExp2 => self.fglsl(GLSL_EXP2, &[x])?,
            UnOp::FLog2 => self.fglsl(GLSL_LOG2, &[x])?,
            UnOp::FSinRev | UnOp::FCosRev => {
                // The hardware takes the angle in revolutions.
                let tau = self.b.constant_bit32(f, std::f32::consts::TAU.to_bits());
                let xf = self.as_f(x)?;
                let a = self.b.f_mul(f, None, xf, tau).map_err(spv_err)?;
                let inst = if op == UnOp::FSinRev {
                    GLSL_SIN
                } else {
                    GLSL_COS
                };
                let r = self.glsl(f, inst, &[a])?;
                self.as_u(r)?
            }
            UnOp::FFloor => self.fglsl(GLSL_FLOOR, &[x])?,
            UnOp::FCeil => self.fglsl(GLSL_CEIL, &[x])?,
            UnOp::FTrunc => self.fglsl(GLSL_TRUNC, &[x])?,
            UnOp::FRoundEven => self.fglsl(GLSL_ROUND_EVEN, &[x])?,
            UnOp::FFract => self.fglsl(GLSL_FRACT, &[x])?,
            UnOp::FClamp01 => {
                let z = self.c(0);
                let one = self.c(1.0f32.to_bits());
                let lo = self.fglsl(GLSL_NMAX, &[x, z])?;
                self.fglsl(GLSL_NMIN, &[lo, one])?
            }
            UnOp::F32FromF16 => {
                // f16 → f32 is exact; UnpackHalf2x16 needs no Float16 capability.
                let v2 = self.b.type_vector(f, 2);
                let p = self.glsl(v2, GLSL_UNPACK_HALF_2X16, &[x])?;
                let r = self.b.composite_extract(f, None, p, [0]).map_err(spv_err)?;
                self.as_u(r)?
            }
            UnOp::F16FromF32 => {
                let v2 = self.b.type_vector(f, 2);
                let xf = self.as_f(x)?;
                let z = self.b.constant_bit32(f, 0);
                let p = self
                    .b
                    .composite_construct(v2, None, [xf, z])
                    .map_err(spv_err)?;
                self.glsl(u, GLSL_PACK_HALF_2X16, &[p])?
            }
            UnOp::F64FromF32
            | UnOp::F32FromF64
            | UnOp::F64FromI32
            | UnOp::F64FromU32
            | UnOp::I32FromF64
            | UnOp::U32FromF64 => {
                return Err(spv_err(format!("{op:?} on a 32-bit value")));
            }
        })
    }

    /// Float → integer with the hardware's saturation: NaN gives 0, out-of-range values
    /// clamp (SPIR-V leaves both undefined).
    fn cvt_f_to_int(&mut self, x: Word, signed: bool) -> Result<Word> {
        let xf = self.as_f(x)?;
        let f = self.t.f32;
        self.cvt_float_to_int(xf, f, signed)
    }

    /// Float value `xf` of type `f` (f32 or f64) to a 32-bit integer, saturating.
    fn cvt_float_to_int(&mut self, xf: Word, f: Word, signed: bool) -> Result<Word> {
        let (u, bo) = (self.t.u32, self.t.bool);
        let wide = f != self.t.f32;
        let (lo, hi, lo_i, hi_i) = if signed {
            (
                -2147483648.0f64,
                2147483648.0f64,
                0x8000_0000u32,
                0x7fff_ffffu32,
            )
        } else {
            (0.0f64, 4294967296.0f64, 0, u32::MAX)
        };
        let konst = |e: &mut Emitter, v: f64| {
            if wide {
                e.b.constant_bit64(f, v.to_bits())
            } else {
                e.b.constant_bit32(f, (v as f32).to_bits())
            }
        };
        let lo_c = konst(self, lo);
        let hi_c = konst(self, hi);
        let nan = self.b.is_nan(bo, None, xf).map_err(spv_err)?;
        let below = self
            .b
            .f_ord_less_than(bo, None, xf, lo_c)
            .map_err(spv_err)?;
        let above = self
            .b
            .f_ord_greater_than_equal(bo, None, xf, hi_c)
            .map_err(spv_err)?;
        let out = self.b.logical_or(bo, None, below, above).map_err(spv_err)?;
        let out = self.b.logical_or(bo, None, out, nan).map_err(spv_err)?;
        let z = if wide {
            self.b.constant_bit64(f, 0)
        } else {
            self.b.constant_bit32(f, 0)
        };
        let safe = self.b.select(f, None, out, z, xf).map_err(spv_err)?;
        let conv = if signed {
            self.b.convert_f_to_s(u, None, safe).map_err(spv_err)?
        } else {
            self.b.convert_f_to_u(u, None, safe).map_err(spv_err)?
        };
        let lo_w = self.c(lo_i);
        let hi_w = self.c(hi_i);
        let zero = self.c(0);
        let r = self.b.select(u, None, below, lo_w, conv).map_err(spv_err)?;
        let r = self.b.select(u, None, above, hi_w, r).map_err(spv_err)?;
        self.b.select(u, None, nan, zero, r).map_err(spv_err)
    }

    fn bin(&mut self, op: BinOp, x: Word, y: Word) -> Result<Word> {
        let (u, f, bo) = (self.t.u32, self.t.f32, self.t.bool);
        let fop = |e: &mut Emitter,
                   k: fn(&mut Builder, Word, Word, Word) -> Result<Word>|
         -> Result<Word> {
            let a = e.as_f(x)?;
            let c = e.as_f(y)?;
            let r = k(&mut e.b, f, a, c)?;
            e.as_u(r)
        };
        let b = &mut self.b;
        Ok(match op {
            BinOp::Add => b.i_add(u, None, x, y).map_err(spv_err)?,
            BinOp::Sub => b.i_sub(u, None, x, y).map_err(spv_err)?,
            BinOp::Mul => b.i_mul(u, None, x, y).map_err(spv_err)?,
            BinOp::DivU => b.u_div(u, None, x, y).map_err(spv_err)?,
            BinOp::MulHiU | BinOp::MulHiI => {
                let r = if op == BinOp::MulHiU {
                    b.u_mul_extended(self.t.mul_ext, None, x, y)
                } else {
                    b.s_mul_extended(self.t.mul_ext, None, x, y)
                }
                .map_err(spv_err)?;
                b.composite_extract(u, None, r, [1]).map_err(spv_err)?
            }
            BinOp::And => b.bitwise_and(u, None, x, y).map_err(spv_err)?,
            BinOp::Or => b.bitwise_or(u, None, x, y).map_err(spv_err)?,
            BinOp::Xor => b.bitwise_xor(u, None, x, y).map_err(spv_err)?,
            BinOp::Shl | BinOp::ShrU | BinOp::ShrI => {
                // Shift counts are masked by the translator; mask again so the SPIR-V
                // shift is always defined.
                let m = self.c(31);
                let s = self.b.bitwise_and(u, None, y, m).map_err(spv_err)?;
                let b = &mut self.b;
                match op {
                    BinOp::Shl => b.shift_left_logical(u, None, x, s),
                    BinOp::ShrU => b.shift_right_logical(u, None, x, s),
                    _ => b.shift_right_arithmetic(u, None, x, s),
                }
                .map_err(spv_err)?
            }
            BinOp::MinU => self.glsl(u, GLSL_UMIN, &[x, y])?,
            BinOp::MaxU => self.glsl(u, GLSL_UMAX, &[x, y])?,
            BinOp::MinI => self.glsl(u, GLSL_SMIN, &[x, y])?,
            BinOp::MaxI => self.glsl(u, GLSL_SMAX, &[x, y])?,
            BinOp::FAdd => fop(self, |b, t, a, c| b.f_add(t, None, a, c).map_err(spv_err))?,
            BinOp::FSub => fop(self, |b, t, a, c| b.f_sub(t, None, a, c).map_err(spv_err))?,
            BinOp::FMul => fop(self, |b, t, a, c| b.f_mul(t, None, a, c).map_err(spv_err))?,
            BinOp::FMin => self.fglsl(GLSL_NMIN, &[x, y])?,
            BinOp::FMax => self.fglsl(GLSL_NMAX, &[x, y])?,
            BinOp::LogicAnd => b.logical_and(bo, None, x, y).map_err(spv_err)?,
            BinOp::LogicOr => b.logical_or(bo, None, x, y).map_err(spv_err)?,
        })
    }

    fn tri(&mut self, op: TriOp, x: Word, y: Word, z: Word) -> Result<Word> {
        let (u, bo) = (self.t.u32, self.t.bool);
        match op {
            TriOp::FFma => self.fglsl(GLSL_FMA, &[x, y, z]),
            TriOp::BfeU | TriOp::BfeI => {
                // (x >> off) keeping `w` bits, defined for every off and w (SPIR-V's
                // bitfield extract is not when off + w > 32).
                let c31 = self.c(31);
                let c32 = self.c(32);
                let zero = self.c(0);
                let off = self.b.bitwise_and(u, None, y, c31).map_err(spv_err)?;
                let sh = self
                    .b
                    .shift_right_logical(u, None, x, off)
                    .map_err(spv_err)?;
                let wide = self
                    .b
                    .u_greater_than_equal(bo, None, z, c32)
                    .map_err(spv_err)?;
                let w = self.b.select(u, None, wide, c32, z).map_err(spv_err)?;
                let is0 = self.b.i_equal(bo, None, w, zero).map_err(spv_err)?;
                let left = self.b.i_sub(u, None, c32, w).map_err(spv_err)?;
                let left = self.b.bitwise_and(u, None, left, c31).map_err(spv_err)?;
                let up = self
                    .b
                    .shift_left_logical(u, None, sh, left)
                    .map_err(spv_err)?;
                let down = if op == TriOp::BfeU {
                    self.b.shift_right_logical(u, None, up, left)
                } else {
                    self.b.shift_right_arithmetic(u, None, up, left)
                }
                .map_err(spv_err)?;
                self.b.select(u, None, is0, zero, down).map_err(spv_err)
            }
        }
    }

    fn cmp(&mut self, op: CmpOp, x: Word, y: Word, is_bool: bool) -> Result<Word> {
        let bo = self.t.bool;
        if is_bool {
            return match op {
                CmpOp::Eq => self.b.logical_equal(bo, None, x, y),
                _ => self.b.logical_not_equal(bo, None, x, y),
            }
            .map_err(spv_err);
        }
        let int = |e: &mut Emitter| -> Result<Word> {
            let b = &mut e.b;
            match op {
                CmpOp::Eq => b.i_equal(bo, None, x, y),
                CmpOp::Ne => b.i_not_equal(bo, None, x, y),
                CmpOp::LtU => b.u_less_than(bo, None, x, y),
                CmpOp::LeU => b.u_less_than_equal(bo, None, x, y),
                CmpOp::GtU => b.u_greater_than(bo, None, x, y),
                CmpOp::GeU => b.u_greater_than_equal(bo, None, x, y),
                CmpOp::LtI => b.s_less_than(bo, None, x, y),
                CmpOp::LeI => b.s_less_than_equal(bo, None, x, y),
                CmpOp::GtI => b.s_greater_than(bo, None, x, y),
                CmpOp::GeI => b.s_greater_than_equal(bo, None, x, y),
                _ => unreachable!("float compare"),
            }
            .map_err(spv_err)
        };
        if matches!(
            op,
            CmpOp::Eq
                | CmpOp::Ne
                | CmpOp::LtU
                | CmpOp::LeU
                | CmpOp::GtU
                | CmpOp::GeU
                | CmpOp::LtI
                | CmpOp::LeI
                | CmpOp::GtI
                | CmpOp::GeI
        ) {
            return int(self);
        }
        let a = self.as_f(x)?;
        let c = self.as_f(y)?;
        self.fcmp(op, a, c, bo)
    }

    /// A float comparison of two float values (either width).
    fn fcmp(&mut self, op: CmpOp, a: Word, c: Word, bo: Word) -> Result<Word> {
        let b = &mut self.b;
        match op {
            CmpOp::FOEq => b.f_ord_equal(bo, None, a, c),
            CmpOp::FOLt => b.f_ord_less_than(bo, None, a, c),
            CmpOp::FOLe => b.f_ord_less_than_equal(bo, None, a, c),
            CmpOp::FOGt => b.f_ord_greater_than(bo, None, a, c),
            CmpOp::FOGe => b.f_ord_greater_than_equal(bo, None, a, c),
            CmpOp::FONe => b.f_ord_not_equal(bo, None, a, c),
            CmpOp::FUEq => b.f_unord_equal(bo, None, a, c),
            CmpOp::FULt => b.f_unord_less_than(bo, None, a, c),
            CmpOp::FULe => b.f_unord_less_than_equal(bo, None, a, c),
            CmpOp::FUGt => b.f_unord_greater_than(bo, None, a, c),
            CmpOp::FUGe => b.f_unord_greater_than_equal(bo, None, a, c),
            CmpOp::FUNe => b.f_unord_not_equal(bo, None, a, c),
            CmpOp::FOrd | CmpOp::FUnord => {
                let na = b.is_nan(bo, None, a).map_err(spv_err)?;
                let nc = b.is_nan(bo, None, c).map_err(spv_err)?;
                let any = b.logical_or(bo, None, na, nc).map_err(spv_err)?;
                if op == CmpOp::FUnord {
                    return Ok(any);
                }
                b.logical_not(bo, None, any)
            }
            _ => unreachable!("integer compare"),
        }
        .map_err(spv_err)
    }
}
