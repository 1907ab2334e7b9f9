//! Semaphores: the kernel's `sceKernel*Sema` (32-bit ids), POSIX `sem_*` and
//! `scePthreadSem*` (pointer-sized handles).
//!
//! Each semaphore has its own lock and host condition variable. Waits are cancellation
//! points: a request pending on entry is acted on before an available token is taken, and
//! the wait drops its internal lock before the thread exits.

use super::thread::{act, begin_wait, cancel_pending, end_wait, Waited};
use super::wait::{
    errno::*, guarded, guest_str, lock, sce, slot, Deadline, GuestTimespec, Parker, Wake,
    CLOCK_REALTIME,
};
use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A blocked waiter. `signal` hands tokens to waiters in queue order (FIFO, or by
/// priority for TH_PRIO semaphores), skipping those that need more than there is, and
/// wakes only the ones it served.
struct Waiter {
    id: u64,
    need: i32,
    prio: i32,
    granted: bool,
    parker: Arc<Parker>,
}

struct State {
    count: i32,
    /// Bumped by `sceKernelCancelSema`: waiters that saw an older value return ECANCELED.
    cancel_gen: u64,
    deleted: bool,
    queue: Vec<Waiter>,
    next_id: u64,
}

impl State {
    fn grant(&mut self) {
        for w in self.queue.iter_mut().filter(|w| !w.granted) {
            if w.need <= self.count {
                self.count -= w.need;
                w.granted = true;
                w.parker.unpark();
            }
        }
    }

    fn remove(&mut self, id: u64) -> Option<Waiter> {
        let i = self.queue.iter().position(|w| w.id == id)?;
        Some(self.queue.remove(i))
    }

    fn wake_everyone(&self) {
        for w in &self.queue {
            w.parker.unpark();
        }
    }

    /// Waiters still blocked (not yet served).
    fn blocked(&self) -> usize {
        self.queue.iter().filter(|w| !w.granted).count()
    }
}

/// One semaphore.
pub struct Sema {
    state: Mutex<State>,
    max: i32,
    init: i32,
    by_priority: bool,
    _name: String,
}

impl Wake for Sema {
    fn wake_all(&self) {
        lock(&self.state).wake_everyone();
    }
}

impl Sema {
    fn new(init: i32, max: i32, by_priority: bool, name: String) -> Self {
        Sema {
            state: Mutex::new(State {
                count: init,
                cancel_gen: 0,
                deleted: false,
                queue: Vec::new(),
                next_id: 1,
            }),
            max,
            init,
            by_priority,
            _name: name,
        }
    }

    /// Takes `need` tokens, waiting until `deadline`. Errno result (EACCES when the
    /// semaphore is deleted, ECANCELED after `sceKernelCancelSema`).
    fn wait(&self, need: i32, deadline: Deadline) -> Waited<i32> {
        begin_wait(self);
        let mut g = lock(&self.state);
        let outcome = 'w: {
            if cancel_pending() {
                break 'w Waited::Cancelled;
            }
            // The semaphore may have been deleted between the id lookup and this lock;
            // its delete woke nobody, so waiting now would never end.
            if g.deleted {
                break 'w Waited::Done(EACCES);
            }
            if g.count >= need {
                g.count -= need;
                break 'w Waited::Done(0);
            }
            if deadline.expired() {
                break 'w Waited::Done(ETIMEDOUT);
            }
            let gen = g.cancel_gen;
            let id = g.next_id;
            g.next_id += 1;
            let prio = super::thread::current_prio();
            let parker = Parker::current();
            let at = if self.by_priority {
                g.queue
                    .iter()
                    .position(|w| w.prio > prio)
                    .unwrap_or(g.queue.len())
            } else {
                g.queue.len()
            };
            g.queue.insert(
                at,
                Waiter {
                    id,
                    need,
                    prio,
                    granted: false,
                    parker: parker.clone(),
                },
            );
            loop {
                let (ng, expired) = parker.park(&self.state, g, &deadline);
                g = ng;
                // Tokens handed to us win over everything else that happened meanwhile.
                let granted = g.queue.iter().any(|w| w.id == id && w.granted);
                let r = if granted {
                    Some(Waited::Done(0))
                } else if g.deleted {
                    Some(Waited::Done(EACCES))
                } else if g.cancel_gen != gen {
                    Some(Waited::Done(ECANCELED))
                } else if cancel_pending() {
                    Some(Waited::Cancelled)
                } else if expired {
                    Some(Waited::Done(ETIMEDOUT))
                } else {
                    None
                };
                if let Some(r) = r {
                    g.remove(id);
                    // Leaving may let a waiter behind us (needing less) be served.
                    if !granted {
                        g.grant();
                    }
                    break 'w r;
                }
            }
        };
        drop(g);
        end_wait();
        outcome
    }

    fn poll(&self, need: i32) -> i32 {
        let mut g = lock(&self.state);
        if g.count >= need {
            g.count -= need;
            0
        } else {
            EBUSY
        }
    }

    fn signal(&self, n: i32) -> i32 {
        let mut g = lock(&self.state);
        if n < 1 || g.count.checked_add(n).is_none_or(|c| c > self.max) {
            return EINVAL;
        }
        g.count += n;
        g.grant();
        0
    }

    fn value(&self) -> i32 {
        lock(&self.state).count
    }
}

