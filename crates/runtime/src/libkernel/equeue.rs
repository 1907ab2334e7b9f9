//! Event queues (`sceKernelCreateEqueue`, `sceKernelWaitEqueue`) with the sources titles
//! add themselves (user events, timers) and those other libraries post to (VideoOut's
//! flip events, APR completions).
//!
//! An event is kqueue-like: one entry per (ident, filter). A source that fires again
//! before the title waits is merged into its entry (the count is in `fflags` for posted
//! events, `data` for timers). Level-triggered user events stay triggered after a wait
//! returns them, as FreeBSD `EVFILT_USER` without `EV_CLEAR`; edge ones and timers reset.
//!
//! Timers need no thread: a wait computes when the next timer is due and wakes then.

use super::errors::{EBADF, EINVAL, ENOENT};
use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// `SCE_KERNEL_ERROR_ETIMEDOUT`.
pub const ETIMEDOUT: i32 = 0x8002_003C_u32 as i32;

/// `SCE_KERNEL_EVFILT_TIMER`.
pub const EVFILT_TIMER: i16 = -7;
/// `SCE_KERNEL_EVFILT_USER`.
pub const EVFILT_USER: i16 = -11;
/// `SCE_KERNEL_EVFILT_HRTIMER`.
pub const EVFILT_HRTIMER: i16 = -15;
/// The filter of APR/AMM `WriteKernelEventQueue` completions.
pub const EVFILT_AMPR: i16 = -25;

/// `EV_ONESHOT`.
const EV_ONESHOT: u16 = 0x10;
/// `EV_CLEAR`.
const EV_CLEAR: u16 = 0x20;

/// The guest's event record (FreeBSD `struct kevent`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct KernelEvent {
    /// Identifier of the event source.
    pub ident: u64,
    /// Filter (kind of source), negative by convention.
    pub filter: i16,
    /// Flags.
    pub flags: u16,
    /// Filter flags; we keep the number of merged triggers here.
    pub fflags: u32,
    /// Filter data.
    pub data: i64,
    /// The user data given when the event was added.
    pub udata: *mut c_void,
}
const _: () = assert!(std::mem::size_of::<KernelEvent>() == 32);
const _: () = assert!(std::mem::offset_of!(KernelEvent, filter) == 8);
const _: () = assert!(std::mem::offset_of!(KernelEvent, data) == 16);
const _: () = assert!(std::mem::offset_of!(KernelEvent, udata) == 24);

// SAFETY: `udata` is an opaque guest value that is only handed back, never dereferenced.
unsafe impl Send for KernelEvent {}

/// A timer source.
#[derive(Clone, Copy)]
struct Timer {
    next: Instant,
    /// `None` for a one-shot timer.
    period: Option<Duration>,
}

/// One entry of a queue.
struct Entry {
    ev: KernelEvent,
    triggered: bool,
    /// Added by the title (kept after delivery) rather than only posted.
    registered: bool,
    timer: Option<Timer>,
}

/// One event queue.
pub struct Equeue {
    entries: Mutex<Vec<Entry>>,
    wake: Condvar,
    deleted: AtomicBool,
}

impl Equeue {
    fn lock(&self) -> MutexGuard<'_, Vec<Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Posts (or merges) an event and wakes a waiter.
    pub fn post(&self, ev: KernelEvent) {
        let mut p = self.lock();
        match p
            .iter_mut()
            .find(|e| e.ev.ident == ev.ident && e.ev.filter == ev.filter)
        {
            Some(e) => {
                e.ev.fflags = if e.triggered {
                    e.ev.fflags.saturating_add(1)
                } else {
                    1
                };
                e.ev.data = ev.data;
                e.ev.udata = ev.udata;
                e.triggered = true;
            }
            None => p.push(Entry {
                ev: KernelEvent { fflags: 1, ..ev },
                triggered: true,
                registered: false,
                timer: None,
            }),
        }
        drop(p);
        self.wake.notify_all();
    }

