//! Reader-writer locks, barriers and spinlocks (`scePthreadRwlock*`, `pthread_rwlock_*`,
//! `scePthreadBarrier*`, `pthread_barrier_*`, `pthread_spin_*`).
//!
//! All are pointer-sized guest handles to objects with their own state. Rwlocks are
//! lazily initialized (PTHREAD_RWLOCK_INITIALIZER is NULL) and prefer writers: a reader
//! waits while a writer holds or waits for the lock.

use super::thread::{pair, posix_only, sce_only};
use super::wait::{
    cv_wait, errno::*, lock, resolve, sce, slot, Deadline, GuestTimespec, CLOCK_REALTIME,
    DESTROYED, MAX_STATIC,
};
use std::ffi::c_char;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

fn me() -> usize {
    // SAFETY: pthread_self has no preconditions.
    unsafe { host_libc::pthread_self() as usize }
}

#[derive(Default)]
struct RwState {
    readers: u32,
    writer: usize,
    waiting_writers: u32,
}

/// One guest rwlock.
#[derive(Default)]
pub struct GuestRwlock {
    state: Mutex<RwState>,
    cv: Condvar,
}

impl GuestRwlock {
    fn rdlock(&self, deadline: Option<Deadline>, try_only: bool) -> i32 {
        let me = me();
        let mut g = lock(&self.state);
        if g.writer == me {
            return EDEADLK;
        }
        loop {
            if g.writer == 0 && g.waiting_writers == 0 {
                g.readers += 1;
                return 0;
            }
            if try_only {
                return EBUSY;
            }
            let d = deadline.unwrap_or(Deadline::Forever);
            let (ng, expired) = cv_wait(&self.cv, g, &d);
            g = ng;
            if expired && !(g.writer == 0 && g.waiting_writers == 0) {
                return ETIMEDOUT;
            }
        }
    }

    fn wrlock(&self, deadline: Option<Deadline>, try_only: bool) -> i32 {
        let me = me();
        let mut g = lock(&self.state);
        if g.writer == me {
            return EDEADLK;
        }
        if g.writer == 0 && g.readers == 0 {
            g.writer = me;
            return 0;
        }
        if try_only {
            return EBUSY;
        }
        g.waiting_writers += 1;
        let d = deadline.unwrap_or(Deadline::Forever);
        let r = loop {
            let (ng, expired) = cv_wait(&self.cv, g, &d);
            g = ng;
            if g.writer == 0 && g.readers == 0 {
                g.writer = me;
                break 0;
            }
            if expired {
                break ETIMEDOUT;
            }
        };
        g.waiting_writers -= 1;
        if r != 0 {
            // Readers held back by us may go now.
            self.cv.notify_all();
        }
        r
    }

    fn unlock(&self) -> i32 {
        let mut g = lock(&self.state);
        if g.writer == me() {
            g.writer = 0;
        } else if g.readers > 0 {
            g.readers -= 1;
            if g.readers > 0 {
                return 0;
            }
        } else {
            return EPERM;
        }
        self.cv.notify_all();
        0
    }
}

type R = *mut *mut GuestRwlock;

/// # Safety
/// `r` is null or the guest's rwlock slot.
unsafe fn rwlock<'a>(r: R) -> Option<&'a GuestRwlock> {
    // SAFETY: per the contract.
    unsafe { resolve(r, |_| Some(Box::default())) }
}

unsafe fn rwlock_init(r: R, _a: *const usize, _name: *const c_char) -> i32 {
    if r.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null.
    unsafe { slot(r) }.store(Box::into_raw(Box::default()), Ordering::Release);
    0
}
unsafe fn rwlock_init_posix(r: R, a: *const usize) -> i32 {
    // SAFETY: same contract.
    unsafe { rwlock_init(r, a, std::ptr::null()) }
}
unsafe fn rwlock_destroy(r: R) -> i32 {
    if r.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null.
    let s = unsafe { slot(r) };
    let p = s.load(Ordering::Acquire);
    if p as usize == DESTROYED {
        return EINVAL;
    }
    if p as usize > MAX_STATIC {
        // SAFETY: a live object of ours.
        let busy = {
            let g = lock(&unsafe { &*p }.state);
            g.readers > 0 || g.writer != 0 || g.waiting_writers > 0
        };
        if busy {
            return EBUSY;
        }
        s.store(DESTROYED as *mut GuestRwlock, Ordering::Release);
        // SAFETY: unpublished above.
        drop(unsafe { Box::from_raw(p) });
    } else {
        s.store(DESTROYED as *mut GuestRwlock, Ordering::Release);
    }
    0
}

