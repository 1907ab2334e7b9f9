//! Guest condition variables (`scePthreadCond*`, `pthread_cond_*`) and their attributes.
//!
//! A `ScePthreadCond` is a pointer-sized guest slot, lazily initialized like a mutex. The
//! object has its own small lock, a wake sequence number and a host condition variable.
//! A waiter registers under that lock before it releases the guest mutex, so a signal sent
//! after the release always finds it (no lost wakeup). Waits are cancellation points: a
//! cancellation request wakes the waiter, which reacquires the guest mutex before the
//! thread exits, so cleanup handlers run with the mutex held.

use super::mutex::{mutex, GuestMutex};
use super::thread::{
    act, begin_wait, cancel_pending, end_wait, pair, posix_only, sce_only, Waited,
};
use super::wait::{
    cv_wait, errno::*, guarded, lock, resolve, sce, slot, Deadline, GuestTimespec, Wake,
    CLOCK_MONOTONIC, CLOCK_REALTIME, DESTROYED, MAX_STATIC,
};
use std::ffi::c_char;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Condvar, Mutex};

/// One guest condition variable.
pub struct GuestCond {
    /// Wake sequence: bumped by every signal and broadcast.
    seq: Mutex<u64>,
    cv: Condvar,
    waiters: AtomicU32,
    clock: i32,
}

impl Wake for GuestCond {
    fn wake_all(&self) {
        let _g = lock(&self.seq);
        self.cv.notify_all();
    }
}

/// What a `ScePthreadCondattr` handle points at.
#[derive(Clone, Copy, Debug, Default)]
pub struct CondAttr {
    clock: i32,
    pshared: i32,
}

impl GuestCond {
    fn new(a: &CondAttr) -> Self {
        GuestCond {
            seq: Mutex::new(0),
            cv: Condvar::new(),
            waiters: AtomicU32::new(0),
            clock: a.clock,
        }
    }

    /// Waits for a signal; the caller holds `m`. Errno result or `Cancelled` (then `m` is
    /// held again).
    fn wait(&self, m: &GuestMutex, deadline: Deadline) -> Waited<i32> {
        if !m.owned_by_me() {
            return Waited::Done(EPERM);
        }
        begin_wait(self);
        let mut seq = lock(&self.seq);
        // A request pending on entry is acted on with the mutex still held.
        if cancel_pending() {
            drop(seq);
            end_wait();
            return Waited::Cancelled;
        }
        let start = *seq;
        self.waiters.fetch_add(1, Ordering::SeqCst);
        let count = m.release_all();
        let outcome = loop {
            let (g, expired) = cv_wait(&self.cv, seq, &deadline);
            seq = g;
            // A signal that reached us wins over a cancellation or a timeout, so no
            // signal is ever lost to a waiter that leaves for another reason.
            if *seq != start {
                break Waited::Done(0);
            }
            if cancel_pending() {
                break Waited::Cancelled;
            }
            if expired {
                break Waited::Done(ETIMEDOUT);
            }
        };
        self.waiters.fetch_sub(1, Ordering::SeqCst);
        drop(seq);
        end_wait();
        m.reacquire(count);
        outcome
    }

    fn signal(&self, all: bool) {
        if self.waiters.load(Ordering::SeqCst) == 0 {
            return;
        }
        let mut seq = lock(&self.seq);
        *seq = seq.wrapping_add(1);
        if all {
            self.cv.notify_all();
        } else {
            self.cv.notify_one();
        }
    }
}

type C = *mut *mut GuestCond;
type M = *mut *mut GuestMutex;

/// # Safety
/// `c` is null or the guest's condition slot.
unsafe fn cond<'a>(c: C) -> Option<&'a GuestCond> {
    // SAFETY: per the contract.
    unsafe { resolve(c, |_| Some(Box::new(GuestCond::new(&CondAttr::default())))) }
}