    /// Fires due timers; returns when the next one is due.
    fn run_timers(entries: &mut [Entry], now: Instant) -> Option<Instant> {
        let mut next: Option<Instant> = None;
        for e in entries.iter_mut() {
            let Some(t) = e.timer.as_mut() else { continue };
            if now >= t.next {
                let fired = match t.period {
                    Some(p) => {
                        let behind = now.duration_since(t.next).as_nanos() / p.as_nanos().max(1);
                        let n = behind as u64 + 1;
                        t.next += p * n as u32;
                        n
                    }
                    None => {
                        e.timer = None;
                        1
                    }
                };
                let before = if e.triggered { e.ev.data } else { 0 };
                e.ev.data = before + fired as i64;
                e.triggered = true;
            }
            if let Some(t) = e.timer {
                next = Some(next.map_or(t.next, |n| n.min(t.next)));
            }
        }
        next
    }
}

/// A guest `SceKernelEqueue` handle is a pointer to an [`Equeue`].
pub type EqueueHandle = *const Equeue;

/// Resolves a guest handle; `None` for null.
///
/// # Safety
/// A non-null handle must come from `sceKernelCreateEqueue`.
pub unsafe fn from_handle<'a>(h: EqueueHandle) -> Option<&'a Equeue> {
    // SAFETY: per the contract (queues are never freed).
    unsafe { h.as_ref() }
}

/// A live queue for a guest call: EBADF for null or deleted handles.
///
/// # Safety
/// As [`from_handle`].
unsafe fn live<'a>(h: EqueueHandle) -> Result<&'a Equeue, i32> {
    // SAFETY: per the contract.
    match unsafe { from_handle(h) } {
        Some(q) if !q.deleted.load(Ordering::Acquire) => Ok(q),
        _ => Err(EBADF),
    }
}

#[export::nid("sceKernelCreateEqueue")]
pub unsafe extern "sysv64" fn sce_kernel_create_equeue(
    out: *mut EqueueHandle,
    _name: *const c_char,
) -> i32 {
    if out.is_null() {
        return EINVAL;
    }
    let q = Box::into_raw(Box::new(Equeue {
        entries: Mutex::new(Vec::new()),
        wake: Condvar::new(),
        deleted: AtomicBool::new(false),
    }));
    // SAFETY: checked non-null.
    unsafe { *out = q };
    0
}

#[export::nid("sceKernelDeleteEqueue")]
pub unsafe extern "sysv64" fn sce_kernel_delete_equeue(q: EqueueHandle) -> i32 {
    // SAFETY: the guest's handle contract.
    let q = match unsafe { live(q) } {
        Ok(q) => q,
        Err(e) => return e,
    };
    // The memory is kept: other libraries may still hold the queue to post to, and a
    // waiter may be parked on it. Its events go, waiters wake with EBADF, and the
    // guest's handle is dead from here on.
    q.deleted.store(true, Ordering::Release);
    q.lock().clear();
    q.wake.notify_all();
    0
}

#[export::nid("sceKernelWaitEqueue")]
pub unsafe extern "sysv64" fn sce_kernel_wait_equeue(
    q: EqueueHandle,
    events: *mut KernelEvent,
    num: i32,
    out: *mut i32,
    timeout_us: *const u32,
) -> i32 {
    // SAFETY: the guest's handle contract.
    let q = match unsafe { live(q) } {
        Ok(q) => q,
        Err(e) => return e,
    };
    if events.is_null() || num <= 0 {
        return EINVAL;
    }
    let set_out = |n: i32| {
        if !out.is_null() {
            // SAFETY: a non-null count pointer is writable.
            unsafe { *out = n };
        }
    };
    // SAFETY: a non-null timeout points at a microsecond count.
    let deadline =
        unsafe { timeout_us.as_ref() }.map(|&us| Instant::now() + Duration::from_micros(us as u64));
    let mut p = q.lock();
    loop {
        if q.deleted.load(Ordering::Acquire) {
            set_out(0);
            return EBADF;
        }
        let now = Instant::now();
        let next_timer = Equeue::run_timers(&mut p, now);
        if p.iter().any(|e| e.triggered) {
            break;
        }
        let wake_at = match (deadline, next_timer) {
            (Some(d), Some(t)) => Some(d.min(t)),
            (d, t) => d.or(t),
        };
        if deadline.is_some_and(|d| now >= d) {
            set_out(0);
            return ETIMEDOUT;
        }
        p = match wake_at {
            None => q.wake.wait(p).unwrap_or_else(|e| e.into_inner()),
            Some(w) => {
                q.wake
                    .wait_timeout(p, w.saturating_duration_since(now))
                    .unwrap_or_else(|e| e.into_inner())
                    .0
            }
        };
    }
    let mut n = 0usize;
    let mut i = 0usize;
    while i < p.len() && n < num as usize {
        if !p[i].triggered {
            i += 1;
            continue;
        }
        // SAFETY: the guest passed room for `num` events.
        unsafe { *events.add(n) = p[i].ev };
        n += 1;
        let e = &mut p[i];
        let level = e.registered && e.ev.filter == EVFILT_USER && e.ev.flags & EV_CLEAR == 0;
        if !e.registered || e.ev.flags & EV_ONESHOT != 0 {
            p.remove(i);
            continue;
        }
        if !level {
            e.triggered = false;
            e.ev.fflags = 0;
            if e.timer.is_some() || e.ev.filter == EVFILT_TIMER {
                e.ev.data = 0;
            }
        }
        i += 1;
    }
    set_out(n as i32);
    0
}

