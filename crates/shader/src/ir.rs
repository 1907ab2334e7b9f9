//! The intermediate representation: structured control flow over straight-line blocks
//! whose operations read and write guest registers explicitly ([`Op::Get`], [`Op::Set`]).
//!
//! Values are 32-bit words (`U32`, floats are their bit patterns) or booleans. A value
//! is defined once inside its block, so blocks are in SSA form; registers carry values
//! between blocks. The SPIR-V backend keeps each register in a function variable, which
//! the driver's own SSA construction promotes.

/// A guest register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    /// A scalar register by its operand encoding: 0–105 SGPRs, 106/107 VCC, 124 M0,
    /// 126/127 EXEC.
    S(u16),
    /// A vector register.
    V(u16),
    /// The scalar condition code, as 0 or 1.
    Scc,
}

/// VCC low half.
pub const VCC_LO: u16 = 106;
/// M0.
pub const M0: u16 = 124;
/// EXEC low half.
pub const EXEC_LO: u16 = 126;

/// A value: index of its defining operation in the block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Val(pub u32);

/// The type of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A 32-bit word.
    U32,
    /// A boolean.
    Bool,
    /// A 64-bit word (a register pair; f64 values are their bit patterns).
    U64,
    /// No value (stores, register writes).
    Void,
}

/// Unary operations on words (float ones on f32 bit patterns).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum UnOp {
    Not,
    Neg,
    BitReverse,
    BitCount,
    FindLsb,
    FindMsbU,
    /// Index of the highest bit that differs from the sign bit (-1 if none).
    FindMsbS,
    F32FromU32,
    F32FromI32,
    U32FromF32,
    I32FromF32,
    FNeg,
    FAbs,
    FRcp,
    FSqrt,
    FRsq,
    FExp2,
    FLog2,
    FSinRev,
    FCosRev,
    FFloor,
    FCeil,
    FTrunc,
    FRoundEven,
    FFract,
    /// Saturate to [0, 1] (the clamp modifier).
    FClamp01,
    /// The f16 in the low 16 bits → f32.
    F32FromF16,
    /// f32 → f16 (round to nearest even) in the low 16 bits, high bits zero.
    F16FromF32,
    /// f32 → f64 (U32 → U64).
    F64FromF32,
    /// f64 → f32, rounding to nearest even (U64 → U32).
    F32FromF64,
    /// i32 → f64 (U32 → U64).
    F64FromI32,
    /// u32 → f64 (U32 → U64).
    F64FromU32,
    /// f64 → i32, saturating, NaN → 0 (U64 → U32).
    I32FromF64,
    /// f64 → u32, saturating, NaN → 0 (U64 → U32).
    U32FromF64,
}

/// Binary operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Unsigned division (the divisor is never zero where the translator uses it).
    DivU,
    MulHiU,
    MulHiI,
    And,
    Or,
    Xor,
    Shl,
    ShrU,
    ShrI,
    MinU,
    MaxU,
    MinI,
    MaxI,
    FAdd,
    FSub,
    FMul,
    FMin,
    FMax,
    /// Boolean and / or of two `Bool`s.
    LogicAnd,
    LogicOr,
}

/// Comparisons (produce `Bool`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum CmpOp {
    Eq,
    Ne,
    LtU,
    LeU,
    GtU,
    GeU,
    LtI,
    LeI,
    GtI,
    GeI,
    /// Ordered float comparisons (false when either is NaN).
    FOEq,
    FOLt,
    FOLe,
    FOGt,
    FOGe,
    FONe,
    /// Unordered float comparisons (true when either is NaN).
    FUEq,
    FULt,
    FULe,
    FUGt,
    FUGe,
    FUNe,
    /// Neither is NaN.
    FOrd,
    /// Either is NaN.
    FUnord,
}

/// Three-operand operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum TriOp {
    /// Fused multiply-add on f32.
    FFma,
    /// Unsigned bitfield extract (value, offset, width).
    BfeU,
    /// Signed bitfield extract.
    BfeI,
}

/// Built-in inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `WorkgroupId` component.
    WorkgroupId(u8),
    /// `LocalInvocationId` component.
    LocalId(u8),
    /// `NumWorkgroups` component.
    NumWorkgroups(u8),
    /// The guest lane: `SubgroupLocalInvocationId` on the fast path.
    Lane,
}

