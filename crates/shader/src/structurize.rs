//! Structurizer: turns the block list into nested ifs and loops.
//!
//! Compilers such as ACO lay code out in structured order, so the structurizer works on
//! address ranges: a forward conditional branch over a range is an `if` (with an `else`
//! when the range ends in a jump over a second range), a backward branch closes a
//! loop whose header is its target, and inside a loop a branch to the header is a
//! `continue` and a branch to the block after the loop is a `break`. Falling off the end
//! of a loop body leaves the loop. Anything else (irreducible flow, a branch into the
//! middle of another construct, breaks out of outer loops, indirect jumps) is an
//! [`Error::ControlFlow`] naming the branch, never a guess.

use crate::cfg::{BranchCond, Exit, Program};
use crate::{Error, Result};

/// A structured control-flow node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// The straight-line body of block `n` of [`Program::blocks`].
    Block(usize),
    /// Runs `then` when `cond` evaluates to `want`, else `els`.
    If {
        /// The branch condition.
        cond: BranchCond,
        /// The value of `cond` that runs `then`.
        want: bool,
        /// PC of the branch (for diagnostics).
        pc: u32,
        /// Taken when `cond == want`.
        then: Vec<Node>,
        /// Taken otherwise.
        els: Vec<Node>,
    },
    /// A loop; leaves when its body falls off the end or breaks.
    Loop {
        /// PC of the header.
        pc: u32,
        /// The body.
        body: Vec<Node>,
    },
    /// Leaves the innermost loop.
    Break,
    /// Starts the next iteration of the innermost loop.
    Continue,
    /// `s_endpgm`.
    End,
}

#[derive(Clone, Copy)]
struct LoopCtx {
    header: usize,
    exit: usize,
}

/// Structures a program, or says which branch it cannot place.
pub fn structurize(p: &Program) -> Result<Vec<Node>> {
    let n = p.blocks.len();
    let follow = u32::MAX;
    Region { p }.range(0, n, follow, None, false)
}

struct Region<'a> {
    p: &'a Program,
}

impl Region<'_> {
    fn idx(&self, pc: u32, at: u32) -> Result<usize> {
        self.p.block_at(pc).ok_or_else(|| Error::ControlFlow {
            pc: at,
            why: format!("branch target {pc:#x} is not a block start"),
        })
    }

    fn latch_of(&self, header: usize) -> Option<usize> {
        let hpc = self.p.blocks[header].start;
        (header..self.p.blocks.len())
            .filter(|&j| match self.p.blocks[j].exit {
                Exit::Jump(t) | Exit::Cond { target: t, .. } => t == hpc,
                _ => false,
            })
            .max()
    }

    fn range(
        &self,
        lo: usize,
        hi: usize,
        follow: u32,
        lp: Option<LoopCtx>,
        header_done: bool,
    ) -> Result<Vec<Node>> {
        let mut out = Vec::new();
        let mut i = lo;
        while i < hi {
            if !(header_done && i == lo) {
                if let Some(j) = self.latch_of(i) {
                    if j >= hi {
                        return Err(Error::ControlFlow {
                            pc: self.p.blocks[j].exit_pc,
                            why: "loop back edge leaves its enclosing construct".into(),
                        });
                    }
                    let exit_pc = self.p.blocks.get(j + 1).map_or(u32::MAX, |b| b.start);
                    let ctx = LoopCtx {
                        header: i,
                        exit: j + 1,
                    };
                    let body = self.range(i, j + 1, exit_pc, Some(ctx), true)?;
                    out.push(Node::Loop {
                        pc: self.p.blocks[i].start,
                        body,
                    });
                    i = j + 1;
                    continue;
                }
            }
            let b = &self.p.blocks[i];
            out.push(Node::Block(i));
            match b.exit {
                Exit::Fall => i += 1,
                Exit::End => {
                    out.push(Node::End);
                    // What follows is reachable only by branches that enclosing
                    // constructs have already placed.
                    return Ok(out);
                }
                Exit::Jump(t) => {
                    let tb = self.idx(t, b.exit_pc)?;
                    match lp {
                        Some(l) if tb == l.header => out.push(Node::Continue),
                        Some(l) if tb == l.exit => out.push(Node::Break),
                        _ if t == follow => {}
                        _ => {
                            return Err(Error::ControlFlow {
                                pc: b.exit_pc,
                                why: format!("jump to {t:#x} leaves its construct"),
                            })
                        }
                    }
                    return Ok(out);
                }
                Exit::Cond { cond, target } => {
                    let tb = self.idx(target, b.exit_pc)?;
                    let pc = b.exit_pc;
                    let single = |node| Node::If {
                        cond,
                        want: true,
                        pc,
                        then: vec![node],
                        els: vec![],
                    };
                    match lp {
                        Some(l) if tb == l.exit => {
                            out.push(single(Node::Break));
                            i += 1;
                            continue;
                        }
                        Some(l) if tb == l.header => {
                            out.push(single(Node::Continue));
                            i += 1;
                            continue;
                        }
                        _ => {}
                    }
                    if tb == i + 1 {
                        i += 1;
                        continue;
                    }
                    if tb > i + 1 && (tb < hi || (tb == hi && target == follow)) {
                        let last = &self.p.blocks[tb - 1];
                        let else_end = match last.exit {
                            Exit::Jump(e) if e != target => {
                                let eb = self.p.block_at(e);
                                match (eb, lp) {
                                    (_, Some(l)) if eb == Some(l.header) || eb == Some(l.exit) => {
                                        None
                                    }
                                    (Some(eb), _) if eb > tb && eb <= hi => Some((eb, e)),
                                    (None, _) if e == follow && tb < hi => Some((hi, e)),
                                    _ => None,
                                }
                            }
                            _ => None,
                        };
                        match else_end {
                            Some((eb, e)) => {
                                let then = self.range(i + 1, tb, e, lp, false)?;
                                let els = self.range(tb, eb, e, lp, false)?;
                                out.push(Node::If {
                                    cond,
                                    want: false,
                                    pc,
                                    then,
                                    els,
                                });
                                i = eb;
                            }
                            None => {
                                let then = self.range(i + 1, tb, target, lp, false)?;
                                out.push(Node::If {
                                    cond,
                                    want: false,
                                    pc,
                                    then,
                                    els: vec![],
                                });
                                i = tb;
                            }
                        }
                        continue;
                    }
                    return Err(Error::ControlFlow {
                        pc,
                        why: format!("conditional branch to {target:#x} leaves its construct"),
                    });
                }
            }
        }
        Ok(out)
    }
}
