//! Building blocks shared by the libkernel synchronization objects: futex waits, guest
//! deadlines, lazily initialized guest handles and the SCE/POSIX error split.
//!
//! Every guest object (mutex, condition variable, semaphore …) owns its own state; nothing
//! here takes a process-wide lock.

use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// FreeBSD errno values (what the POSIX-named exports return).
pub mod errno {
    /// Operation not permitted.
    pub const EPERM: i32 = 1;
    /// No such process (thread).
    pub const ESRCH: i32 = 3;
    /// Resource deadlock avoided.
    pub const EDEADLK: i32 = 11;
    /// Out of memory.
    pub const ENOMEM: i32 = 12;
    /// Permission denied (a deleted kernel object).
    pub const EACCES: i32 = 13;
    /// Device or resource busy.
    pub const EBUSY: i32 = 16;
    /// Invalid argument.
    pub const EINVAL: i32 = 22;
    /// Resource temporarily unavailable.
    pub const EAGAIN: i32 = 35;
    /// Operation not supported.
    pub const ENOTSUP: i32 = 45;
    /// Timed out.
    pub const ETIMEDOUT: i32 = 60;
    /// Name too long.
    pub const ENAMETOOLONG: i32 = 63;
    /// Value too large.
    pub const EOVERFLOW: i32 = 84;
    /// Operation canceled.
    pub const ECANCELED: i32 = 85;
}

/// Turns a FreeBSD errno (0 = success) into the SCE kernel error the `sce*` names return.
pub fn sce(e: i32) -> i32 {
    if e == 0 {
        0
    } else {
        (0x8002_0000_u32 as i32) | e
    }
}

/// Blocks while `word` holds `expected`, at most `timeout` (none = forever). Returns
/// false on timeout; spurious returns are possible, so callers re-check their state.
pub fn futex_wait(word: &AtomicU32, expected: u32, timeout: Option<Duration>) -> bool {
    let ts = timeout.map(|d| host_libc::timespec {
        tv_sec: d.as_secs().min(i64::MAX as u64) as i64,
        tv_nsec: d.subsec_nanos() as i64,
    });
    let tsp = ts
        .as_ref()
        .map_or(std::ptr::null(), |t| t as *const host_libc::timespec);
    // SAFETY: `word` is a live, aligned 32-bit atomic; `tsp` is null or a valid timespec.
    let r = unsafe {
        host_libc::syscall(
            host_libc::SYS_futex,
            word.as_ptr(),
            host_libc::FUTEX_WAIT | host_libc::FUTEX_PRIVATE_FLAG,
            expected,
            tsp,
        )
    };
    !(r != 0 && std::io::Error::last_os_error().raw_os_error() == Some(host_libc::ETIMEDOUT))
}

/// Wakes up to `n` threads blocked in [`futex_wait`] on `word`.
pub fn futex_wake(word: &AtomicU32, n: i32) {
    // SAFETY: `word` is a live, aligned 32-bit atomic.
    unsafe {
        host_libc::syscall(
            host_libc::SYS_futex,
            word.as_ptr(),
            host_libc::FUTEX_WAKE | host_libc::FUTEX_PRIVATE_FLAG,
            n,
        )
    };
}

/// A guest `struct timespec` (FreeBSD: 64-bit seconds and nanoseconds).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GuestTimespec {
    /// Seconds.
    pub tv_sec: i64,
    /// Nanoseconds, 0 ..= 999,999,999.
    pub tv_nsec: i64,
}
const _: () = assert!(std::mem::size_of::<GuestTimespec>() == 16);

/// FreeBSD `CLOCK_REALTIME`.
pub const CLOCK_REALTIME: i32 = 0;
/// FreeBSD `CLOCK_MONOTONIC`.
pub const CLOCK_MONOTONIC: i32 = 4;

/// Reads a guest clock (FreeBSD ids) from the host; `None` for an unknown clock.
pub fn clock_now(clock: i32) -> Option<GuestTimespec> {
    let host = match clock {
        CLOCK_REALTIME => host_libc::CLOCK_REALTIME,
        CLOCK_MONOTONIC => host_libc::CLOCK_MONOTONIC,
        _ => return None,
    };
    let mut ts = host_libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is writable.
    unsafe { host_libc::clock_gettime(host, &mut ts) };
    Some(GuestTimespec {
        tv_sec: ts.tv_sec,
        tv_nsec: ts.tv_nsec,
    })
}