/// Defines one lock operation over the resolved object.
macro_rules! rw_op {
    ($name:ident, |$x:ident $(, $a:ident: $t:ty)*| $e:expr) => {
        unsafe fn $name(r: R $(, $a: $t)*) -> i32 {
            // SAFETY: the guest's slot.
            match unsafe { rwlock(r) } {
                Some($x) => $e,
                None => EINVAL,
            }
        }
    };
}
rw_op!(rw_rdlock, |x| x.rdlock(None, false));
rw_op!(rw_wrlock, |x| x.wrlock(None, false));
rw_op!(rw_tryrdlock, |x| x.rdlock(None, true));
rw_op!(rw_trywrlock, |x| x.wrlock(None, true));
rw_op!(rw_unlock, |x| x.unlock());
rw_op!(rw_reltimedrd, |x, usec: u32| x
    .rdlock(Some(Deadline::after_micros(usec as u64)), false));
rw_op!(rw_reltimedwr, |x, usec: u32| x
    .wrlock(Some(Deadline::after_micros(usec as u64)), false));
rw_op!(rw_timedrd, |x, t: *const GuestTimespec| {
    // SAFETY: the guest's timespec.
    match unsafe { Deadline::absolute(CLOCK_REALTIME, t) } {
        Ok(d) => x.rdlock(Some(d), false),
        Err(e) => e,
    }
});
rw_op!(rw_timedwr, |x, t: *const GuestTimespec| {
    // SAFETY: the guest's timespec.
    match unsafe { Deadline::absolute(CLOCK_REALTIME, t) } {
        Ok(d) => x.wrlock(Some(d), false),
        Err(e) => e,
    }
});

sce_only!("scePthreadRwlockInit", rwlock_init_x, rwlock_init, (r: R, a: *const usize, name: *const c_char));
posix_only!("pthread_rwlock_init", rwlock_init_posix_x, rwlock_init_posix, (r: R, a: *const usize));
pair!("scePthreadRwlockDestroy", "pthread_rwlock_destroy", rwlock_destroy_x, rwlock_destroy, (r: R));
pair!("scePthreadRwlockRdlock", "pthread_rwlock_rdlock", rw_rdlock_x, rw_rdlock, (r: R));
pair!("scePthreadRwlockWrlock", "pthread_rwlock_wrlock", rw_wrlock_x, rw_wrlock, (r: R));
pair!("scePthreadRwlockTryrdlock", "pthread_rwlock_tryrdlock", rw_tryrdlock_x, rw_tryrdlock, (r: R));
pair!("scePthreadRwlockTrywrlock", "pthread_rwlock_trywrlock", rw_trywrlock_x, rw_trywrlock, (r: R));
pair!("scePthreadRwlockUnlock", "pthread_rwlock_unlock", rw_unlock_x, rw_unlock, (r: R));
sce_only!("scePthreadRwlockTimedrdlock", rw_timedrd_sce_x, rw_reltimedrd, (r: R, usec: u32));
sce_only!("scePthreadRwlockTimedwrlock", rw_timedwr_sce_x, rw_reltimedwr, (r: R, usec: u32));
posix_only!("pthread_rwlock_timedrdlock", rw_timedrd_x, rw_timedrd, (r: R, t: *const GuestTimespec));
posix_only!("pthread_rwlock_timedwrlock", rw_timedwr_x, rw_timedwr, (r: R, t: *const GuestTimespec));
posix_only!("pthread_rwlock_reltimedrdlock_np", rw_reltimedrd_x, rw_reltimedrd, (r: R, usec: u32));
posix_only!("pthread_rwlock_reltimedwrlock_np", rw_reltimedwr_x, rw_reltimedwr, (r: R, usec: u32));

/// Attribute objects of rwlocks and barriers carry only `pshared`, which every object here
/// accepts; they are a boxed integer.
type PA = *mut *mut i32;