// ---------------------------------------------------------------------------------------
// sceKernel*Sema: 32-bit ids into a table of slots (lookups are one atomic load)
// ---------------------------------------------------------------------------------------

const MAX_SEMAS: usize = 16384;
static SEMAS: [AtomicPtr<Sema>; MAX_SEMAS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; MAX_SEMAS];

fn sema_by_id<'a>(id: i32) -> Option<&'a Sema> {
    let i = (id as usize).wrapping_sub(1);
    let p = SEMAS.get(i)?.load(Ordering::Acquire);
    // SAFETY: objects in the table are never freed (a deleted one is only unlinked, since
    // a waiter may still hold it).
    unsafe { p.as_ref() }
}

unsafe fn create_sema(
    out: *mut i32,
    name: *const c_char,
    attr: u32,
    init: i32,
    max: i32,
    _opt: *const c_void,
) -> i32 {
    if out.is_null() || name.is_null() || attr & !0x3 != 0 || init < 0 || max <= 0 || init > max {
        return EINVAL;
    }
    // SAFETY: checked non-null; a NUL-terminated guest string.
    let name = unsafe { guest_str(name, 64) };
    if name.len() >= 32 {
        return ENAMETOOLONG;
    }
    let obj = Box::into_raw(Box::new(Sema::new(init, max, attr & 0x2 != 0, name)));
    for (i, s) in SEMAS.iter().enumerate() {
        if s.load(Ordering::Relaxed).is_null()
            && s.compare_exchange(
                std::ptr::null_mut(),
                obj,
                Ordering::AcqRel,
                Ordering::Relaxed,
            )
            .is_ok()
        {
            // SAFETY: checked non-null.
            unsafe { out.write_unaligned(i as i32 + 1) };
            return 0;
        }
    }
    // SAFETY: never published.
    drop(unsafe { Box::from_raw(obj) });
    EAGAIN
}

fn delete_sema(id: i32) -> i32 {
    let i = (id as usize).wrapping_sub(1);
    let Some(s) = SEMAS.get(i) else { return ESRCH };
    let p = s.swap(std::ptr::null_mut(), Ordering::AcqRel);
    // SAFETY: objects are never freed; see `sema_by_id`.
    let Some(obj) = (unsafe { p.as_ref() }) else {
        return ESRCH;
    };
    let mut g = lock(&obj.state);
    g.deleted = true;
    g.wake_everyone();
    0
}

/// `sceKernelCreateSema(out, name, attr, init, max, opt)`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sceKernelCreateSema")]
pub unsafe extern "sysv64" fn sce_kernel_create_sema(
    out: *mut i32,
    name: *const c_char,
    attr: u32,
    init: i32,
    max: i32,
    opt: *const c_void,
) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { create_sema(out, name, attr, init, max, opt) })
}

/// `sceKernelDeleteSema`: waiters return SCE_KERNEL_ERROR_EACCES.
#[export::nid("sceKernelDeleteSema")]
pub extern "sysv64" fn sce_kernel_delete_sema(id: i32) -> i32 {
    sce(delete_sema(id))
}

/// The body of `sceKernelWaitSema`: `timeout` is in/out microseconds.
unsafe fn wait_sema(id: i32, need: i32, timeout: *mut u32) -> Waited<i32> {
    let Some(s) = sema_by_id(id) else {
        return Waited::Done(ESRCH);
    };
    if need < 1 || need > s.max {
        return Waited::Done(EINVAL);
    }
    let start = Instant::now();
    let deadline = if timeout.is_null() {
        Deadline::Forever
    } else {
        // SAFETY: a non-null timeout is the guest's in/out value.
        Deadline::after_micros(unsafe { timeout.read_unaligned() } as u64)
    };
    let r = s.wait(need, deadline);
    if !timeout.is_null() {
        // SAFETY: as above.
        unsafe {
            let before = timeout.read_unaligned() as u128;
            let left = before.saturating_sub(start.elapsed().as_micros());
            timeout.write_unaligned(if r == Waited::Done(ETIMEDOUT) {
                0
            } else {
                left as u32
            });
        }
    }
    r
}