/// When a wait ends.
#[derive(Clone, Copy, Debug)]
pub enum Deadline {
    /// Never.
    Forever,
    /// An absolute guest time on a guest clock (re-read on every wake, so a clock step
    /// of CLOCK_REALTIME is honoured as POSIX asks).
    Absolute(i32, GuestTimespec),
    /// A host instant (relative timeouts in microseconds, as the `sce*` calls take them).
    Instant(Instant),
}

impl Deadline {
    /// An absolute deadline from a guest pointer; EINVAL for a bad `tv_nsec`.
    ///
    /// # Safety
    /// `abstime` is null or points at a readable timespec.
    pub unsafe fn absolute(clock: i32, abstime: *const GuestTimespec) -> Result<Self, i32> {
        if abstime.is_null() {
            return Err(errno::EINVAL);
        }
        // SAFETY: per the contract.
        let t = unsafe { abstime.read_unaligned() };
        if !(0..1_000_000_000).contains(&t.tv_nsec) {
            return Err(errno::EINVAL);
        }
        Ok(Deadline::Absolute(clock, t))
    }

    /// A deadline `usec` microseconds from now.
    pub fn after_micros(usec: u64) -> Self {
        Deadline::Instant(Instant::now() + Duration::from_micros(usec))
    }

    /// Time left: `None` = forever, `Some(ZERO)` = expired.
    pub fn remaining(&self) -> Option<Duration> {
        match *self {
            Deadline::Forever => None,
            Deadline::Instant(i) => Some(i.saturating_duration_since(Instant::now())),
            Deadline::Absolute(clock, t) => {
                let now = clock_now(clock).unwrap_or(GuestTimespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                });
                let ns = |t: GuestTimespec| t.tv_sec as i128 * 1_000_000_000 + t.tv_nsec as i128;
                let left = ns(t) - ns(now);
                Some(if left <= 0 {
                    Duration::ZERO
                } else {
                    Duration::from_nanos(left.min(u64::MAX as i128) as u64)
                })
            }
        }
    }

    /// True once the deadline has passed.
    pub fn expired(&self) -> bool {
        self.remaining() == Some(Duration::ZERO)
    }
}

/// Something a cancellation request can wake: the object a thread blocks on at a
/// cancellation point. `wake_all` takes the object's internal lock and notifies every
/// waiter, so a waiter that checked for cancellation under that lock cannot miss it.
pub trait Wake: Sync {
    /// Wakes all waiters (they re-check their own state).
    fn wake_all(&self);
}

/// Waits on a std condition variable until `deadline`; returns the guard and whether
/// the deadline passed.
pub fn cv_wait<'a, T>(
    cv: &std::sync::Condvar,
    guard: std::sync::MutexGuard<'a, T>,
    deadline: &Deadline,
) -> (std::sync::MutexGuard<'a, T>, bool) {
    match deadline.remaining() {
        None => (cv.wait(guard).unwrap_or_else(|e| e.into_inner()), false),
        Some(d) if d.is_zero() => (guard, true),
        Some(d) => {
            let (g, _) = cv.wait_timeout(guard, d).unwrap_or_else(|e| e.into_inner());
            let expired = deadline.expired();
            (g, expired)
        }
    }
}

/// A thread's own wake-up word, for objects that wake their waiters one by one (event
/// flags, semaphores). Both sides touch it only under the object's lock, which makes the
/// futex handshake free of lost wakeups; a thread blocks on at most one object at a time,
/// so one per thread is enough and no wait allocates.
pub struct Parker {
    token: AtomicU32,
}

thread_local! {
    static PARKER: std::sync::Arc<Parker> = std::sync::Arc::new(Parker { token: AtomicU32::new(0) });
}

impl Parker {
    /// The calling thread's parker.
    pub fn current() -> std::sync::Arc<Parker> {
        PARKER.with(|p| p.clone())
    }

    /// Wakes the owner; call with the object's lock held.
    pub fn unpark(&self) {
        self.token.store(1, Ordering::SeqCst);
        futex_wake(&self.token, 1);
    }

