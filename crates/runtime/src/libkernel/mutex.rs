//! Guest mutexes (`scePthreadMutex*`, `pthread_mutex_*`) and their attributes.
//!
//! A `ScePthreadMutex` is a pointer-sized guest slot holding the address of a
//! [`GuestMutex`], made on first use when the slot still holds a static initializer (NULL
//! for the default type, 1 for `PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP`). The object is a
//! futex word (0 free, 1 locked, 2 locked with sleepers), the owner's host thread id and a
//! recursion count: an uncontended lock and unlock is one compare-and-swap and one swap,
//! with no table lookup and no shared lock.

use super::thread::{pair, posix_only, sce_only};
use super::wait::{
    errno::*, futex_wait, futex_wake, resolve, sce, slot, Deadline, GuestTimespec, CLOCK_REALTIME,
    DESTROYED, MAX_STATIC,
};
use std::ffi::c_char;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

/// `PTHREAD_MUTEX_ERRORCHECK` (the default type).
pub const ERRORCHECK: i32 = 1;
/// `PTHREAD_MUTEX_RECURSIVE`.
pub const RECURSIVE: i32 = 2;
/// `PTHREAD_MUTEX_NORMAL`.
pub const NORMAL: i32 = 3;
/// `PTHREAD_MUTEX_ADAPTIVE_NP`: spins before sleeping.
pub const ADAPTIVE: i32 = 4;

/// Spins before sleeping on a contended lock (adaptive mutexes spin longer).
const SPINS: u32 = 100;
const ADAPTIVE_SPINS: u32 = 2000;

/// One guest mutex.
pub struct GuestMutex {
    state: AtomicU32,
    owner: AtomicUsize,
    /// Extra recursive acquisitions; touched only by the owner.
    count: AtomicU32,
    kind: i32,
    protocol: i32,
    prioceiling: AtomicU32,
}

/// What a `ScePthreadMutexattr` handle points at.
#[derive(Clone, Copy, Debug)]
pub struct MutexAttr {
    kind: i32,
    protocol: i32,
    prioceiling: i32,
    pshared: i32,
}

impl Default for MutexAttr {
    fn default() -> Self {
        MutexAttr {
            kind: ERRORCHECK,
            protocol: 0,
            prioceiling: 0,
            pshared: 0,
        }
    }
}

/// The calling thread's owner id: the host thread handle, unique among live threads and
/// cheap to read.
#[inline]
fn me() -> usize {
    // SAFETY: pthread_self has no preconditions.
    unsafe { host_libc::pthread_self() as usize }
}

impl GuestMutex {
    fn new(a: &MutexAttr) -> Self {
        GuestMutex {
            state: AtomicU32::new(0),
            owner: AtomicUsize::new(0),
            count: AtomicU32::new(0),
            kind: a.kind,
            protocol: a.protocol,
            prioceiling: AtomicU32::new(a.prioceiling as u32),
        }
    }