unsafe fn cond_init(c: C, a: *const *mut CondAttr, _name: *const c_char) -> i32 {
    if c.is_null() {
        return EINVAL;
    }
    let attr = if a.is_null() {
        CondAttr::default()
    } else {
        // SAFETY: a non-null attribute pointer is the guest's attribute slot.
        match unsafe { (*a).as_ref() } {
            Some(x) => *x,
            None => return EINVAL,
        }
    };
    // SAFETY: checked non-null.
    unsafe { slot(c) }.store(
        Box::into_raw(Box::new(GuestCond::new(&attr))),
        Ordering::Release,
    );
    0
}
unsafe fn cond_init_posix(c: C, a: *const *mut CondAttr) -> i32 {
    // SAFETY: same contract.
    unsafe { cond_init(c, a, std::ptr::null()) }
}
unsafe fn cond_destroy(c: C) -> i32 {
    if c.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null.
    let s = unsafe { slot(c) };
    let p = s.load(Ordering::Acquire);
    if p as usize == DESTROYED {
        return EINVAL;
    }
    if p as usize > MAX_STATIC {
        // SAFETY: a live object of ours.
        if unsafe { &*p }.waiters.load(Ordering::SeqCst) != 0 {
            return EBUSY;
        }
        s.store(DESTROYED as *mut GuestCond, Ordering::Release);
        // SAFETY: unpublished above; using a destroyed condition is the guest's bug.
        drop(unsafe { Box::from_raw(p) });
    } else {
        s.store(DESTROYED as *mut GuestCond, Ordering::Release);
    }
    0
}
unsafe fn cond_signal(c: C) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { cond(c) } {
        Some(x) => {
            x.signal(false);
            0
        }
        None => EINVAL,
    }
}
unsafe fn cond_broadcast(c: C) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { cond(c) } {
        Some(x) => {
            x.signal(true);
            0
        }
        None => EINVAL,
    }
}

/// The shared body of every wait: resolves both objects, then waits.
unsafe fn wait(
    c: C,
    m: M,
    deadline: impl FnOnce(&GuestCond) -> Result<Deadline, i32>,
) -> Waited<i32> {
    // SAFETY: the guest's slots.
    let (Some(c), Some(m)) = (unsafe { cond(c) }, unsafe { mutex(m) }) else {
        return Waited::Done(EINVAL);
    };
    match deadline(c) {
        Ok(d) => c.wait(m, d),
        Err(e) => Waited::Done(e),
    }
}

sce_only!("scePthreadCondInit", cond_init_x, cond_init, (c: C, a: *const *mut CondAttr, name: *const c_char));
posix_only!("pthread_cond_init", cond_init_posix_x, cond_init_posix, (c: C, a: *const *mut CondAttr));
pair!("scePthreadCondDestroy", "pthread_cond_destroy", cond_destroy_x, cond_destroy, (c: C));
pair!("scePthreadCondSignal", "pthread_cond_signal", cond_signal_x, cond_signal, (c: C));
pair!("scePthreadCondBroadcast", "pthread_cond_broadcast", cond_broadcast_x, cond_broadcast, (c: C));

/// `scePthreadCondWait`: a cancellation point.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadCondWait")]
pub unsafe extern "sysv64-unwind" fn sce_pthread_cond_wait(c: C, m: M) -> i32 {
    // SAFETY: the guest's slots.
    let w = guarded("scePthreadCondWait", || unsafe {
        wait(c, m, |_| Ok(Deadline::Forever))
    });
    sce(act(w))
}

/// `pthread_cond_wait`: a cancellation point.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("pthread_cond_wait")]
pub unsafe extern "sysv64-unwind" fn pthread_cond_wait(c: C, m: M) -> i32 {
    // SAFETY: the guest's slots.
    let w = guarded("pthread_cond_wait", || unsafe {
        wait(c, m, |_| Ok(Deadline::Forever))
    });
    act(w)
}

/// `scePthreadCondTimedwait(cond, mutex, usec)`: a relative timeout in microseconds.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadCondTimedwait")]
pub unsafe extern "sysv64-unwind" fn sce_pthread_cond_timedwait(c: C, m: M, usec: u32) -> i32 {
    // SAFETY: the guest's slots.
    let w = guarded("scePthreadCondTimedwait", || unsafe {
        wait(c, m, |_| Ok(Deadline::after_micros(usec as u64)))
    });
    sce(act(w))
}

