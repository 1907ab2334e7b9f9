//! IR passes: register forwarding (identity removal), constant folding and dead-code
//! elimination, each within a block.
//!
//! Forwarding turns a `Get` of a register set earlier in the same block into the value
//! set, and removes `Set`s that a later `Set` of the same register in the block
//! overwrites before anything can read them. Folding evaluates integer operations and
//! comparisons of constants (float operations are left alone: their results depend on
//! the host's rounding and denormal modes, which the module declares, not this pass).
//! Dead-code elimination drops pure operations whose values are unused.

use std::collections::HashMap;

use crate::ir::{BinOp, Block, CmpOp, Module, Node, Op, Reg, Ty, UnOp, Val};

/// Runs every pass on every block of the module.
pub fn run_all(m: &mut Module) {
    for n in m.body.iter_mut() {
        visit(n);
    }
}

fn visit(n: &mut Node) {
    match n {
        Node::Code(b) => optimize(b),
        Node::If {
            cond_block,
            then,
            els,
        } => {
            // The condition is the block's last value; keep it alive.
            fold(cond_block);
            then.iter_mut().for_each(visit);
            els.iter_mut().for_each(visit);
        }
        Node::Loop(body) => body.iter_mut().for_each(visit),
        _ => {}
    }
}

/// Forwarding, folding and DCE on one block.
pub fn optimize(b: &mut Block) {
    forward(b);
    fold(b);
    dce(b);
}

fn forward(b: &mut Block) {
    let mut repl: Vec<Val> = (0..b.ops.len() as u32).map(Val).collect();
    let mut current: HashMap<Reg, Val> = HashMap::new();
    let mut last_set: HashMap<Reg, usize> = HashMap::new();
    for k in 0..b.ops.len() {
        b.ops[k].map_args(&mut |v| repl[v.0 as usize]);
        match b.ops[k] {
            Op::Get(r) => {
                if let Some(&v) = current.get(&r) {
                    repl[k] = v;
                    b.ops[k] = Op::Nop;
                } else {
                    current.insert(r, Val(k as u32));
                }
            }
            Op::Set(r, v) => {
                // Gets after a Set are forwarded, so an earlier Set is dead.
                if let Some(prev) = last_set.insert(r, k) {
                    b.ops[prev] = Op::Nop;
                }
                current.insert(r, v);
            }
            _ => {}
        }
    }
}

fn fold(b: &mut Block) {
    let mut repl: Vec<Val> = (0..b.ops.len() as u32).map(Val).collect();
    for k in 0..b.ops.len() {
        b.ops[k].map_args(&mut |v| repl[v.0 as usize]);
        let c = |v: Val| match b.ops[v.0 as usize] {
            Op::Const(x) => Some(x),
            _ => None,
        };
        let cb = |v: Val| match b.ops[v.0 as usize] {
            Op::ConstBool(x) => Some(x),
            _ => None,
        };
        let new = match b.ops[k] {
            Op::Bin(op, x, y) => match (c(x), c(y)) {
                (Some(x), Some(y)) => int_bin(op, x, y).map(Op::Const),
                _ => None,
            },
            Op::Un(op, x) => c(x).and_then(|x| int_un(op, x)).map(Op::Const),
            Op::Cmp(op, x, y) => match (c(x), c(y)) {
                (Some(x), Some(y)) => int_cmp(op, x, y).map(Op::ConstBool),
                _ => None,
            },
            Op::Select(s, x, y) => match cb(s) {
                Some(t) => {
                    repl[k] = if t { x } else { y };
                    Some(Op::Nop)
                }
                None if x == y => {
                    repl[k] = x;
                    Some(Op::Nop)
                }
                None => None,
            },
            _ => None,
        };
        if let Some(op) = new {
            b.ops[k] = op;
            b.types[k] = match b.ops[k] {
                Op::Nop => Ty::Void,
                Op::ConstBool(_) => Ty::Bool,
                _ => b.types[k],
            };
        }
    }
}

fn dce(b: &mut Block) {
    let mut used = vec![false; b.ops.len()];
    for k in (0..b.ops.len()).rev() {
        let keep = used[k] || !b.ops[k].is_pure();
        if !keep {
            if !matches!(b.ops[k], Op::Nop) {
                b.ops[k] = Op::Nop;
            }
            continue;
        }
        for a in b.ops[k].args() {
            used[a.0 as usize] = true;
        }
    }
}

fn int_bin(op: BinOp, x: u32, y: u32) -> Option<u32> {
    Some(match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::DivU if y != 0 => x / y,
        BinOp::MulHiU => ((x as u64 * y as u64) >> 32) as u32,
        BinOp::MulHiI => ((x as i32 as i64 * y as i32 as i64) >> 32) as u32,
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        BinOp::Shl if y < 32 => x << y,
        BinOp::ShrU if y < 32 => x >> y,
        BinOp::ShrI if y < 32 => ((x as i32) >> y) as u32,
        BinOp::MinU => x.min(y),
        BinOp::MaxU => x.max(y),
        BinOp::MinI => (x as i32).min(y as i32) as u32,
        BinOp::MaxI => (x as i32).max(y as i32) as u32,
        _ => return None,
    })
}

fn int_un(op: UnOp, x: u32) -> Option<u32> {
    Some(match op {
        UnOp::Not => !x,
        UnOp::Neg => x.wrapping_neg(),
        UnOp::BitReverse => x.reverse_bits(),
        UnOp::BitCount => x.count_ones(),
        UnOp::FNeg => x ^ 0x8000_0000,
        UnOp::FAbs => x & 0x7fff_ffff,
        _ => return None,
    })
}

fn int_cmp(op: CmpOp, x: u32, y: u32) -> Option<bool> {
    let (a, b) = (x as i32, y as i32);
    Some(match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::LtU => x < y,
        CmpOp::LeU => x <= y,
        CmpOp::GtU => x > y,
        CmpOp::GeU => x >= y,
        CmpOp::LtI => a < b,
        CmpOp::LeI => a <= b,
        CmpOp::GtI => a > b,
        CmpOp::GeI => a >= b,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Reg;

    #[test]
    fn forwards_folds_and_removes() {
        let mut b = Block::default();
        let two = b.push(Op::Const(2));
        b.push(Op::Set(Reg::S(0), two));
        let g = b.push(Op::Get(Reg::S(0)));
        let three = b.push(Op::Const(3));
        let s = b.push(Op::Bin(BinOp::Add, g, three));
        b.push(Op::Set(Reg::S(0), s));
        b.push(Op::Set(Reg::S(1), s));
        optimize(&mut b);
        let live: Vec<_> = b.ops.iter().filter(|o| **o != Op::Nop).collect();
        // Only the folded constant and the two surviving sets remain.
        assert_eq!(live.len(), 3, "{live:?}");
        assert!(live.contains(&&Op::Const(5)));
    }
}