unsafe fn pattr_init(a: PA) -> i32 {
    if a.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null.
    unsafe { *a = Box::into_raw(Box::new(0)) };
    0
}
unsafe fn pattr_destroy(a: PA) -> i32 {
    // SAFETY: a null slot pointer is refused first.
    if a.is_null() || unsafe { (*a).is_null() } {
        return EINVAL;
    }
    // SAFETY: the slot holds a box made by pattr_init.
    unsafe {
        drop(Box::from_raw(*a));
        *a = std::ptr::null_mut();
    }
    0
}
unsafe fn pattr_setpshared(a: PA, v: i32) -> i32 {
    // SAFETY: a null slot pointer is refused first.
    if a.is_null() || unsafe { (*a).is_null() } || !(v == 0 || v == 1) {
        return EINVAL;
    }
    // SAFETY: checked.
    unsafe { **a = v };
    0
}
unsafe fn pattr_getpshared(a: *const *mut i32, out: *mut i32) -> i32 {
    // SAFETY: a null slot pointer is refused first.
    if a.is_null() || unsafe { (*a).is_null() } || out.is_null() {
        return EINVAL;
    }
    // SAFETY: checked.
    unsafe { out.write_unaligned(**a) };
    0
}
pair!("scePthreadRwlockattrInit", "pthread_rwlockattr_init", rwattr_init_x, pattr_init, (a: PA));
pair!("scePthreadRwlockattrDestroy", "pthread_rwlockattr_destroy", rwattr_destroy_x, pattr_destroy, (a: PA));
pair!("scePthreadRwlockattrSetpshared", "pthread_rwlockattr_setpshared", rwattr_setpshared_x, pattr_setpshared, (a: PA, v: i32));
pair!("scePthreadRwlockattrGetpshared", "pthread_rwlockattr_getpshared", rwattr_getpshared_x, pattr_getpshared, (a: *const *mut i32, out: *mut i32));
pair!("scePthreadBarrierattrInit", "pthread_barrierattr_init", battr_init_x, pattr_init, (a: PA));
pair!("scePthreadBarrierattrDestroy", "pthread_barrierattr_destroy", battr_destroy_x, pattr_destroy, (a: PA));
pair!("scePthreadBarrierattrSetpshared", "pthread_barrierattr_setpshared", battr_setpshared_x, pattr_setpshared, (a: PA, v: i32));
pair!("scePthreadBarrierattrGetpshared", "pthread_barrierattr_getpshared", battr_getpshared_x, pattr_getpshared, (a: *const *mut i32, out: *mut i32));

// ---------------------------------------------------------------------------------------
// Barriers
// ---------------------------------------------------------------------------------------

struct BarrierState {
    arrived: u32,
    generation: u64,
}

/// One guest barrier.
pub struct GuestBarrier {
    state: Mutex<BarrierState>,
    cv: Condvar,
    count: u32,
}

/// `PTHREAD_BARRIER_SERIAL_THREAD`.
const SERIAL: i32 = -1;

type B = *mut *mut GuestBarrier;

unsafe fn barrier_init(b: B, _a: *const *mut i32, count: u32, _name: *const c_char) -> i32 {
    if b.is_null() || count == 0 {
        return EINVAL;
    }
    let obj = Box::new(GuestBarrier {
        state: Mutex::new(BarrierState {
            arrived: 0,
            generation: 0,
        }),
        cv: Condvar::new(),
        count,
    });
    // SAFETY: checked non-null.
    unsafe { slot(b) }.store(Box::into_raw(obj), Ordering::Release);
    0
}
unsafe fn barrier_init_posix(b: B, a: *const *mut i32, count: u32) -> i32 {
    // SAFETY: same contract.
    unsafe { barrier_init(b, a, count, std::ptr::null()) }
}
unsafe fn barrier_destroy(b: B) -> i32 {
    if b.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null.
    let s = unsafe { slot(b) };
    let p = s.load(Ordering::Acquire);
    if p.is_null() {
        return EINVAL;
    }
    // SAFETY: a live object of ours.
    if lock(&unsafe { &*p }.state).arrived > 0 {
        return EBUSY;
    }
    s.store(std::ptr::null_mut(), Ordering::Release);
    // SAFETY: unpublished above.
    drop(unsafe { Box::from_raw(p) });
    0
}
unsafe fn barrier_wait(b: B) -> i32 {
    if b.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null; a live object made by barrier_init.
    let Some(x) = (unsafe { slot(b).load(Ordering::Acquire).as_ref() }) else {
        return EINVAL;
    };
    let mut g = lock(&x.state);
    g.arrived += 1;
    if g.arrived == x.count {
        g.arrived = 0;
        g.generation += 1;
        x.cv.notify_all();
        return SERIAL;
    }
    let gen = g.generation;
    while g.generation == gen {
        g = x.cv.wait(g).unwrap_or_else(|e| e.into_inner());
    }
    0
}
sce_only!("scePthreadBarrierInit", barrier_init_x, barrier_init, (b: B, a: *const *mut i32, count: u32, name: *const c_char));
posix_only!("pthread_barrier_init", barrier_init_posix_x, barrier_init_posix, (b: B, a: *const *mut i32, count: u32));
pair!("scePthreadBarrierDestroy", "pthread_barrier_destroy", barrier_destroy_x, barrier_destroy, (b: B));