/// `pthread_cond_timedwait`: an absolute deadline on the condition's clock.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("pthread_cond_timedwait")]
pub unsafe extern "sysv64-unwind" fn pthread_cond_timedwait(
    c: C,
    m: M,
    abstime: *const GuestTimespec,
) -> i32 {
    // SAFETY: the guest's slots and timespec.
    let w = guarded("pthread_cond_timedwait", || unsafe {
        wait(c, m, |c| Deadline::absolute(c.clock, abstime))
    });
    act(w)
}

/// `pthread_cond_reltimedwait_np`: a relative timeout in microseconds.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("pthread_cond_reltimedwait_np")]
pub unsafe extern "sysv64-unwind" fn pthread_cond_reltimedwait_np(c: C, m: M, usec: u32) -> i32 {
    // SAFETY: the guest's slots.
    let w = guarded("pthread_cond_reltimedwait_np", || unsafe {
        wait(c, m, |_| Ok(Deadline::after_micros(usec as u64)))
    });
    act(w)
}

// ---------------------------------------------------------------------------------------
// Attributes
// ---------------------------------------------------------------------------------------

type A = *mut *mut CondAttr;

/// # Safety
/// `a` is null or the guest's attribute slot.
unsafe fn cattr<'a>(a: *const *mut CondAttr) -> Option<&'a mut CondAttr> {
    if a.is_null() {
        return None;
    }
    // SAFETY: per the contract.
    unsafe { (*a).as_mut() }
}
unsafe fn condattr_init(a: A) -> i32 {
    if a.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null.
    unsafe { *a = Box::into_raw(Box::default()) };
    0
}
unsafe fn condattr_destroy(a: A) -> i32 {
    // SAFETY: a null slot pointer is refused inside.
    if unsafe { cattr(a) }.is_none() {
        return EINVAL;
    }
    // SAFETY: the slot holds a box made by condattr_init.
    unsafe {
        drop(Box::from_raw(*a));
        *a = std::ptr::null_mut();
    }
    0
}
unsafe fn condattr_setclock(a: A, clock: i32) -> i32 {
    // SAFETY: the guest's attribute slot.
    match unsafe { cattr(a) } {
        Some(x) if clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC => {
            x.clock = clock;
            0
        }
        _ => EINVAL,
    }
}
unsafe fn condattr_getclock(a: *const *mut CondAttr, out: *mut i32) -> i32 {
    // SAFETY: the guest's attribute slot.
    match unsafe { cattr(a) } {
        Some(x) if !out.is_null() => {
            // SAFETY: checked non-null.
            unsafe { out.write_unaligned(x.clock) };
            0
        }
        _ => EINVAL,
    }
}
unsafe fn condattr_setpshared(a: A, v: i32) -> i32 {
    // SAFETY: the guest's attribute slot.
    match unsafe { cattr(a) } {
        Some(x) if v == 0 || v == 1 => {
            x.pshared = v;
            0
        }
        _ => EINVAL,
    }
}
unsafe fn condattr_getpshared(a: *const *mut CondAttr, out: *mut i32) -> i32 {
    // SAFETY: the guest's attribute slot.
    match unsafe { cattr(a) } {
        Some(x) if !out.is_null() => {
            // SAFETY: checked non-null.
            unsafe { out.write_unaligned(x.pshared) };
            0
        }
        _ => EINVAL,
    }
}

pair!("scePthreadCondattrInit", "pthread_condattr_init", condattr_init_x, condattr_init, (a: A));
pair!("scePthreadCondattrDestroy", "pthread_condattr_destroy", condattr_destroy_x, condattr_destroy, (a: A));
pair!("scePthreadCondattrSetclock", "pthread_condattr_setclock", condattr_setclock_x, condattr_setclock, (a: A, clock: i32));
pair!("scePthreadCondattrGetclock", "pthread_condattr_getclock", condattr_getclock_x, condattr_getclock, (a: *const *mut CondAttr, out: *mut i32));
pair!("scePthreadCondattrSetpshared", "pthread_condattr_setpshared", condattr_setpshared_x, condattr_setpshared, (a: A, v: i32));
pair!("scePthreadCondattrGetpshared", "pthread_condattr_getpshared", condattr_getpshared_x, condattr_getpshared, (a: *const *mut CondAttr, out: *mut i32));