/// `sceKernelWaitSema(id, need, timeout)`: a cancellation point.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sceKernelWaitSema")]
pub unsafe extern "sysv64-unwind" fn sce_kernel_wait_sema(
    id: i32,
    need: i32,
    timeout: *mut u32,
) -> i32 {
    // SAFETY: the guest's contract.
    let w = guarded("sceKernelWaitSema", || unsafe {
        wait_sema(id, need, timeout)
    });
    sce(act(w))
}

/// `sceKernelPollSema`: SCE_KERNEL_ERROR_EBUSY when the tokens are not there.
#[export::nid("sceKernelPollSema")]
pub extern "sysv64" fn sce_kernel_poll_sema(id: i32, need: i32) -> i32 {
    match sema_by_id(id) {
        None => sce(ESRCH),
        Some(s) if need < 1 || need > s.max => sce(EINVAL),
        Some(s) => sce(s.poll(need)),
    }
}

/// `sceKernelSignalSema`: EINVAL when the count would pass the maximum.
#[export::nid("sceKernelSignalSema")]
pub extern "sysv64" fn sce_kernel_signal_sema(id: i32, count: i32) -> i32 {
    match sema_by_id(id) {
        None => sce(ESRCH),
        Some(s) => sce(s.signal(count)),
    }
}

/// `sceKernelCancelSema(id, count, waiters)`: wakes every waiter with ECANCELED and sets
/// the count (`count < 0`: back to the initial count).
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sceKernelCancelSema")]
pub unsafe extern "sysv64" fn sce_kernel_cancel_sema(
    id: i32,
    count: i32,
    waiters: *mut i32,
) -> i32 {
    let Some(s) = sema_by_id(id) else {
        return sce(ESRCH);
    };
    if count > s.max {
        return sce(EINVAL);
    }
    let mut g = lock(&s.state);
    if !waiters.is_null() {
        // SAFETY: a non-null out-pointer is writable.
        unsafe { waiters.write_unaligned(g.blocked() as i32) };
    }
    g.cancel_gen += 1;
    g.count = if count < 0 { s.init } else { count };
    g.wake_everyone();
    0
}

// ---------------------------------------------------------------------------------------
// POSIX sem_t and scePthreadSem*: pointer-sized handles made by sem_init
// ---------------------------------------------------------------------------------------

type S = *mut *mut Sema;

/// # Safety
/// `s` is null or the guest's `sem_t` slot.
unsafe fn psem<'a>(s: S) -> Option<&'a Sema> {
    if s.is_null() {
        return None;
    }
    // SAFETY: per the contract; non-null handles were made by sem_init.
    unsafe { slot(s).load(Ordering::Acquire).as_ref() }
}

unsafe fn sem_init_imp(s: S, _pshared: i32, value: u32) -> i32 {
    if s.is_null() || value > i32::MAX as u32 {
        return EINVAL;
    }
    let obj = Box::into_raw(Box::new(Sema::new(
        value as i32,
        i32::MAX,
        false,
        String::new(),
    )));
    // SAFETY: checked non-null.
    unsafe { slot(s) }.store(obj, Ordering::Release);
    0
}
unsafe fn sem_destroy_imp(s: S) -> i32 {
    // SAFETY: the guest's slot.
    let Some(obj) = (unsafe { psem(s) }) else {
        return EINVAL;
    };
    if !lock(&obj.state).queue.is_empty() {
        return EBUSY;
    }
    // SAFETY: the slot holds a box made by sem_init; destroying a semaphore in use is the
    // guest's bug.
    unsafe {
        let p = slot(s).swap(std::ptr::null_mut(), Ordering::AcqRel);
        drop(Box::from_raw(p));
    }
    0
}
unsafe fn sem_wait_imp(s: S, deadline: Result<Deadline, i32>) -> Waited<i32> {
    // SAFETY: the guest's slot.
    let Some(obj) = (unsafe { psem(s) }) else {
        return Waited::Done(EINVAL);
    };
    // A pending request is acted on before an available token is taken; the deadline is
    // checked only when the call must block, as POSIX allows.
    if cancel_pending() {
        return Waited::Cancelled;
    }
    if obj.poll(1) == 0 {
        return Waited::Done(0);
    }
    match deadline {
        Ok(d) => obj.wait(1, d),
        Err(e) => Waited::Done(e),
    }
}
unsafe fn sem_trywait_imp(s: S) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { psem(s) } {
        Some(obj) if obj.poll(1) == 0 => 0,
        Some(_) => EAGAIN,
        None => EINVAL,
    }
}
unsafe fn sem_post_imp(s: S) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { psem(s) } {
        Some(obj) => match obj.signal(1) {
            0 => 0,
            _ => EOVERFLOW,
        },
        None => EINVAL,
    }
}
unsafe fn sem_getvalue_imp(s: S, out: *mut i32) -> i32 {
    // SAFETY: the guest's slot.
    match unsafe { psem(s) } {
        Some(obj) if !out.is_null() => {
            // SAFETY: checked non-null.
            unsafe { out.write_unaligned(obj.value()) };
            0
        }
        _ => EINVAL,
    }
}