/// Adds (or replaces) a registered entry.
fn register(q: &Equeue, ev: KernelEvent, triggered: bool, timer: Option<Timer>) {
    let mut p = q.lock();
    p.retain(|e| !(e.ev.ident == ev.ident && e.ev.filter == ev.filter));
    p.push(Entry {
        ev,
        triggered,
        registered: true,
        timer,
    });
    drop(p);
    q.wake.notify_all();
}

/// Removes a registered entry; ENOENT when there is none.
fn unregister(q: &Equeue, ident: u64, filter: i16) -> i32 {
    let mut p = q.lock();
    let before = p.len();
    p.retain(|e| !(e.ev.ident == ident && e.ev.filter == filter && e.registered));
    if p.len() == before {
        ENOENT
    } else {
        0
    }
}

fn add_user(q: EqueueHandle, id: i32, flags: u16) -> i32 {
    // SAFETY: the guest's handle contract.
    let q = match unsafe { live(q) } {
        Ok(q) => q,
        Err(e) => return e,
    };
    let ev = KernelEvent {
        ident: id as i64 as u64,
        filter: EVFILT_USER,
        flags,
        ..KernelEvent::default()
    };
    register(q, ev, false, None);
    0
}

#[export::nid("sceKernelAddUserEvent")]
pub extern "sysv64" fn sce_kernel_add_user_event(q: EqueueHandle, id: i32) -> i32 {
    add_user(q, id, 0)
}

#[export::nid("sceKernelAddUserEventEdge")]
pub extern "sysv64" fn sce_kernel_add_user_event_edge(q: EqueueHandle, id: i32) -> i32 {
    add_user(q, id, EV_CLEAR)
}

#[export::nid("sceKernelTriggerUserEvent")]
pub extern "sysv64" fn sce_kernel_trigger_user_event(
    q: EqueueHandle,
    id: i32,
    udata: *mut c_void,
) -> i32 {
    // SAFETY: the guest's handle contract.
    let q = match unsafe { live(q) } {
        Ok(q) => q,
        Err(e) => return e,
    };
    let mut p = q.lock();
    let ident = id as i64 as u64;
    let Some(e) = p
        .iter_mut()
        .find(|e| e.ev.ident == ident && e.ev.filter == EVFILT_USER && e.registered)
    else {
        return ENOENT;
    };
    e.ev.fflags = if e.triggered { e.ev.fflags + 1 } else { 1 };
    e.ev.udata = udata;
    e.triggered = true;
    drop(p);
    q.wake.notify_all();
    0
}

#[export::nid("sceKernelDeleteUserEvent")]
pub extern "sysv64" fn sce_kernel_delete_user_event(q: EqueueHandle, id: i32) -> i32 {
    // SAFETY: the guest's handle contract.
    match unsafe { live(q) } {
        Ok(q) => unregister(q, id as i64 as u64, EVFILT_USER),
        Err(e) => e,
    }
}

