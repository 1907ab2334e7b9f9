//! Guest threads (`scePthread*`) as host threads.
//!
//! A `ScePthread` is a pointer to a [`GuestThread`]. The host thread runs a trampoline
//! that records the current guest thread and calls the guest entry. `scePthreadExit`
//! ends the host thread with `pthread_exit`, whose forced unwind passes through the
//! guest's frames (their `.eh_frame` stays visible to the host unwinder) and the
//! `C-unwind` trampoline.

use super::errors::{EINVAL, ESRCH};
use std::cell::Cell;
use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// A guest thread entry point.
pub type GuestEntry = extern "sysv64" fn(*mut c_void) -> *mut c_void;

/// One guest thread.
pub struct GuestThread {
    /// Host thread, until joined or detached.
    host: Mutex<Option<host_libc::pthread_t>>,
    /// Name given at creation.
    pub name: String,
    /// A cancellation request is pending.
    pub cancel_requested: AtomicBool,
}

thread_local! {
    static CURRENT: Cell<*const GuestThread> = const { Cell::new(std::ptr::null()) };
}

struct StartInfo {
    thread: *const GuestThread,
    entry: GuestEntry,
    arg: *mut c_void,
}

extern "C-unwind" fn trampoline(info: *mut c_void) -> *mut c_void {
    // SAFETY: `info` is the box leaked by `create` for this thread alone.
    let info = unsafe { Box::from_raw(info.cast::<StartInfo>()) };
    CURRENT.with(|c| c.set(info.thread));
    (info.entry)(info.arg)
}

/// The calling thread's guest thread object (created on first use for threads the
/// guest did not create, such as the main thread).
pub fn current() -> *const GuestThread {
    CURRENT.with(|c| {
        if c.get().is_null() {
            let t = Box::leak(Box::new(GuestThread {
                // SAFETY: pthread_self has no preconditions.
                host: Mutex::new(Some(unsafe { host_libc::pthread_self() })),
                name: "main".into(),
                cancel_requested: AtomicBool::new(false),
            }));
            c.set(t);
        }
        c.get()
    })
}

#[export::nid("scePthreadCreate")]
pub unsafe extern "sysv64" fn sce_pthread_create(
    thread: *mut *const GuestThread,
    _attr: *const c_void,
    entry: Option<GuestEntry>,
    arg: *mut c_void,
    name: *const c_char,
) -> i32 {
    let Some(entry) = entry else { return EINVAL };
    if thread.is_null() {
        return EINVAL;
    }
    let name = if name.is_null() {
        String::new()
    } else {
        // SAFETY: a non-null name is a NUL-terminated guest string.
        unsafe { CStr::from_ptr(name) }
            .to_string_lossy()
            .into_owned()
    };
    // The object lives as long as the process: handles may be used after the thread ends.
    let t: &'static GuestThread = Box::leak(Box::new(GuestThread {
        host: Mutex::new(None),
        name,
        cancel_requested: AtomicBool::new(false),
    }));
    let info = Box::into_raw(Box::new(StartInfo {
        thread: t,
        entry,
        arg,
    }));
    let mut tid: host_libc::pthread_t = 0;
    // The trampoline unwinds on thread exit; pthread_create takes it as a C function.
    let start: extern "C" fn(*mut c_void) -> *mut c_void =
        // SAFETY: same signature; only the unwind permission differs.
        unsafe { std::mem::transmute(trampoline as extern "C-unwind" fn(*mut c_void) -> *mut c_void) };
    let mut guard = t.host.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: `tid` is writable; `info` stays valid until the trampoline takes it.
    let rc = unsafe { host_libc::pthread_create(&mut tid, std::ptr::null(), start, info.cast()) };
    if rc != 0 {
        // SAFETY: the thread did not start, so the box is still ours.
        drop(unsafe { Box::from_raw(info) });
        return super::errors::EAGAIN;
    }
    *guard = Some(tid);
    drop(guard);
    // SAFETY: checked non-null above.
    unsafe { *thread = t };
    0
}

#[export::nid("scePthreadJoin")]
pub unsafe extern "sysv64" fn sce_pthread_join(
    thread: *const GuestThread,
    value: *mut *mut c_void,
) -> i32 {
    if thread.is_null() {
        return EINVAL;
    }
    // SAFETY: guest thread handles are never freed.
    let t = unsafe { &*thread };
    let Some(tid) = t.host.lock().unwrap_or_else(|e| e.into_inner()).take() else {
        return ESRCH;
    };
    let mut out: *mut c_void = std::ptr::null_mut();
    // SAFETY: `tid` is a joinable host thread taken out of the handle exactly once.
    let rc = unsafe { host_libc::pthread_join(tid, &mut out) };
    if rc != 0 {
        return EINVAL;
    }
    if !value.is_null() {
        // SAFETY: a non-null result pointer is writable (the guest's contract).
        unsafe { *value = out };
    }
    0
}

#[export::nid("scePthreadSelf")]
pub extern "sysv64" fn sce_pthread_self() -> *const GuestThread {
    current()
}

/// Ends the calling guest thread with `value` as its result.
///
/// # Safety
/// Only guest threads (or the main thread) may call it; their frames are unwound.
#[export::nid("scePthreadExit")]
pub unsafe extern "sysv64-unwind" fn sce_pthread_exit(value: *mut c_void) {
    // SAFETY: ends the calling thread; its frames unwind (forced) to the trampoline.
    unsafe { host_libc::pthread_exit(value) }
}

#[export::nid("scePthreadCancel")]
pub unsafe extern "sysv64" fn sce_pthread_cancel(thread: *const GuestThread) -> i32 {
    if thread.is_null() {
        return ESRCH;
    }
    // SAFETY: guest thread handles are never freed.
    let t = unsafe { &*thread };
    // Deferred cancellation: acted on at the target's next cancellation point. A thread
    // that has already ended simply keeps the request, and the call succeeds.
    t.cancel_requested.store(true, Ordering::Release);
    0
}