    /// Releases `guard`, sleeps until unparked or `deadline`, and relocks `m`. Returns the
    /// guard and whether the deadline passed; the caller re-checks its state either way.
    pub fn park<'a, T>(
        &self,
        m: &'a std::sync::Mutex<T>,
        guard: std::sync::MutexGuard<'a, T>,
        deadline: &Deadline,
    ) -> (std::sync::MutexGuard<'a, T>, bool) {
        // Still under the lock: any unpark meant for this sleep comes after this store.
        self.token.store(0, Ordering::SeqCst);
        drop(guard);
        loop {
            if self.token.load(Ordering::SeqCst) == 1 {
                break;
            }
            match deadline.remaining() {
                Some(d) if d.is_zero() => break,
                r => {
                    futex_wait(&self.token, 0, r);
                }
            }
        }
        (lock(m), deadline.expired())
    }
}

/// Locks a std mutex, ignoring poisoning (a panic is fatal anyway: exports abort).
pub fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A guest handle slot: the pointer-sized object the guest passes by address
/// (`ScePthreadMutex *` …). Values 0 ..= [`MAX_STATIC`] are static initializers or
/// markers; anything else points at our object.
pub const MAX_STATIC: usize = 2;
/// The marker a destroyed object's slot holds, so later use is EINVAL, not a crash.
pub const DESTROYED: usize = 2;

/// Reads a guest slot.
///
/// # Safety
/// `slot` is non-null, 8-byte aligned and points at guest memory that holds a handle.
pub unsafe fn slot<'a, T>(slot: *mut *mut T) -> &'a AtomicPtr<T> {
    // SAFETY: per the contract; AtomicPtr has the layout of a pointer.
    unsafe { &*(slot as *const AtomicPtr<T>) }
}

/// Resolves a lazily initialized handle: a static initializer value is replaced by a
/// fresh object made by `make(value)` (the first thread to get there wins; the others
/// free theirs). `None` for a destroyed handle or a `make` that refuses.
///
/// # Safety
/// As for [`slot`]; objects behind the slot were made by `Box::into_raw`.
pub unsafe fn resolve<'a, T>(
    handle: *mut *mut T,
    make: impl FnOnce(usize) -> Option<Box<T>>,
) -> Option<&'a T> {
    if handle.is_null() || (handle as usize) & 7 != 0 {
        return None;
    }
    // SAFETY: per the contract.
    let s = unsafe { slot(handle) };
    let p = s.load(Ordering::Acquire);
    if p as usize > MAX_STATIC {
        // SAFETY: a non-marker value is one of our live objects.
        return Some(unsafe { &*p });
    }
    if p as usize == DESTROYED {
        return None;
    }
    let fresh = Box::into_raw(make(p as usize)?);
    match s.compare_exchange(p, fresh, Ordering::AcqRel, Ordering::Acquire) {
        // SAFETY: we just published it; objects are freed only by their destroy call.
        Ok(_) => Some(unsafe { &*fresh }),
        Err(other) => {
            // SAFETY: `fresh` was never published.
            drop(unsafe { Box::from_raw(fresh) });
            if other as usize > MAX_STATIC {
                // SAFETY: another thread published a live object.
                Some(unsafe { &*other })
            } else {
                None
            }
        }
    }
}

/// Reads a guest C string (at most `max` bytes); empty for null.
///
/// # Safety
/// `p` is null or a NUL-terminated string.
pub unsafe fn guest_str(p: *const std::ffi::c_char, max: usize) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: per the contract.
    let s = unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy();
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// Runs `f`, turning a panic into an abort that names the export: for the
/// `sysv64-unwind` exports (cancellation points), which are not guarded by the macro.
pub fn guarded<R>(name: &str, f: impl FnOnce() -> R) -> R {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "non-string panic".to_string());
            eprintln!("native5: panic in {name}: {msg}; aborting");
            std::process::abort()
        }
    }
}

/// Logs once per call site that a guest used something we accept but do not model.
#[macro_export]
macro_rules! log_once {
    ($($arg:tt)*) => {{
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| eprintln!($($arg)*));
    }};
}

/// An opaque guest pointer that may cross threads (results, TSD values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GuestPtr(pub *mut c_void);
// SAFETY: a guest pointer is just a value to us; the guest owns what it points at.
unsafe impl Send for GuestPtr {}
// SAFETY: as above.
unsafe impl Sync for GuestPtr {}