#[export::nid("sceKernelAddTimerEvent")]
pub extern "sysv64" fn sce_kernel_add_timer_event(
    q: EqueueHandle,
    id: i32,
    usec: u32,
    udata: *mut c_void,
) -> i32 {
    // SAFETY: the guest's handle contract.
    let q = match unsafe { live(q) } {
        Ok(q) => q,
        Err(e) => return e,
    };
    if usec == 0 {
        return EINVAL;
    }
    let period = Duration::from_micros(usec as u64);
    let ev = KernelEvent {
        ident: id as i64 as u64,
        filter: EVFILT_TIMER,
        flags: EV_CLEAR,
        udata,
        ..KernelEvent::default()
    };
    let timer = Timer {
        next: Instant::now() + period,
        period: Some(period),
    };
    register(q, ev, false, Some(timer));
    0
}

#[export::nid("sceKernelDeleteTimerEvent")]
pub extern "sysv64" fn sce_kernel_delete_timer_event(q: EqueueHandle, id: i32) -> i32 {
    // SAFETY: the guest's handle contract.
    match unsafe { live(q) } {
        Ok(q) => unregister(q, id as i64 as u64, EVFILT_TIMER),
        Err(e) => e,
    }
}

/// `SceKernelTimespec`.
#[repr(C)]
pub struct Timespec {
    /// Seconds.
    pub tv_sec: i64,
    /// Nanoseconds.
    pub tv_nsec: i64,
}

#[export::nid("sceKernelAddHRTimerEvent")]
pub unsafe extern "sysv64" fn sce_kernel_add_hr_timer_event(
    q: EqueueHandle,
    id: i32,
    ts: *const Timespec,
    udata: *mut c_void,
) -> i32 {
    // SAFETY: the guest's handle contract.
    let q = match unsafe { live(q) } {
        Ok(q) => q,
        Err(e) => return e,
    };
    // SAFETY: a non-null timespec is readable.
    let Some(ts) = (unsafe { ts.as_ref() }) else {
        return EINVAL;
    };
    if ts.tv_sec < 0 || !(0..1_000_000_000).contains(&ts.tv_nsec) {
        return EINVAL;
    }
    let after = Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
    let ev = KernelEvent {
        ident: id as i64 as u64,
        filter: EVFILT_HRTIMER,
        flags: EV_ONESHOT,
        udata,
        ..KernelEvent::default()
    };
    let timer = Timer {
        next: Instant::now() + after,
        period: None,
    };
    register(q, ev, false, Some(timer));
    0
}

#[export::nid("sceKernelDeleteHRTimerEvent")]
pub extern "sysv64" fn sce_kernel_delete_hr_timer_event(q: EqueueHandle, id: i32) -> i32 {
    // SAFETY: the guest's handle contract.
    match unsafe { live(q) } {
        Ok(q) => unregister(q, id as i64 as u64, EVFILT_HRTIMER),
        Err(e) => e,
    }
}

#[export::nid("sceKernelGetEventUserData")]
pub unsafe extern "sysv64" fn sce_kernel_get_event_user_data(
    ev: *const KernelEvent,
) -> *mut c_void {
    // SAFETY: a non-null event is one the guest got from a wait.
    unsafe { ev.as_ref() }.map_or(std::ptr::null_mut(), |e| e.udata)
}

#[export::nid("sceKernelGetEventId")]
pub unsafe extern "sysv64" fn sce_kernel_get_event_id(ev: *const KernelEvent) -> u64 {
    // SAFETY: as above.
    unsafe { ev.as_ref() }.map_or(0, |e| e.ident)
}

#[export::nid("sceKernelGetEventFilter")]
pub unsafe extern "sysv64" fn sce_kernel_get_event_filter(ev: *const KernelEvent) -> i32 {
    // SAFETY: as above.
    unsafe { ev.as_ref() }.map_or(0, |e| e.filter as i32)
}

#[export::nid("sceKernelGetEventData")]
pub unsafe extern "sysv64" fn sce_kernel_get_event_data(ev: *const KernelEvent) -> i64 {
    // SAFETY: as above.
    unsafe { ev.as_ref() }.map_or(0, |e| e.data)
}

#[export::nid("sceKernelGetEventFflags")]
pub unsafe extern "sysv64" fn sce_kernel_get_event_fflags(ev: *const KernelEvent) -> u32 {
    // SAFETY: as above.
    unsafe { ev.as_ref() }.map_or(0, |e| e.fflags)
}