/// Read-modify-write operations of atomics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum AtomicOp {
    Add,
    Sub,
    MinI,
    MinU,
    MaxI,
    MaxU,
    And,
    Or,
    Xor,
    Swap,
}

/// Where an atomic or LDS access goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Space {
    /// A storage buffer binding, with its V# `num_records`.
    Buffer {
        /// Binding in set 0.
        binding: u32,
        /// Bytes in range.
        num_records: u32,
    },
    /// The workgroup's LDS.
    Lds,
}

/// One operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// Removed by a pass.
    Nop,
    /// A word constant.
    Const(u32),
    /// A 64-bit value from (low, high) words.
    Pack64(Val, Val),
    /// Word `half` (0 low, 1 high) of a 64-bit value.
    Half(Val, u8),
    /// A boolean constant.
    ConstBool(bool),
    /// Reads a register.
    Get(Reg),
    /// Writes a register.
    Set(Reg, Val),
    /// A unary operation.
    Un(UnOp, Val),
    /// A binary operation.
    Bin(BinOp, Val, Val),
    /// A three-operand operation.
    Tri(TriOp, Val, Val, Val),
    /// A comparison.
    Cmp(CmpOp, Val, Val),
    /// `cond ? a : b`; `a` and `b` have the same type.
    Select(Val, Val, Val),
    /// Boolean not.
    LogicNot(Val),
    /// A built-in input.
    Builtin(Builtin),
    /// Dword `n` of the push-constant block.
    Push(u32),
    /// Half `half` (0 low, 1 high) of the wave's ballot of a boolean.
    Ballot(Val, u8),
    /// The value of a word at another lane (`lane` is masked to the wave size); only
    /// with [`crate::Mapping::Workgroup`].
    Shuffle(Val, Val),
    /// A dword from a storage buffer at a byte offset; 0 when out of `num_records`.
    Load {
        /// Binding in set 0.
        binding: u32,
        /// Byte offset.
        offset: Val,
        /// V# `num_records` (bytes).
        num_records: u32,
    },
    /// A dword from LDS at a byte offset; 0 when outside the LDS allocation.
    LdsLoad(Val),
    /// A dword to LDS when `guard` holds and it is in range.
    LdsStore {
        /// Byte offset.
        offset: Val,
        /// The word.
        value: Val,
        /// Whether this lane stores.
        guard: Val,
    },
    /// An atomic read-modify-write when `guard` holds and it is in range; the value
    /// is the old word (0 when it did not run).
    Atomic {
        /// Buffer or LDS.
        space: Space,
        /// The operation.
        op: AtomicOp,
        /// Byte offset.
        offset: Val,
        /// The operand.
        value: Val,
        /// Whether this lane runs it.
        guard: Val,
    },
    /// A workgroup execution and memory barrier (`s_barrier`, and the ordering the
    /// guest's lockstep LDS accesses rely on).
    Barrier,
    /// A dword to a storage buffer, when `guard` holds and it is in range.
    Store {
        /// Binding in set 0.
        binding: u32,
        /// Byte offset.
        offset: Val,
        /// The word.
        value: Val,
        /// Whether this lane stores (its EXEC bit).
        guard: Val,
        /// V# `num_records` (bytes).
        num_records: u32,
    },
}

impl Op {
    /// The value type this operation defines.
    pub fn ty(&self, types: &[Ty]) -> Ty {
        match self {
            Op::Nop | Op::Set(..) | Op::Store { .. } | Op::LdsStore { .. } | Op::Barrier => {
                Ty::Void
            }
            Op::ConstBool(_) | Op::Cmp(..) | Op::LogicNot(_) => Ty::Bool,
            Op::Bin(BinOp::LogicAnd | BinOp::LogicOr, ..) => Ty::Bool,
            Op::Select(_, a, _) | Op::Bin(_, a, _) | Op::Tri(_, a, ..) => types[a.0 as usize],
            Op::Pack64(..) => Ty::U64,
            Op::Un(op, a) => match op {
                UnOp::F64FromF32 | UnOp::F64FromI32 | UnOp::F64FromU32 => Ty::U64,
                UnOp::F32FromF64 | UnOp::I32FromF64 | UnOp::U32FromF64 => Ty::U32,
                _ => types[a.0 as usize],
            },
            _ => Ty::U32,
        }
    }