/// `scePthreadBarrierWait`: SCE_OK, or PTHREAD_BARRIER_SERIAL_THREAD (-1) for one thread.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadBarrierWait")]
pub unsafe extern "sysv64" fn sce_pthread_barrier_wait(b: B) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { barrier_wait(b) } {
        SERIAL => SERIAL,
        e => sce(e),
    }
}

/// `pthread_barrier_wait`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("pthread_barrier_wait")]
pub unsafe extern "sysv64" fn pthread_barrier_wait(b: B) -> i32 {
    // SAFETY: the guest's slot.
    unsafe { barrier_wait(b) }
}

// ---------------------------------------------------------------------------------------
// Spinlocks
// ---------------------------------------------------------------------------------------

/// One guest spinlock: the holder's host thread id, or 0.
pub struct GuestSpin {
    owner: AtomicUsize,
    _pad: AtomicU32,
}

type P = *mut *mut GuestSpin;

/// # Safety
/// `p` is null or the guest's spinlock slot.
unsafe fn spin<'a>(p: P) -> Option<&'a GuestSpin> {
    if p.is_null() {
        return None;
    }
    // SAFETY: per the contract; non-null handles were made by spin_init.
    unsafe { slot(p).load(Ordering::Acquire).as_ref() }
}
unsafe fn spin_init(p: P, _pshared: i32) -> i32 {
    if p.is_null() {
        return EINVAL;
    }
    let obj = Box::new(GuestSpin {
        owner: AtomicUsize::new(0),
        _pad: AtomicU32::new(0),
    });
    // SAFETY: checked non-null.
    unsafe { slot(p) }.store(Box::into_raw(obj), Ordering::Release);
    0
}
unsafe fn spin_destroy(p: P) -> i32 {
    // SAFETY: the guest's slot.
    let Some(s) = (unsafe { spin(p) }) else {
        return EINVAL;
    };
    if s.owner.load(Ordering::Relaxed) != 0 {
        return EBUSY;
    }
    // SAFETY: the slot holds a box made by spin_init.
    unsafe {
        let b = slot(p).swap(std::ptr::null_mut(), Ordering::AcqRel);
        drop(Box::from_raw(b));
    }
    0
}
unsafe fn spin_lock(p: P) -> i32 {
    // SAFETY: the guest's slot.
    let Some(s) = (unsafe { spin(p) }) else {
        return EINVAL;
    };
    let me = me();
    if s.owner.load(Ordering::Relaxed) == me {
        return EDEADLK;
    }
    let mut n = 0u32;
    while s
        .owner
        .compare_exchange_weak(0, me, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        n += 1;
        // Spin briefly, then yield: on a host with fewer cores than the title's threads a
        // pure spin would burn the holder's time slice.
        if n < 64 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
    0
}
unsafe fn spin_trylock(p: P) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { spin(p) } {
        Some(s) => match s
            .owner
            .compare_exchange(0, me(), Ordering::Acquire, Ordering::Relaxed)
        {
            Ok(_) => 0,
            Err(_) => EBUSY,
        },
        None => EINVAL,
    }
}
unsafe fn spin_unlock(p: P) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { spin(p) } {
        Some(s) => match s
            .owner
            .compare_exchange(me(), 0, Ordering::Release, Ordering::Relaxed)
        {
            Ok(_) => 0,
            Err(_) => EPERM,
        },
        None => EINVAL,
    }
}
posix_only!("pthread_spin_init", spin_init_x, spin_init, (p: P, pshared: i32));
posix_only!("pthread_spin_destroy", spin_destroy_x, spin_destroy, (p: P));
posix_only!("pthread_spin_lock", spin_lock_x, spin_lock, (p: P));
posix_only!("pthread_spin_trylock", spin_trylock_x, spin_trylock, (p: P));
posix_only!("pthread_spin_unlock", spin_unlock_x, spin_unlock, (p: P));