    /// Locks; `deadline` bounds the wait. Errno result.
    pub fn lock(&self, deadline: Option<&Deadline>) -> i32 {
        let me = me();
        if self
            .state
            .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            self.owner.store(me, Ordering::Relaxed);
            return 0;
        }
        if self.owner.load(Ordering::Relaxed) == me {
            match self.kind {
                RECURSIVE => return self.relock(),
                // A normal mutex deadlocks on relock, as on the console; with a deadline
                // the wait below times out.
                NORMAL => {
                    if let Some(d) = deadline {
                        while !d.expired() {
                            std::thread::sleep(d.remaining().unwrap_or_default());
                        }
                        return ETIMEDOUT;
                    }
                    loop {
                        std::thread::park();
                    }
                }
                _ => return EDEADLK,
            }
        }
        self.lock_slow(me, deadline)
    }

    fn relock(&self) -> i32 {
        let c = self.count.load(Ordering::Relaxed);
        if c == u32::MAX {
            return EAGAIN;
        }
        self.count.store(c + 1, Ordering::Relaxed);
        0
    }

    #[cold]
    fn lock_slow(&self, me: usize, deadline: Option<&Deadline>) -> i32 {
        let spins = if self.kind == ADAPTIVE {
            ADAPTIVE_SPINS
        } else {
            SPINS
        };
        for _ in 0..spins {
            if self.state.load(Ordering::Relaxed) == 0
                && self
                    .state
                    .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
            {
                self.owner.store(me, Ordering::Relaxed);
                return 0;
            }
            std::hint::spin_loop();
        }
        // Classic three-state futex lock: whoever takes the lock from here marks it
        // contended, so its unlock wakes the next sleeper.
        while self.state.swap(2, Ordering::Acquire) != 0 {
            let timeout = match deadline {
                None => None,
                Some(d) => match d.remaining() {
                    Some(r) if r.is_zero() => return ETIMEDOUT,
                    r => r,
                },
            };
            futex_wait(&self.state, 2, timeout);
        }
        self.owner.store(me, Ordering::Relaxed);
        0
    }

    /// Try-lock. Errno result.
    pub fn trylock(&self) -> i32 {
        let me = me();
        if self
            .state
            .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            self.owner.store(me, Ordering::Relaxed);
            return 0;
        }
        if self.kind == RECURSIVE && self.owner.load(Ordering::Relaxed) == me {
            return self.relock();
        }
        EBUSY
    }

    /// Unlocks; EPERM unless the caller owns it.
    pub fn unlock(&self) -> i32 {
        if self.owner.load(Ordering::Relaxed) != me() {
            return EPERM;
        }
        let c = self.count.load(Ordering::Relaxed);
        if c > 0 {
            self.count.store(c - 1, Ordering::Relaxed);
            return 0;
        }
        self.owner.store(0, Ordering::Relaxed);
        if self.state.swap(0, Ordering::Release) == 2 {
            futex_wake(&self.state, 1);
        }
        0
    }

    /// True when the calling thread holds it.
    pub fn owned_by_me(&self) -> bool {
        self.owner.load(Ordering::Relaxed) == me()
    }

    /// Releases it completely for a condition wait; returns the recursion count to
    /// restore with [`GuestMutex::reacquire`].
    pub fn release_all(&self) -> u32 {
        let c = self.count.swap(0, Ordering::Relaxed);
        self.unlock();
        c
    }

    /// Takes it back after a condition wait (not a cancellation point).
    pub fn reacquire(&self, count: u32) {
        self.lock(None);
        self.count.store(count, Ordering::Relaxed);
    }
}

/// The mutex behind a guest slot, made on first use for a static initializer.
///
/// # Safety
/// `m` is null or the guest's mutex slot.
pub unsafe fn mutex<'a>(m: *mut *mut GuestMutex) -> Option<&'a GuestMutex> {
    // SAFETY: per the contract.
    unsafe {
        resolve(m, |init| {
            let kind = if init == 1 { ADAPTIVE } else { ERRORCHECK };
            Some(Box::new(GuestMutex::new(&MutexAttr {
                kind,
                ..MutexAttr::default()
            })))
        })
    }
}

type M = *mut *mut GuestMutex;
type A = *mut *mut MutexAttr;