/// POSIX return convention: 0, or -1 with errno set.
fn posix(e: i32) -> i32 {
    if e == 0 {
        0
    } else {
        super::errors::set_errno(e);
        -1
    }
}

/// `sem_init`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sem_init")]
pub unsafe extern "sysv64" fn sem_init(s: S, pshared: i32, value: u32) -> i32 {
    // SAFETY: the guest's contract.
    posix(unsafe { sem_init_imp(s, pshared, value) })
}
/// `sem_destroy`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sem_destroy")]
pub unsafe extern "sysv64" fn sem_destroy(s: S) -> i32 {
    // SAFETY: the guest's contract.
    posix(unsafe { sem_destroy_imp(s) })
}
/// `sem_wait`: a cancellation point.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sem_wait")]
pub unsafe extern "sysv64-unwind" fn sem_wait(s: S) -> i32 {
    // SAFETY: the guest's contract.
    let w = guarded("sem_wait", || unsafe {
        sem_wait_imp(s, Ok(Deadline::Forever))
    });
    posix(act(w))
}
/// `sem_timedwait`: an absolute CLOCK_REALTIME deadline; a cancellation point.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sem_timedwait")]
pub unsafe extern "sysv64-unwind" fn sem_timedwait(s: S, abstime: *const GuestTimespec) -> i32 {
    // SAFETY: the guest's contract.
    let w = guarded("sem_timedwait", || unsafe {
        sem_wait_imp(s, Deadline::absolute(CLOCK_REALTIME, abstime))
    });
    posix(act(w))
}
/// `sem_trywait`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sem_trywait")]
pub unsafe extern "sysv64" fn sem_trywait(s: S) -> i32 {
    // SAFETY: the guest's contract.
    posix(unsafe { sem_trywait_imp(s) })
}
/// `sem_post`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sem_post")]
pub unsafe extern "sysv64" fn sem_post(s: S) -> i32 {
    // SAFETY: the guest's contract.
    posix(unsafe { sem_post_imp(s) })
}
/// `sem_getvalue`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("sem_getvalue")]
pub unsafe extern "sysv64" fn sem_getvalue(s: S, out: *mut i32) -> i32 {
    // SAFETY: the guest's contract.
    posix(unsafe { sem_getvalue_imp(s, out) })
}

/// `scePthreadSemInit(sem, flag, value, name)`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadSemInit")]
pub unsafe extern "sysv64" fn sce_pthread_sem_init(
    s: S,
    flag: i32,
    value: u32,
    _name: *const c_char,
) -> i32 {
    if flag != 0 {
        return sce(EINVAL);
    }
    // SAFETY: the guest's contract.
    sce(unsafe { sem_init_imp(s, 0, value) })
}
/// `scePthreadSemDestroy`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadSemDestroy")]
pub unsafe extern "sysv64" fn sce_pthread_sem_destroy(s: S) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { sem_destroy_imp(s) })
}
/// `scePthreadSemWait`: a cancellation point.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadSemWait")]
pub unsafe extern "sysv64-unwind" fn sce_pthread_sem_wait(s: S) -> i32 {
    // SAFETY: the guest's contract.
    let w = guarded("scePthreadSemWait", || unsafe {
        sem_wait_imp(s, Ok(Deadline::Forever))
    });
    sce(act(w))
}
/// `scePthreadSemTimedwait(sem, usec)`: a cancellation point.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadSemTimedwait")]
pub unsafe extern "sysv64-unwind" fn sce_pthread_sem_timedwait(s: S, usec: u32) -> i32 {
    // SAFETY: the guest's contract.
    let w = guarded("scePthreadSemTimedwait", || unsafe {
        sem_wait_imp(s, Ok(Deadline::after_micros(usec as u64)))
    });
    sce(act(w))
}
/// `scePthreadSemTrywait`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadSemTrywait")]
pub unsafe extern "sysv64" fn sce_pthread_sem_trywait(s: S) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { sem_trywait_imp(s) })
}
/// `scePthreadSemPost`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadSemPost")]
pub unsafe extern "sysv64" fn sce_pthread_sem_post(s: S) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { sem_post_imp(s) })
}
/// `scePthreadSemGetvalue`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadSemGetvalue")]
pub unsafe extern "sysv64" fn sce_pthread_sem_getvalue(s: S, out: *mut i32) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { sem_getvalue_imp(s, out) })
}