    /// The values this operation reads.
    pub fn args(&self) -> Vec<Val> {
        match *self {
            Op::Set(_, v) | Op::Un(_, v) | Op::LogicNot(v) | Op::Ballot(v, _) | Op::Half(v, _) => {
                vec![v]
            }
            Op::Bin(_, a, b) | Op::Cmp(_, a, b) | Op::Shuffle(a, b) | Op::Pack64(a, b) => {
                vec![a, b]
            }
            Op::Tri(_, a, b, c) | Op::Select(a, b, c) => vec![a, b, c],
            Op::Load { offset, .. } | Op::LdsLoad(offset) => vec![offset],
            Op::LdsStore {
                offset,
                value,
                guard,
            }
            | Op::Atomic {
                offset,
                value,
                guard,
                ..
            } => vec![offset, value, guard],
            Op::Store {
                offset,
                value,
                guard,
                ..
            } => vec![offset, value, guard],
            _ => vec![],
        }
    }

    /// Rewrites the values this operation reads.
    pub fn map_args(&mut self, f: &mut dyn FnMut(Val) -> Val) {
        match self {
            Op::Set(_, v) | Op::Un(_, v) | Op::LogicNot(v) | Op::Ballot(v, _) | Op::Half(v, _) => {
                *v = f(*v)
            }
            Op::Bin(_, a, b) | Op::Cmp(_, a, b) | Op::Shuffle(a, b) | Op::Pack64(a, b) => {
                *a = f(*a);
                *b = f(*b);
            }
            Op::Tri(_, a, b, c) | Op::Select(a, b, c) => {
                *a = f(*a);
                *b = f(*b);
                *c = f(*c);
            }
            Op::Load { offset, .. } | Op::LdsLoad(offset) => *offset = f(*offset),
            Op::LdsStore {
                offset,
                value,
                guard,
            }
            | Op::Atomic {
                offset,
                value,
                guard,
                ..
            } => {
                *offset = f(*offset);
                *value = f(*value);
                *guard = f(*guard);
            }
            Op::Store {
                offset,
                value,
                guard,
                ..
            } => {
                *offset = f(*offset);
                *value = f(*value);
                *guard = f(*guard);
            }
            _ => {}
        }
    }

    /// True when removing it (if its value is unused) changes nothing.
    pub fn is_pure(&self) -> bool {
        !matches!(
            self,
            Op::Set(..)
                | Op::Store { .. }
                | Op::Ballot(..)
                | Op::Shuffle(..)
                | Op::LdsStore { .. }
                | Op::Atomic { .. }
                | Op::Barrier
        )
    }
}

/// A straight-line block.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Block {
    /// Operations; [`Val`] `n` is `ops[n]`.
    pub ops: Vec<Op>,
    /// Their types.
    pub types: Vec<Ty>,
}

impl Block {
    /// Appends an operation and returns its value.
    pub fn push(&mut self, op: Op) -> Val {
        let ty = op.ty(&self.types);
        self.ops.push(op);
        self.types.push(ty);
        Val(self.ops.len() as u32 - 1)
    }
}

/// Structured control flow over blocks.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// Straight-line code.
    Code(Block),
    /// `if (cond) then else els`; `cond` is the last value of `cond_block`.
    If {
        /// Computes the condition (a `Bool`, its last value).
        cond_block: Block,
        /// Runs when the condition holds.
        then: Vec<Node>,
        /// Runs otherwise.
        els: Vec<Node>,
    },
    /// A loop; falling off the end of the body leaves it.
    Loop(Vec<Node>),
    /// Leaves the innermost loop.
    Break,
    /// Next iteration of the innermost loop.
    Continue,
    /// Ends the invocation.
    End,
}

/// A translated shader.
#[derive(Debug, Clone, Default)]
pub struct Module {
    /// The body.
    pub body: Vec<Node>,
    /// Storage buffers, in binding order.
    pub buffers: Vec<crate::BufferBinding>,
    /// Push-constant bytes read.
    pub push_bytes: u32,
    /// Workgroup size.
    pub workgroup: [u32; 3],
    /// LDS bytes (a `Workgroup` array when non-zero).
    pub lds_bytes: u32,
    /// The lane mapping.
    pub mapping: crate::Mapping,
    /// Lanes per wave (32 or 64).
    pub wave_lanes: u32,
}
