//! Event flags (`sceKernel*EventFlag`): a 64-bit pattern that threads wait on in AND or
//! OR mode, optionally clearing all bits or the waited bits when satisfied.
//!
//! Each flag has its own lock and waiter queue. `Set` satisfies waiters in queue order,
//! each seeing the pattern after earlier waiters' clears, and records each one's outcome,
//! so no waiter misses a set that happened while it slept.

use super::wait::{errno::*, guest_str, lock, sce, Deadline, Parker};
use std::ffi::{c_char, c_void};
use std::sync::{Arc, Mutex};
use std::time::Instant;

const ATTR_TH_FIFO: u32 = 0x01;
const ATTR_TH_PRIO: u32 = 0x02;
const ATTR_SINGLE: u32 = 0x10;
const ATTR_MULTI: u32 = 0x20;
const WAIT_AND: u32 = 0x01;
const WAIT_OR: u32 = 0x02;
const CLEAR_ALL: u32 = 0x10;
const CLEAR_PAT: u32 = 0x20;

const MAGIC: u64 = 0x6e35_6576_666c_6167;

struct Waiter {
    id: u64,
    pattern: u64,
    mode: u32,
    /// Set by Set/Cancel/Delete: (errno, result pattern).
    outcome: Option<(i32, u64)>,
    /// The waiting thread's parker, so a Set wakes only the waiters it satisfies instead
    /// of every sleeper.
    parker: Arc<Parker>,
}

impl Waiter {
    fn finish(&mut self, outcome: (i32, u64)) {
        self.outcome = Some(outcome);
        self.parker.unpark();
    }
}

struct State {
    bits: u64,
    waiters: Vec<Waiter>,
    next_id: u64,
    deleted: bool,
}

/// One event flag; the guest's `SceKernelEventFlag` is its address.
pub struct EventFlag {
    magic: u64,
    state: Mutex<State>,
    single: bool,
    _name: String,
}

fn satisfied(bits: u64, pattern: u64, mode: u32) -> bool {
    if mode & WAIT_AND != 0 {
        bits & pattern == pattern
    } else {
        bits & pattern != 0
    }
}

fn apply_clear(bits: &mut u64, pattern: u64, mode: u32) {
    if mode & CLEAR_ALL != 0 {
        *bits = 0;
    } else if mode & CLEAR_PAT != 0 {
        *bits &= !pattern;
    }
}

fn valid_mode(mode: u32) -> bool {
    let wait = mode & 0x0f;
    let clear = mode & 0xf0;
    mode & !0x33 == 0 && (wait == WAIT_AND || wait == WAIT_OR) && clear != (CLEAR_ALL | CLEAR_PAT)
}

/// The flag behind a handle; `None` for null, foreign or deleted handles.
///
/// # Safety
/// A non-null `ef` was returned by `sceKernelCreateEventFlag` (objects are never freed).
unsafe fn flag<'a>(ef: *const EventFlag) -> Option<&'a EventFlag> {
    // SAFETY: per the contract.
    let f = unsafe { ef.as_ref() }?;
    (f.magic == MAGIC && !lock(&f.state).deleted).then_some(f)
}

unsafe fn create(
    out: *mut *const EventFlag,
    name: *const c_char,
    attr: u32,
    pattern: u64,
    opt: *const c_void,
) -> i32 {
    if out.is_null() || name.is_null() || !opt.is_null() {
        return EINVAL;
    }
    let queue = attr & 0x0f;
    let threads = attr & 0xf0;
    if attr & !0x33 != 0
        || !(queue == 0 || queue == ATTR_TH_FIFO || queue == ATTR_TH_PRIO)
        || !(threads == 0 || threads == ATTR_SINGLE || threads == ATTR_MULTI)
    {
        return EINVAL;
    }
    // SAFETY: checked non-null; a NUL-terminated guest string.
    let name = unsafe { guest_str(name, 64) };
    if name.len() >= 32 {
        return ENAMETOOLONG;
    }
    // Never freed: a deleted flag stays readable so late callers get ESRCH, not a crash.
    let f: &'static EventFlag = Box::leak(Box::new(EventFlag {
        magic: MAGIC,
        state: Mutex::new(State {
            bits: pattern,
            waiters: Vec::new(),
            next_id: 1,
            deleted: false,
        }),
        single: threads != ATTR_MULTI,
        _name: name,
    }));
    // SAFETY: checked non-null.
    unsafe { out.write_unaligned(f) };
    0
}