unsafe fn mutex_init(m: M, a: *const *mut MutexAttr, _name: *const c_char) -> i32 {
    if m.is_null() {
        return EINVAL;
    }
    let attr = if a.is_null() {
        MutexAttr::default()
    } else {
        // SAFETY: a non-null attribute pointer is the guest's attribute slot.
        match unsafe { (*a).as_ref() } {
            Some(x) => *x,
            None => return EINVAL,
        }
    };
    let fresh = Box::into_raw(Box::new(GuestMutex::new(&attr)));
    // Re-initializing a live mutex is undefined on the console; we replace the slot.
    // SAFETY: checked non-null.
    unsafe { slot(m) }.store(fresh, Ordering::Release);
    0
}
unsafe fn mutex_init_posix(m: M, a: *const *mut MutexAttr) -> i32 {
    // SAFETY: same contract.
    unsafe { mutex_init(m, a, std::ptr::null()) }
}
unsafe fn mutex_destroy(m: M) -> i32 {
    if m.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null.
    let s = unsafe { slot(m) };
    let p = s.load(Ordering::Acquire);
    if p as usize == DESTROYED {
        return EINVAL;
    }
    if p as usize > MAX_STATIC {
        // SAFETY: a live object of ours.
        if unsafe { &*p }.state.load(Ordering::Relaxed) != 0 {
            return EBUSY;
        }
        if s.compare_exchange(
            p,
            DESTROYED as *mut GuestMutex,
            Ordering::AcqRel,
            Ordering::Relaxed,
        )
        .is_err()
        {
            return EINVAL;
        }
        // SAFETY: unpublished above; using a destroyed mutex is the guest's bug.
        drop(unsafe { Box::from_raw(p) });
    } else {
        s.store(DESTROYED as *mut GuestMutex, Ordering::Release);
    }
    0
}
unsafe fn mutex_lock(m: M) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { mutex(m) } {
        Some(x) => x.lock(None),
        None => EINVAL,
    }
}
unsafe fn mutex_trylock(m: M) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { mutex(m) } {
        Some(x) => x.trylock(),
        None => EINVAL,
    }
}
unsafe fn mutex_unlock(m: M) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { mutex(m) } {
        Some(x) => x.unlock(),
        None => EINVAL,
    }
}
unsafe fn mutex_timedlock(m: M, abstime: *const GuestTimespec) -> i32 {
    // SAFETY: the guest's slot.
    let Some(x) = (unsafe { mutex(m) }) else {
        return EINVAL;
    };
    // The deadline is only checked when the lock is not free, as POSIX allows.
    if x.trylock() == 0 {
        return 0;
    }
    // SAFETY: the guest's timespec.
    match unsafe { Deadline::absolute(CLOCK_REALTIME, abstime) } {
        Ok(d) => x.lock(Some(&d)),
        Err(e) => e,
    }
}
unsafe fn mutex_reltimedlock(m: M, usec: u32) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { mutex(m) } {
        Some(x) => x.lock(Some(&Deadline::after_micros(usec as u64))),
        None => EINVAL,
    }
}
unsafe fn mutex_isowned(m: M) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { mutex(m) } {
        Some(x) => x.owned_by_me() as i32,
        None => 0,
    }
}
unsafe fn mutex_getprioceiling(m: M, out: *mut i32) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { mutex(m) } {
        Some(x) if !out.is_null() => {
            // SAFETY: checked non-null.
            unsafe { out.write_unaligned(x.prioceiling.load(Ordering::Relaxed) as i32) };
            0
        }
        _ => EINVAL,
    }
}
unsafe fn mutex_setprioceiling(m: M, ceiling: i32, old: *mut i32) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { mutex(m) } {
        // Accepted and reported; priority protection is not modelled (host threads have no
        // console priorities to raise).
        Some(x) => {
            let prev = x.prioceiling.swap(ceiling as u32, Ordering::Relaxed);
            if !old.is_null() {
                // SAFETY: checked non-null.
                unsafe { old.write_unaligned(prev as i32) };
            }
            let _ = x.protocol;
            0
        }
        None => EINVAL,
    }
}

sce_only!("scePthreadMutexInit", mutex_init_x, mutex_init, (m: M, a: *const *mut MutexAttr, name: *const c_char));
posix_only!("pthread_mutex_init", mutex_init_posix_x, mutex_init_posix, (m: M, a: *const *mut MutexAttr));
pair!("scePthreadMutexDestroy", "pthread_mutex_destroy", mutex_destroy_x, mutex_destroy, (m: M));
pair!("scePthreadMutexLock", "pthread_mutex_lock", mutex_lock_x, mutex_lock, (m: M));
pair!("scePthreadMutexTrylock", "pthread_mutex_trylock", mutex_trylock_x, mutex_trylock, (m: M));
pair!("scePthreadMutexUnlock", "pthread_mutex_unlock", mutex_unlock_x, mutex_unlock, (m: M));
pair!("scePthreadMutexGetprioceiling", "pthread_mutex_getprioceiling", mutex_getprioceiling_x, mutex_getprioceiling, (m: M, out: *mut i32));
pair!("scePthreadMutexSetprioceiling", "pthread_mutex_setprioceiling", mutex_setprioceiling_x, mutex_setprioceiling, (m: M, ceiling: i32, old: *mut i32));
posix_only!("pthread_mutex_timedlock", mutex_timedlock_x, mutex_timedlock, (m: M, abstime: *const GuestTimespec));
posix_only!("pthread_mutex_reltimedlock_np", mutex_reltimedlock_np_x, mutex_reltimedlock, (m: M, usec: u32));
sce_only!("scePthreadMutexTimedlock", mutex_timedlock_sce_x, mutex_reltimedlock, (m: M, usec: u32));

/// `scePthreadMutexIsowned`: 1 when the caller holds the mutex.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadMutexIsowned")]
pub unsafe extern "sysv64" fn sce_pthread_mutex_isowned(m: M) -> i32 {
    // SAFETY: the guest's slot.
    unsafe { mutex_isowned(m) }
}

/// `pthread_mutex_isowned_np`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("pthread_mutex_isowned_np")]
pub unsafe extern "sysv64" fn pthread_mutex_isowned_np(m: M) -> i32 {
    // SAFETY: the guest's slot.
    unsafe { mutex_isowned(m) }
}

// ---------------------------------------------------------------------------------------
// Attributes
// ---------------------------------------------------------------------------------------

