//! Event queues (`sceKernelCreateEqueue`, `sceKernelWaitEqueue`), which other libraries
//! post to: VideoOut's flip events, later timers and user events.
//!
//! An event is kqueue-like: one pending entry per (ident, filter), so events that fire
//! again before the title waits are merged (their count is in `fflags`).

use super::errors::{EINVAL, ESRCH};
use std::ffi::{c_char, c_void};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// `SCE_KERNEL_ERROR_ETIMEDOUT`.
pub const ETIMEDOUT: i32 = 0x8002_003C_u32 as i32;

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

/// One event queue.
pub struct Equeue {
    pending: Mutex<Vec<KernelEvent>>,
    wake: Condvar,
}

impl Equeue {
    /// Posts (or merges) an event and wakes a waiter.
    pub fn post(&self, ev: KernelEvent) {
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        match p
            .iter_mut()
            .find(|e| e.ident == ev.ident && e.filter == ev.filter)
        {
            Some(e) => {
                e.fflags = e.fflags.saturating_add(1);
                e.data = ev.data;
                e.udata = ev.udata;
            }
            None => p.push(KernelEvent { fflags: 1, ..ev }),
        }
        drop(p);
        self.wake.notify_all();
    }
}

/// A guest `SceKernelEqueue` handle is a pointer to an [`Equeue`].
pub type EqueueHandle = *const Equeue;

/// Resolves a guest handle; `None` for null.
///
/// # Safety
/// A non-null handle must come from `sceKernelCreateEqueue` and not be deleted.
pub unsafe fn from_handle<'a>(h: EqueueHandle) -> Option<&'a Equeue> {
    // SAFETY: per the contract.
    unsafe { h.as_ref() }
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
        pending: Mutex::new(Vec::new()),
        wake: Condvar::new(),
    }));
    // SAFETY: checked non-null.
    unsafe { *out = q };
    0
}

#[export::nid("sceKernelDeleteEqueue")]
pub unsafe extern "sysv64" fn sce_kernel_delete_equeue(q: EqueueHandle) -> i32 {
    if q.is_null() {
        return ESRCH;
    }
    // Queues are kept alive: other libraries may still hold them to post to, and a
    // waiter may be parked on one. The guest's handle is dead from here on.
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
    let Some(q) = (unsafe { from_handle(q) }) else {
        return ESRCH;
    };
    if events.is_null() || num <= 0 {
        return EINVAL;
    }
    // SAFETY: a non-null timeout points at a microsecond count.
    let deadline =
        unsafe { timeout_us.as_ref() }.map(|&us| Instant::now() + Duration::from_micros(us as u64));
    let mut p = q.pending.lock().unwrap_or_else(|e| e.into_inner());
    while p.is_empty() {
        match deadline {
            None => p = q.wake.wait(p).unwrap_or_else(|e| e.into_inner()),
            Some(d) => {
                let now = Instant::now();
                if now >= d {
                    if !out.is_null() {
                        // SAFETY: a non-null count pointer is writable.
                        unsafe { *out = 0 };
                    }
                    return ETIMEDOUT;
                }
                p = q
                    .wake
                    .wait_timeout(p, d - now)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        }
    }
    let n = p.len().min(num as usize);
    for (i, ev) in p.drain(..n).enumerate() {
        // SAFETY: the guest passed room for `num` events.
        unsafe { *events.add(i) = ev };
    }
    if !out.is_null() {
        // SAFETY: a non-null count pointer is writable.
        unsafe { *out = n as i32 };
    }
    0
}