unsafe fn wait(
    ef: *const EventFlag,
    pattern: u64,
    mode: u32,
    result: *mut u64,
    timeout: *mut u32,
    block: bool,
) -> i32 {
    // SAFETY: the guest's handle.
    let Some(f) = (unsafe { flag(ef) }) else {
        return ESRCH;
    };
    if pattern == 0 || !valid_mode(mode) {
        return EINVAL;
    }
    let put = |r: u64| {
        if !result.is_null() {
            // SAFETY: a non-null result pointer is writable.
            unsafe { result.write_unaligned(r) };
        }
    };
    let mut g = lock(&f.state);
    if g.deleted {
        return ESRCH;
    }
    if block && f.single && g.waiters.iter().any(|w| w.outcome.is_none()) {
        return EPERM;
    }
    if satisfied(g.bits, pattern, mode) {
        put(g.bits);
        let mut bits = g.bits;
        apply_clear(&mut bits, pattern, mode);
        g.bits = bits;
        return 0;
    }
    if !block {
        put(g.bits);
        return EBUSY;
    }
    let start = Instant::now();
    let before = if timeout.is_null() {
        None
    } else {
        // SAFETY: a non-null timeout is the guest's in/out value.
        Some(unsafe { timeout.read_unaligned() })
    };
    let deadline = before.map_or(Deadline::Forever, |us| Deadline::after_micros(us as u64));
    let id = g.next_id;
    g.next_id += 1;
    let parker = Parker::current();
    g.waiters.push(Waiter {
        id,
        pattern,
        mode,
        outcome: None,
        parker: parker.clone(),
    });
    let (e, r) = loop {
        if deadline.expired() {
            let i = g
                .waiters
                .iter()
                .position(|w| w.id == id)
                .expect("own waiter");
            let w = g.waiters.remove(i);
            break w.outcome.unwrap_or((ETIMEDOUT, g.bits));
        }
        let (ng, _) = parker.park(&f.state, g, &deadline);
        g = ng;
        let i = g
            .waiters
            .iter()
            .position(|w| w.id == id)
            .expect("own waiter");
        if g.waiters[i].outcome.is_some() {
            let w = g.waiters.remove(i);
            break w.outcome.expect("checked");
        }
    };
    drop(g);
    put(r);
    if let (Some(b), false) = (before, timeout.is_null()) {
        let left = if e == ETIMEDOUT {
            0
        } else {
            (b as u128).saturating_sub(start.elapsed().as_micros()) as u32
        };
        // SAFETY: as above.
        unsafe { timeout.write_unaligned(left) };
    }
    e
}

fn set(f: &EventFlag, pattern: u64) {
    let mut g = lock(&f.state);
    g.bits |= pattern;
    let mut bits = g.bits;
    for w in g.waiters.iter_mut().filter(|w| w.outcome.is_none()) {
        if satisfied(bits, w.pattern, w.mode) {
            w.finish((0, bits));
            apply_clear(&mut bits, w.pattern, w.mode);
        }
    }
    g.bits = bits;
}

/// `sceKernelCreateEventFlag(out, name, attr, pattern, opt)`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sceKernelCreateEventFlag")]
pub unsafe extern "sysv64" fn sce_kernel_create_event_flag(
    out: *mut *const EventFlag,
    name: *const c_char,
    attr: u32,
    pattern: u64,
    opt: *const c_void,
) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { create(out, name, attr, pattern, opt) })
}

/// `sceKernelDeleteEventFlag`: waiters return SCE_KERNEL_ERROR_EACCES.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sceKernelDeleteEventFlag")]
pub unsafe extern "sysv64" fn sce_kernel_delete_event_flag(ef: *const EventFlag) -> i32 {
    // SAFETY: the guest's handle.
    let Some(f) = (unsafe { flag(ef) }) else {
        return sce(ESRCH);
    };
    let mut g = lock(&f.state);
    g.deleted = true;
    let bits = g.bits;
    for w in g.waiters.iter_mut().filter(|w| w.outcome.is_none()) {
        w.finish((EACCES, bits));
    }
    0
}

/// `sceKernelSetEventFlag`: ORs bits in and wakes the waiters it satisfies.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sceKernelSetEventFlag")]
pub unsafe extern "sysv64" fn sce_kernel_set_event_flag(ef: *const EventFlag, pattern: u64) -> i32 {
    // SAFETY: the guest's handle.
    match unsafe { flag(ef) } {
        Some(f) => {
            set(f, pattern);
            0
        }
        None => sce(ESRCH),
    }
}

/// `sceKernelClearEventFlag`: ANDs the pattern with `pattern` (keeps the bits set in it).
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sceKernelClearEventFlag")]
pub unsafe extern "sysv64" fn sce_kernel_clear_event_flag(
    ef: *const EventFlag,
    pattern: u64,
) -> i32 {
    // SAFETY: the guest's handle.
    match unsafe { flag(ef) } {
        Some(f) => {
            lock(&f.state).bits &= pattern;
            0
        }
        None => sce(ESRCH),
    }
}

/// `sceKernelWaitEventFlag(ef, pattern, mode, result, timeout)`: `timeout` is in/out
/// microseconds; ETIMEDOUT, ECANCELED, EACCES (deleted), EPERM (a second waiter on a
/// single-waiter flag).
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sceKernelWaitEventFlag")]
pub unsafe extern "sysv64" fn sce_kernel_wait_event_flag(
    ef: *const EventFlag,
    pattern: u64,
    mode: u32,
    result: *mut u64,
    timeout: *mut u32,
) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { wait(ef, pattern, mode, result, timeout, true) })
}

/// `sceKernelPollEventFlag`: SCE_KERNEL_ERROR_EBUSY when not satisfied.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sceKernelPollEventFlag")]
pub unsafe extern "sysv64" fn sce_kernel_poll_event_flag(
    ef: *const EventFlag,
    pattern: u64,
    mode: u32,
    result: *mut u64,
) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { wait(ef, pattern, mode, result, std::ptr::null_mut(), false) })
}

/// `sceKernelCancelEventFlag(ef, pattern, waiters)`: sets the pattern and releases every
/// waiter with ECANCELED.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sceKernelCancelEventFlag")]
pub unsafe extern "sysv64" fn sce_kernel_cancel_event_flag(
    ef: *const EventFlag,
    pattern: u64,
    waiters: *mut i32,
) -> i32 {
    // SAFETY: the guest's handle.
    let Some(f) = (unsafe { flag(ef) }) else {
        return sce(ESRCH);
    };
    let mut g = lock(&f.state);
    g.bits = pattern;
    let mut n = 0;
    for w in g.waiters.iter_mut().filter(|w| w.outcome.is_none()) {
        w.finish((ECANCELED, pattern));
        n += 1;
    }
    if !waiters.is_null() {
        // SAFETY: a non-null out-pointer is writable.
        unsafe { waiters.write_unaligned(n) };
    }
    0
}