/// # Safety
/// `a` is null or the guest's attribute slot.
unsafe fn mattr<'a>(a: *const *mut MutexAttr) -> Option<&'a mut MutexAttr> {
    if a.is_null() {
        return None;
    }
    // SAFETY: per the contract; non-null handles were made by mutexattr_init.
    unsafe { (*a).as_mut() }
}

unsafe fn mutexattr_init(a: A) -> i32 {
    if a.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null.
    unsafe { *a = Box::into_raw(Box::default()) };
    0
}
unsafe fn mutexattr_destroy(a: A) -> i32 {
    // SAFETY: a null slot pointer is refused inside.
    if unsafe { mattr(a) }.is_none() {
        return EINVAL;
    }
    // SAFETY: the slot holds a box made by mutexattr_init.
    unsafe {
        drop(Box::from_raw(*a));
        *a = std::ptr::null_mut();
    }
    0
}

/// Defines a setter and a getter of one integer attribute field, with a validity check.
macro_rules! mattr_field {
    ($set:ident, $get:ident, $field:ident, |$v:ident| $ok:expr, $bad:expr) => {
        unsafe fn $set(a: A, $v: i32) -> i32 {
            // SAFETY: the guest's attribute slot.
            match unsafe { mattr(a) } {
                Some(x) if $ok => {
                    x.$field = $v;
                    0
                }
                Some(_) => $bad,
                None => EINVAL,
            }
        }
        unsafe fn $get(a: *const *mut MutexAttr, out: *mut i32) -> i32 {
            // SAFETY: the guest's attribute slot.
            match unsafe { mattr(a) } {
                Some(x) if !out.is_null() => {
                    // SAFETY: checked non-null.
                    unsafe { out.write_unaligned(x.$field) };
                    0
                }
                _ => EINVAL,
            }
        }
    };
}

mattr_field!(
    mutexattr_settype,
    mutexattr_gettype,
    kind,
    |v| (ERRORCHECK..=ADAPTIVE).contains(&v),
    EINVAL
);
// PTHREAD_PRIO_NONE, PTHREAD_PRIO_INHERIT, PTHREAD_PRIO_PROTECT: accepted and reported;
// the host has no console priorities to inherit or raise.
mattr_field!(
    mutexattr_setprotocol,
    mutexattr_getprotocol,
    protocol,
    |v| (0..=2).contains(&v),
    EINVAL
);
mattr_field!(
    mutexattr_setprioceiling,
    mutexattr_getprioceiling,
    prioceiling,
    |v| (0..=767).contains(&v),
    EINVAL
);
mattr_field!(
    mutexattr_setpshared,
    mutexattr_getpshared,
    pshared,
    |v| v == 0 || v == 1,
    EINVAL
);

pair!("scePthreadMutexattrInit", "pthread_mutexattr_init", mutexattr_init_x, mutexattr_init, (a: A));
pair!("scePthreadMutexattrDestroy", "pthread_mutexattr_destroy", mutexattr_destroy_x, mutexattr_destroy, (a: A));
pair!("scePthreadMutexattrSettype", "pthread_mutexattr_settype", mutexattr_settype_x, mutexattr_settype, (a: A, v: i32));
pair!("scePthreadMutexattrGettype", "pthread_mutexattr_gettype", mutexattr_gettype_x, mutexattr_gettype, (a: *const *mut MutexAttr, out: *mut i32));
pair!("scePthreadMutexattrSetprotocol", "pthread_mutexattr_setprotocol", mutexattr_setprotocol_x, mutexattr_setprotocol, (a: A, v: i32));
pair!("scePthreadMutexattrGetprotocol", "pthread_mutexattr_getprotocol", mutexattr_getprotocol_x, mutexattr_getprotocol, (a: *const *mut MutexAttr, out: *mut i32));
pair!("scePthreadMutexattrSetprioceiling", "pthread_mutexattr_setprioceiling", mutexattr_setprioceiling_x, mutexattr_setprioceiling, (a: A, v: i32));
pair!("scePthreadMutexattrGetprioceiling", "pthread_mutexattr_getprioceiling", mutexattr_getprioceiling_x, mutexattr_getprioceiling, (a: *const *mut MutexAttr, out: *mut i32));
pair!("scePthreadMutexattrSetpshared", "pthread_mutexattr_setpshared", mutexattr_setpshared_x, mutexattr_setpshared, (a: A, v: i32));
pair!("scePthreadMutexattrGetpshared", "pthread_mutexattr_getpshared", mutexattr_getpshared_x, mutexattr_getpshared, (a: *const *mut MutexAttr, out: *mut i32));
