//! Guest threads (`scePthread*` and the POSIX names) as host threads with FreeBSD/PS5
//! semantics: attributes, names, priorities 256–767, affinity masks, thread-specific data,
//! cleanup handlers and deferred cancellation.
//!
//! A `ScePthread` is the address of a [`GuestThread`]. Live threads are kept in a registry
//! (touched only by create, join, detach, cancel and the calls that name another thread),
//! so a stale or bogus handle gets ESRCH instead of a crash. A thread's own calls
//! (`scePthreadSelf`, keys, cancellation state) never touch the registry.
//!
//! # Cancellation (the reference architecture's contract)
//! Threads start with cancellation enabled and deferred. `scePthreadCancel` records a
//! request and wakes the target if it is blocked at a cancellation point; it never
//! interrupts a running frame. The cancellation points are condition, semaphore and join
//! waits and `scePthreadTestcancel`. A disabled request stays pending; enabling deferred
//! cancellation does not act on it, the next cancellation point does. Acting on it is
//! `scePthreadExit(PTHREAD_CANCELED)`: cleanup handlers run in reverse push order, then
//! thread-specific destructors; while they run no cancellation point acts again. The host
//! thread then ends with `pthread_exit`, whose forced unwind passes through the guest's
//! frames, and join waits for the host thread to terminate.
//!
//! Cancellation points are `extern "sysv64-unwind"` exports: their Rust work runs inside
//! [`guarded`] and returns a [`Waited`]; only after every Rust value is dropped does the
//! export start the exit, so the forced unwind crosses only plain frames.

use super::wait::{
    errno::*, futex_wait, futex_wake, guarded, guest_str, lock, sce, Deadline, GuestPtr,
    GuestTimespec, Wake, CLOCK_REALTIME,
};
use std::cell::{Cell, RefCell, UnsafeCell};
use std::collections::BTreeMap;
use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// A guest thread entry point.
pub type GuestEntry = extern "sysv64" fn(*mut c_void) -> *mut c_void;
/// A cleanup handler or TSD destructor.
pub type GuestRoutine = extern "sysv64" fn(*mut c_void);

/// `PTHREAD_CANCELED`: the result of a cancelled thread.
#[allow(clippy::manual_dangling_ptr)] // 1 is the ABI value, not a placeholder
pub const PTHREAD_CANCELED: *mut c_void = 1 as *mut c_void;
/// Lowest (numerically smallest, most urgent) guest priority.
pub const PRIO_HIGHEST: i32 = 256;
/// Highest number a guest priority may have.
pub const PRIO_LOWEST: i32 = 767;
/// The priority of threads created without attributes (SCE_KERNEL_PRIO_FIFO_DEFAULT).
pub const PRIO_DEFAULT: i32 = 700;
/// `SCHED_FIFO`, `SCHED_OTHER`, `SCHED_RR` (FreeBSD numbers).
pub const SCHED_FIFO: i32 = 1;
/// See [`SCHED_FIFO`].
pub const SCHED_OTHER: i32 = 2;
/// See [`SCHED_FIFO`].
pub const SCHED_RR: i32 = 3;
/// `PTHREAD_INHERIT_SCHED`.
pub const INHERIT_SCHED: i32 = 4;
/// `PTHREAD_EXPLICIT_SCHED`.
pub const EXPLICIT_SCHED: i32 = 0;
/// The affinity of threads nobody pinned: the seven CPUs a PS4 title owns
/// (SCE_KERNEL_CPUMASK_USER_ALL on that console).
pub const AFFINITY_DEFAULT: u64 = 0x7f;
/// Thread names hold at most this many bytes, NUL included.
pub const NAME_MAX: usize = 32;
/// The smallest stack a guest may ask for.
pub const STACK_MIN: usize = 16 * 1024;
/// The stack of threads created without a size.
pub const STACK_DEFAULT: usize = 1024 * 1024;
/// Extra host stack under every guest-sized stack: our own exports run on it too, and
/// a debug build of them needs more than a title's tiny worker stacks leave.
const STACK_MARGIN: usize = 256 * 1024;
/// `PTHREAD_KEYS_MAX`.
pub const KEYS_MAX: usize = 256;
/// `PTHREAD_DESTRUCTOR_ITERATIONS`.
const DESTRUCTOR_ITERATIONS: usize = 4;

// Cancellation flags.
const CANCEL_REQUESTED: u32 = 1;
const CANCEL_DISABLED: u32 = 2;
const CANCEL_ASYNC: u32 = 4;
const EXITING: u32 = 8;

/// Lifecycle, under the thread's own lock.
struct Life {
    host: Option<host_libc::pthread_t>,
    exited: bool,
    detached: bool,
    joiner: bool,
    result: GuestPtr,
}

/// A pending cleanup handler (pushed by `__pthread_cleanup_push_imp`).
#[derive(Clone, Copy)]
struct Cleanup {
    routine: GuestRoutine,
    arg: *mut c_void,
}

/// One guest thread.
pub struct GuestThread {
    life: Mutex<Life>,
    exit_cv: Condvar,
    name: Mutex<String>,
    id: i32,
    prio: AtomicI32,
    policy: AtomicI32,
    affinity: AtomicU64,
    cancel: AtomicU32,
    /// The object this thread blocks on at a cancellation point, for `cancel` to wake.
    blocked_on: Mutex<Option<WakePtr>>,
    /// Touched only by the thread itself.
    own: UnsafeCell<Own>,
}

#[derive(Default)]
struct Own {
    cleanup: Vec<Cleanup>,
    /// (key sequence number, value) per key.
    tsd: Vec<(u32, usize)>,
}

#[derive(Clone, Copy)]
struct WakePtr(*const dyn Wake);
// SAFETY: the pointee is a Sync object kept alive by the waiter for as long as it is set.
unsafe impl Send for WakePtr {}

// SAFETY: shared fields are atomics or mutexes; `own` is only touched by its thread.
unsafe impl Sync for GuestThread {}
// SAFETY: as above.
unsafe impl Send for GuestThread {}

impl Wake for GuestThread {
    fn wake_all(&self) {
        let _g = lock(&self.life);
        self.exit_cv.notify_all();
    }
}

static NEXT_ID: AtomicI32 = AtomicI32::new(1);
static REGISTRY: Mutex<BTreeMap<usize, Arc<GuestThread>>> = Mutex::new(BTreeMap::new());

thread_local! {
    static CURRENT: Cell<*const GuestThread> = const { Cell::new(std::ptr::null()) };
    static OWN_REF: RefCell<Option<Arc<GuestThread>>> = const { RefCell::new(None) };
}

impl GuestThread {
    fn new(name: String, prio: i32, policy: i32, affinity: u64) -> Self {
        GuestThread {
            life: Mutex::new(Life {
                host: None,
                exited: false,
                detached: false,
                joiner: false,
                result: GuestPtr(std::ptr::null_mut()),
            }),
            exit_cv: Condvar::new(),
            name: Mutex::new(name),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            prio: AtomicI32::new(prio),
            policy: AtomicI32::new(policy),
            affinity: AtomicU64::new(affinity),
            cancel: AtomicU32::new(0),
            blocked_on: Mutex::new(None),
            own: UnsafeCell::new(Own::default()),
        }
    }

    /// The thread's own state.
    ///
    /// # Safety
    /// Only the thread itself may call this, and not while an earlier borrow is live.
    #[allow(clippy::mut_from_ref)]
    unsafe fn own(&self) -> &mut Own {
        // SAFETY: per the contract, this thread is the only user.
        unsafe { &mut *self.own.get() }
    }

    /// The thread's name.
    pub fn name(&self) -> String {
        lock(&self.name).clone()
    }
}

fn install(t: Arc<GuestThread>) {
    CURRENT.with(|c| c.set(Arc::as_ptr(&t)));
    OWN_REF.with(|o| *o.borrow_mut() = Some(t));
}

/// The calling thread's guest thread object (made on first use for threads the guest did
/// not create, such as the main thread). Valid for as long as the calling thread runs.
pub fn current() -> &'static GuestThread {
    let p = CURRENT.with(|c| c.get());
    if !p.is_null() {
        // SAFETY: the thread's own Arc (in OWN_REF) keeps it alive while the thread runs.
        return unsafe { &*p };
    }
    let is_main = NEXT_ID.load(Ordering::Relaxed) == 1;
    let t = Arc::new(GuestThread::new(
        if is_main { "main" } else { "" }.into(),
        PRIO_DEFAULT,
        SCHED_OTHER,
        AFFINITY_DEFAULT,
    ));
    // SAFETY: pthread_self has no preconditions.
    lock(&t.life).host = Some(unsafe { host_libc::pthread_self() });
    lock(&REGISTRY).insert(Arc::as_ptr(&t) as usize, t.clone());
    let p = Arc::as_ptr(&t);
    install(t);
    // SAFETY: just installed; kept alive by OWN_REF.
    unsafe { &*p }
}

/// The calling thread's priority (semaphores and event flags order waiters by it).
pub fn current_prio() -> i32 {
    current().prio.load(Ordering::Relaxed)
}

/// The live thread behind a guest handle.
fn lookup(h: *const GuestThread) -> Option<Arc<GuestThread>> {
    lock(&REGISTRY).get(&(h as usize)).cloned()
}

/// The outcome of a wait at a cancellation point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waited<T> {
    /// The wait ended normally (or with an error) with this value.
    Done(T),
    /// A cancellation request must be acted on: the caller exits the thread.
    Cancelled,
}

/// True when the calling thread must act on a cancellation request at a cancellation point.
pub fn cancel_pending() -> bool {
    let f = current().cancel.load(Ordering::SeqCst);
    f & (CANCEL_REQUESTED | CANCEL_DISABLED | EXITING) == CANCEL_REQUESTED
}

/// Marks the calling thread as blocked on `obj` at a cancellation point, so that a
/// cancellation request wakes it. The waiter then takes `obj`'s internal lock and checks
/// [`cancel_pending`] under it before every sleep.
pub fn begin_wait(obj: &dyn Wake) {
    // SAFETY: only the lifetime is erased; `end_wait` clears it before `obj` can go away.
    let p: *const dyn Wake = unsafe { std::mem::transmute::<&dyn Wake, &'static dyn Wake>(obj) };
    *lock(&current().blocked_on) = Some(WakePtr(p));
}

/// Ends a wait started with [`begin_wait`].
pub fn end_wait() {
    *lock(&current().blocked_on) = None;
}

/// Acts on the outcome of a cancellation point: exits the thread for `Cancelled`.
pub fn act<T>(w: Waited<T>) -> T {
    match w {
        Waited::Done(v) => v,
        Waited::Cancelled => exit_thread(PTHREAD_CANCELED),
    }
}

unsafe extern "C-unwind" {
    // Declared here with C-unwind: it ends the thread with a forced unwind.
    #[link_name = "pthread_exit"]
    fn host_pthread_exit(value: *mut c_void) -> !;
}

/// Ends the calling thread with `value`: cleanup handlers (newest first), then TSD
/// destructors, then the host thread ends. Every frame between here and the guest must
/// hold nothing that needs dropping.
// `value` is the guest's result, handed on to the joiner, never dereferenced.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
pub fn exit_thread(value: *mut c_void) -> ! {
    prepare_exit(value);
    // SAFETY: the thread ends; its frames (ours hold nothing droppable) unwind to the
    // trampoline, or the host start routine for threads we did not create.
    unsafe { host_pthread_exit(value) }
}

fn prepare_exit(value: *mut c_void) {
    let t = current();
    let before = t.cancel.fetch_or(EXITING, Ordering::SeqCst);
    if before & EXITING != 0 {
        crate::guest_io::flush_all();
        eprintln!(
            "native5: thread {:?} called scePthreadExit from a cleanup handler or destructor; aborting",
            t.name()
        );
        std::process::abort();
    }
    loop {
        // SAFETY: our own state; the borrow ends before the handler runs.
        let next = unsafe { t.own() }.cleanup.pop();
        match next {
            Some(c) => (c.routine)(c.arg),
            None => break,
        }
    }
    run_tsd_destructors(t);
    finish(t, value);
}

/// Records the result and wakes a joiner; a detached thread leaves the registry.
fn finish(t: &GuestThread, value: *mut c_void) {
    let mut life = lock(&t.life);
    life.exited = true;
    life.result = GuestPtr(value);
    let detached = life.detached;
    t.exit_cv.notify_all();
    drop(life);
    if detached {
        let removed = lock(&REGISTRY).remove(&(t as *const GuestThread as usize));
        drop(removed);
    }
}

struct StartInfo {
    thread: Arc<GuestThread>,
    entry: GuestEntry,
    arg: *mut c_void,
}

extern "C-unwind" fn trampoline(info: *mut c_void) -> *mut c_void {
    // Nothing droppable may stay in this frame across the guest call: scePthreadExit
    // unwinds through it.
    let (entry, arg) = {
        // SAFETY: `info` is the box leaked by `create` for this thread alone.
        let info = unsafe { Box::from_raw(info.cast::<StartInfo>()) };
        let StartInfo { thread, entry, arg } = *info;
        set_host_name(&thread.name());
        install(thread);
        (entry, arg)
    };
    let r = entry(arg);
    // Returning from the entry is scePthreadExit(r), minus the cleanup handlers (the
    // guest must have popped them).
    let t = current();
    t.cancel.fetch_or(EXITING, Ordering::SeqCst);
    run_tsd_destructors(t);
    finish(t, r);
    r
}

fn set_host_name(name: &str) {
    // Host names are limited to 15 bytes; it only helps debuggers.
    let mut b: Vec<u8> = name.bytes().filter(|&c| c != 0).take(15).collect();
    b.push(0);
    // SAFETY: `b` is NUL-terminated; naming the calling thread has no other precondition.
    unsafe { host_libc::pthread_setname_np(host_libc::pthread_self(), b.as_ptr().cast()) };
}

// ---------------------------------------------------------------------------------------
// Attributes
// ---------------------------------------------------------------------------------------

/// What a `ScePthreadAttr` handle points at.
#[derive(Clone, Debug)]
pub struct ThreadAttr {
    stacksize: usize,
    stackaddr: usize,
    guardsize: usize,
    detached: bool,
    inherit: i32,
    policy: i32,
    prio: i32,
    affinity: u64,
    scope: i32,
}

impl Default for ThreadAttr {
    fn default() -> Self {
        ThreadAttr {
            stacksize: STACK_DEFAULT,
            stackaddr: 0,
            guardsize: 4096,
            detached: false,
            inherit: INHERIT_SCHED,
            policy: SCHED_OTHER,
            prio: PRIO_DEFAULT,
            affinity: AFFINITY_DEFAULT,
            scope: 0,
        }
    }
}

/// The attribute object behind a guest `ScePthreadAttr *`.
///
/// # Safety
/// `a` is null or points at a handle slot.
unsafe fn attr<'a>(a: *const *mut ThreadAttr) -> Option<&'a mut ThreadAttr> {
    if a.is_null() {
        return None;
    }
    // SAFETY: per the contract; non-null handles were made by attr_init.
    unsafe { (*a).as_mut() }
}

/// Defines an export pair for a function returning an errno: the `sce*` name returns
/// SCE errors, the POSIX name plain errno values.
macro_rules! pair {
    ($sce:literal, $posix:literal, $m:ident, $imp:path, ($($a:ident: $t:ty),*)) => {
        #[doc = concat!("`", $sce, "` and `", $posix, "`.")]
        pub mod $m {
            #[allow(unused_imports)]
            use super::*;
            ///
            /// # Safety
            /// The console API's contract: pointers are null or valid for what the call reads
            /// and writes.
            #[export::nid($sce)]
            pub unsafe extern "sysv64" fn sce_name($($a: $t),*) -> i32 {
                // SAFETY: the guest's contract is the one of the implementation.
                sce(unsafe { $imp($($a),*) })
            }
            ///
            /// # Safety
            /// The console API's contract: pointers are null or valid for what the call reads
            /// and writes.
            #[export::nid($posix)]
            pub unsafe extern "sysv64" fn posix_name($($a: $t),*) -> i32 {
                // SAFETY: as above.
                unsafe { $imp($($a),*) }
            }
        }
    };
}
pub(crate) use pair;

/// An export with only one (SCE-error) name.
macro_rules! sce_only {
    ($sce:literal, $m:ident, $imp:path, ($($a:ident: $t:ty),*)) => {
        #[doc = concat!("`", $sce, "`.")]
        pub mod $m {
            #[allow(unused_imports)]
            use super::*;
            ///
            /// # Safety
            /// The console API's contract: pointers are null or valid for what the call reads
            /// and writes.
            #[export::nid($sce)]
            pub unsafe extern "sysv64" fn sce_name($($a: $t),*) -> i32 {
                // SAFETY: the guest's contract is the one of the implementation.
                sce(unsafe { $imp($($a),*) })
            }
        }
    };
}
pub(crate) use sce_only;

/// An export with only a POSIX (errno) name.
macro_rules! posix_only {
    ($posix:literal, $m:ident, $imp:path, ($($a:ident: $t:ty),*)) => {
        #[doc = concat!("`", $posix, "`.")]
        pub mod $m {
            #[allow(unused_imports)]
            use super::*;
            ///
            /// # Safety
            /// The console API's contract: pointers are null or valid for what the call reads
            /// and writes.
            #[export::nid($posix)]
            pub unsafe extern "sysv64" fn posix_name($($a: $t),*) -> i32 {
                // SAFETY: the guest's contract is the one of the implementation.
                unsafe { $imp($($a),*) }
            }
        }
    };
}
pub(crate) use posix_only;

type AttrH = *mut *mut ThreadAttr;
type AttrC = *const *mut ThreadAttr;

unsafe fn attr_init(a: AttrH) -> i32 {
    if a.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null; the guest's slot is writable.
    unsafe { *a = Box::into_raw(Box::default()) };
    0
}
unsafe fn attr_destroy(a: AttrH) -> i32 {
    // SAFETY: a null slot pointer is refused inside.
    if unsafe { attr(a) }.is_none() {
        return EINVAL;
    }
    // SAFETY: the slot holds a box made by attr_init.
    unsafe {
        drop(Box::from_raw(*a));
        *a = std::ptr::null_mut();
    }
    0
}

/// Reads a field of an attribute into a guest out-pointer.
macro_rules! attr_get {
    ($fn:ident, $ty:ty, |$x:ident| $e:expr) => {
        unsafe fn $fn(a: AttrC, out: *mut $ty) -> i32 {
            // SAFETY: a null handle is refused by `attr`.
            match unsafe { attr(a) } {
                Some($x) if !out.is_null() => {
                    // SAFETY: checked non-null; the guest passes a writable location.
                    unsafe { out.write_unaligned($e) };
                    0
                }
                _ => EINVAL,
            }
        }
    };
}

attr_get!(attr_getstacksize, usize, |x| x.stacksize);
attr_get!(attr_getstackaddr, *mut c_void, |x| x.stackaddr
    as *mut c_void);
attr_get!(attr_getguardsize, usize, |x| x.guardsize);
attr_get!(attr_getdetachstate, i32, |x| x.detached as i32);
attr_get!(attr_getinheritsched, i32, |x| x.inherit);
attr_get!(attr_getschedpolicy, i32, |x| x.policy);
attr_get!(attr_getschedparam, i32, |x| x.prio);
attr_get!(attr_getscope, i32, |x| x.scope);
attr_get!(attr_getaffinity, u64, |x| x.affinity);

unsafe fn attr_setstacksize(a: AttrH, size: usize) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    match unsafe { attr(a) } {
        Some(x) if size >= STACK_MIN => {
            x.stacksize = size;
            0
        }
        _ => EINVAL,
    }
}
unsafe fn attr_setstackaddr(a: AttrH, addr: *mut c_void) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    match unsafe { attr(a) } {
        Some(x) if !addr.is_null() => {
            x.stackaddr = addr as usize;
            0
        }
        _ => EINVAL,
    }
}
unsafe fn attr_setstack(a: AttrH, addr: *mut c_void, size: usize) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    match unsafe { attr(a) } {
        Some(x) if !addr.is_null() && size >= STACK_MIN => {
            x.stackaddr = addr as usize;
            x.stacksize = size;
            0
        }
        _ => EINVAL,
    }
}
unsafe fn attr_getstack(a: AttrC, addr: *mut *mut c_void, size: *mut usize) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    match unsafe { attr(a) } {
        Some(x) if !addr.is_null() && !size.is_null() => {
            // SAFETY: checked non-null.
            unsafe {
                addr.write_unaligned(x.stackaddr as *mut c_void);
                size.write_unaligned(x.stacksize);
            }
            0
        }
        _ => EINVAL,
    }
}
unsafe fn attr_setguardsize(a: AttrH, size: usize) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    match unsafe { attr(a) } {
        Some(x) => {
            x.guardsize = size;
            0
        }
        None => EINVAL,
    }
}
unsafe fn attr_setdetachstate(a: AttrH, state: i32) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    match unsafe { attr(a) } {
        Some(x) if state == 0 || state == 1 => {
            x.detached = state == 1;
            0
        }
        _ => EINVAL,
    }
}
unsafe fn attr_setinheritsched(a: AttrH, inherit: i32) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    match unsafe { attr(a) } {
        Some(x) if inherit == INHERIT_SCHED || inherit == EXPLICIT_SCHED => {
            x.inherit = inherit;
            0
        }
        Some(_) => ENOTSUP,
        None => EINVAL,
    }
}
unsafe fn attr_setschedpolicy(a: AttrH, policy: i32) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    match unsafe { attr(a) } {
        Some(x) if (SCHED_FIFO..=SCHED_RR).contains(&policy) => {
            x.policy = policy;
            0
        }
        Some(_) => ENOTSUP,
        None => EINVAL,
    }
}
unsafe fn attr_setschedparam(a: AttrH, param: *const i32) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    let Some(x) = (unsafe { attr(a) }) else {
        return EINVAL;
    };
    if param.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null: `struct sched_param { int sched_priority; }`.
    let p = unsafe { param.read_unaligned() };
    if !(PRIO_HIGHEST..=PRIO_LOWEST).contains(&p) {
        return EINVAL;
    }
    x.prio = p;
    0
}
unsafe fn attr_setscope(a: AttrH, scope: i32) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    match unsafe { attr(a) } {
        // PTHREAD_SCOPE_PROCESS (0) and PTHREAD_SCOPE_SYSTEM (2): every host thread is
        // system-scope, so both just read back.
        Some(x) if scope == 0 || scope == 2 => {
            x.scope = scope;
            0
        }
        Some(_) => ENOTSUP,
        None => EINVAL,
    }
}
unsafe fn attr_setaffinity(a: AttrH, mask: u64) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    match unsafe { attr(a) } {
        Some(x) if mask != 0 => {
            x.affinity = mask;
            0
        }
        _ => EINVAL,
    }
}
/// `scePthreadAttrGet`: the attributes a thread runs with.
unsafe fn attr_get(t: *const GuestThread, a: AttrH) -> i32 {
    // SAFETY: a null handle is refused by `attr`.
    let Some(x) = (unsafe { attr(a) }) else {
        return EINVAL;
    };
    let Some(t) = lookup(t) else { return ESRCH };
    x.prio = t.prio.load(Ordering::Relaxed);
    x.policy = t.policy.load(Ordering::Relaxed);
    x.affinity = t.affinity.load(Ordering::Relaxed);
    x.detached = lock(&t.life).detached;
    0
}

pair!("scePthreadAttrInit", "pthread_attr_init", attr_init_x, attr_init, (a: AttrH));
pair!("scePthreadAttrDestroy", "pthread_attr_destroy", attr_destroy_x, attr_destroy, (a: AttrH));
pair!("scePthreadAttrSetstacksize", "pthread_attr_setstacksize", attr_setstacksize_x, attr_setstacksize, (a: AttrH, size: usize));
pair!("scePthreadAttrGetstacksize", "pthread_attr_getstacksize", attr_getstacksize_x, attr_getstacksize, (a: AttrC, out: *mut usize));
pair!("scePthreadAttrSetstackaddr", "pthread_attr_setstackaddr", attr_setstackaddr_x, attr_setstackaddr, (a: AttrH, addr: *mut c_void));
pair!("scePthreadAttrGetstackaddr", "pthread_attr_getstackaddr", attr_getstackaddr_x, attr_getstackaddr, (a: AttrC, out: *mut *mut c_void));
pair!("scePthreadAttrSetstack", "pthread_attr_setstack", attr_setstack_x, attr_setstack, (a: AttrH, addr: *mut c_void, size: usize));
pair!("scePthreadAttrGetstack", "pthread_attr_getstack", attr_getstack_x, attr_getstack, (a: AttrC, addr: *mut *mut c_void, size: *mut usize));
pair!("scePthreadAttrSetguardsize", "pthread_attr_setguardsize", attr_setguardsize_x, attr_setguardsize, (a: AttrH, size: usize));
pair!("scePthreadAttrGetguardsize", "pthread_attr_getguardsize", attr_getguardsize_x, attr_getguardsize, (a: AttrC, out: *mut usize));
pair!("scePthreadAttrSetdetachstate", "pthread_attr_setdetachstate", attr_setdetachstate_x, attr_setdetachstate, (a: AttrH, state: i32));
pair!("scePthreadAttrGetdetachstate", "pthread_attr_getdetachstate", attr_getdetachstate_x, attr_getdetachstate, (a: AttrC, out: *mut i32));
pair!("scePthreadAttrSetinheritsched", "pthread_attr_setinheritsched", attr_setinheritsched_x, attr_setinheritsched, (a: AttrH, inherit: i32));
pair!("scePthreadAttrGetinheritsched", "pthread_attr_getinheritsched", attr_getinheritsched_x, attr_getinheritsched, (a: AttrC, out: *mut i32));
pair!("scePthreadAttrSetschedpolicy", "pthread_attr_setschedpolicy", attr_setschedpolicy_x, attr_setschedpolicy, (a: AttrH, policy: i32));
pair!("scePthreadAttrGetschedpolicy", "pthread_attr_getschedpolicy", attr_getschedpolicy_x, attr_getschedpolicy, (a: AttrC, out: *mut i32));
pair!("scePthreadAttrSetschedparam", "pthread_attr_setschedparam", attr_setschedparam_x, attr_setschedparam, (a: AttrH, param: *const i32));
pair!("scePthreadAttrGetschedparam", "pthread_attr_getschedparam", attr_getschedparam_x, attr_getschedparam, (a: AttrC, out: *mut i32));
pair!("scePthreadAttrSetscope", "pthread_attr_setscope", attr_setscope_x, attr_setscope, (a: AttrH, scope: i32));
pair!("scePthreadAttrGetscope", "pthread_attr_getscope", attr_getscope_x, attr_getscope, (a: AttrC, out: *mut i32));
pair!("scePthreadAttrGet", "pthread_attr_get_np", attr_get_x, attr_get, (t: *const GuestThread, a: AttrH));
sce_only!("scePthreadAttrSetaffinity", attr_setaffinity_x, attr_setaffinity, (a: AttrH, mask: u64));
sce_only!("scePthreadAttrGetaffinity", attr_getaffinity_x, attr_getaffinity, (a: AttrC, out: *mut u64));

// ---------------------------------------------------------------------------------------
// Create, join, detach, exit
// ---------------------------------------------------------------------------------------

unsafe fn create(
    out: *mut *const GuestThread,
    attr_h: AttrC,
    entry: Option<GuestEntry>,
    arg: *mut c_void,
    name: *const c_char,
) -> i32 {
    let Some(entry) = entry else { return EINVAL };
    if out.is_null() {
        return EINVAL;
    }
    let a = if attr_h.is_null() {
        ThreadAttr::default()
    } else {
        // SAFETY: the guest passes a handle slot.
        match unsafe { attr(attr_h) } {
            Some(a) => a.clone(),
            None => return EINVAL,
        }
    };
    let me = current();
    let (prio, policy) = if a.inherit == INHERIT_SCHED {
        (
            me.prio.load(Ordering::Relaxed),
            me.policy.load(Ordering::Relaxed),
        )
    } else {
        (a.prio, a.policy)
    };
    // SAFETY: a non-null name is a NUL-terminated guest string.
    let name = unsafe { guest_str(name, NAME_MAX - 1) };
    let t = Arc::new(GuestThread::new(name, prio, policy, a.affinity));
    lock(&t.life).detached = a.detached;
    let key = Arc::as_ptr(&t) as usize;
    lock(&REGISTRY).insert(key, t.clone());

    // SAFETY: an all-zero pthread_attr_t is what pthread_attr_init overwrites.
    let mut host_attr: host_libc::pthread_attr_t = unsafe { std::mem::zeroed() };
    // SAFETY: `host_attr` is ours; the calls only configure it.
    unsafe {
        host_libc::pthread_attr_init(&mut host_attr);
        if a.stackaddr != 0 {
            host_libc::pthread_attr_setstack(
                &mut host_attr,
                a.stackaddr as *mut c_void,
                a.stacksize,
            );
        } else {
            host_libc::pthread_attr_setstacksize(&mut host_attr, a.stacksize + STACK_MARGIN);
            host_libc::pthread_attr_setguardsize(&mut host_attr, a.guardsize);
        }
    }
    // The handle is visible before the thread runs, as on the console: the new thread may
    // read it from where the creator asked it to be written.
    // SAFETY: checked non-null.
    unsafe { *out = Arc::as_ptr(&t) };
    let info = Box::into_raw(Box::new(StartInfo {
        thread: t.clone(),
        entry,
        arg,
    }));
    // The trampoline unwinds on thread exit; pthread_create takes it as a C function.
    let start: extern "C" fn(*mut c_void) -> *mut c_void =
        // SAFETY: same signature; only the unwind permission differs.
        unsafe { std::mem::transmute(trampoline as extern "C-unwind" fn(*mut c_void) -> *mut c_void) };
    let mut tid: host_libc::pthread_t = 0;
    let mut life = lock(&t.life);
    // SAFETY: `tid` and `host_attr` are valid; `info` stays valid until the trampoline
    // takes it.
    let rc = unsafe { host_libc::pthread_create(&mut tid, &host_attr, start, info.cast()) };
    // SAFETY: `host_attr` was initialised above.
    unsafe { host_libc::pthread_attr_destroy(&mut host_attr) };
    if rc != 0 {
        drop(life);
        // SAFETY: the thread did not start, so the box is still ours.
        drop(unsafe { Box::from_raw(info) });
        lock(&REGISTRY).remove(&key);
        return EAGAIN;
    }
    life.host = Some(tid);
    t.exit_cv.notify_all();
    let detached = life.detached;
    drop(life);
    if detached {
        // SAFETY: `tid` is a thread we created joinable and never join.
        unsafe { host_libc::pthread_detach(tid) };
    }
    0
}

unsafe fn create_posix(
    out: *mut *const GuestThread,
    attr_h: AttrC,
    entry: Option<GuestEntry>,
    arg: *mut c_void,
) -> i32 {
    // SAFETY: same contract, without a name.
    unsafe { create(out, attr_h, entry, arg, std::ptr::null()) }
}

pair!("scePthreadCreate", "pthread_create_name_np", create_x, create,
    (out: *mut *const GuestThread, attr_h: AttrC, entry: Option<GuestEntry>, arg: *mut c_void, name: *const c_char));
posix_only!("pthread_create", create_posix_x, create_posix,
    (out: *mut *const GuestThread, attr_h: AttrC, entry: Option<GuestEntry>, arg: *mut c_void));

/// Joins `h`: a cancellation point. A cancelled or timed-out join leaves the target
/// joinable and `out` untouched.
unsafe fn join(h: *const GuestThread, out: *mut *mut c_void, deadline: Deadline) -> Waited<i32> {
    let Some(t) = lookup(h) else {
        return Waited::Done(ESRCH);
    };
    if std::ptr::eq(Arc::as_ptr(&t), current()) {
        return Waited::Done(EDEADLK);
    }
    {
        let mut life = lock(&t.life);
        if life.detached || life.joiner {
            return Waited::Done(EINVAL);
        }
        life.joiner = true;
    }
    begin_wait(&*t);
    let mut life = lock(&t.life);
    let outcome = loop {
        if cancel_pending() {
            break Waited::Cancelled;
        }
        if life.exited && life.host.is_some() {
            break Waited::Done(0);
        }
        let (g, expired) = super::wait::cv_wait(&t.exit_cv, life, &deadline);
        life = g;
        if expired && !(life.exited && life.host.is_some()) {
            break Waited::Done(ETIMEDOUT);
        }
    };
    if outcome != Waited::Done(0) {
        life.joiner = false;
        drop(life);
        end_wait();
        return outcome;
    }
    let tid = life.host.take();
    let result = life.result;
    drop(life);
    end_wait();
    if let Some(tid) = tid {
        // The guest thread has finished; wait for its host thread to terminate too.
        // SAFETY: `tid` is joinable and taken out of the handle exactly once.
        unsafe { host_libc::pthread_join(tid, std::ptr::null_mut()) };
    }
    lock(&REGISTRY).remove(&(h as usize));
    if !out.is_null() {
        // SAFETY: a non-null result pointer is writable (the guest's contract).
        unsafe { out.write_unaligned(result.0) };
    }
    Waited::Done(0)
}

/// `scePthreadJoin`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadJoin")]
pub unsafe extern "sysv64-unwind" fn sce_pthread_join(
    t: *const GuestThread,
    out: *mut *mut c_void,
) -> i32 {
    // SAFETY: the guest's contract.
    let w = guarded("scePthreadJoin", || unsafe {
        join(t, out, Deadline::Forever)
    });
    sce(act(w))
}

/// `pthread_join`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("pthread_join")]
pub unsafe extern "sysv64-unwind" fn pthread_join(
    t: *const GuestThread,
    out: *mut *mut c_void,
) -> i32 {
    // SAFETY: the guest's contract.
    let w = guarded("pthread_join", || unsafe {
        join(t, out, Deadline::Forever)
    });
    act(w)
}

/// `scePthreadTimedjoin`: join with a relative timeout in microseconds.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadTimedjoin")]
pub unsafe extern "sysv64-unwind" fn sce_pthread_timedjoin(
    t: *const GuestThread,
    out: *mut *mut c_void,
    usec: u32,
) -> i32 {
    // SAFETY: the guest's contract.
    let w = guarded("scePthreadTimedjoin", || unsafe {
        join(t, out, Deadline::after_micros(usec as u64))
    });
    sce(act(w))
}

/// `pthread_timedjoin_np`: join with an absolute CLOCK_REALTIME deadline.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("pthread_timedjoin_np")]
pub unsafe extern "sysv64-unwind" fn pthread_timedjoin_np(
    t: *const GuestThread,
    out: *mut *mut c_void,
    abstime: *const GuestTimespec,
) -> i32 {
    // SAFETY: the guest's contract.
    let w = guarded("pthread_timedjoin_np", || unsafe {
        match Deadline::absolute(CLOCK_REALTIME, abstime) {
            Ok(d) => join(t, out, d),
            Err(e) => Waited::Done(e),
        }
    });
    act(w)
}

unsafe fn detach(h: *const GuestThread) -> i32 {
    let Some(t) = lookup(h) else { return ESRCH };
    let mut life = lock(&t.life);
    if life.detached || life.joiner {
        return EINVAL;
    }
    life.detached = true;
    let exited = life.exited;
    let tid = life.host;
    if exited {
        life.host = None;
    }
    drop(life);
    if let Some(tid) = tid {
        if exited {
            // SAFETY: the thread has finished and nobody else joins it.
            unsafe { host_libc::pthread_join(tid, std::ptr::null_mut()) };
        } else {
            // SAFETY: a joinable host thread we created.
            unsafe { host_libc::pthread_detach(tid) };
        }
    }
    if exited {
        lock(&REGISTRY).remove(&(h as usize));
    }
    0
}
pair!("scePthreadDetach", "pthread_detach", detach_x, detach, (h: *const GuestThread));

/// `scePthreadExit`.
#[export::nid("scePthreadExit")]
pub extern "sysv64-unwind" fn sce_pthread_exit(value: *mut c_void) {
    exit_thread(value)
}

/// `pthread_exit`.
#[export::nid("pthread_exit")]
pub extern "sysv64-unwind" fn pthread_exit(value: *mut c_void) {
    exit_thread(value)
}

/// `scePthreadSelf`.
#[export::nid("scePthreadSelf")]
pub extern "sysv64" fn sce_pthread_self() -> *const GuestThread {
    current()
}

/// `pthread_self`.
#[export::nid("pthread_self")]
pub extern "sysv64" fn pthread_self() -> *const GuestThread {
    current()
}

/// `scePthreadEqual`.
#[export::nid("scePthreadEqual")]
pub extern "sysv64" fn sce_pthread_equal(a: *const GuestThread, b: *const GuestThread) -> i32 {
    (a == b) as i32
}

/// `pthread_equal`.
#[export::nid("pthread_equal")]
pub extern "sysv64" fn pthread_equal(a: *const GuestThread, b: *const GuestThread) -> i32 {
    (a == b) as i32
}

/// `scePthreadYield`.
#[export::nid("scePthreadYield")]
pub extern "sysv64" fn sce_pthread_yield() {
    std::thread::yield_now();
}

/// `pthread_yield`.
#[export::nid("pthread_yield")]
pub extern "sysv64" fn pthread_yield() {
    std::thread::yield_now();
}

/// `sched_yield`.
#[export::nid("sched_yield")]
pub extern "sysv64" fn sched_yield() -> i32 {
    std::thread::yield_now();
    0
}

/// `scePthreadGetthreadid`: a small unique id of the calling thread.
#[export::nid("scePthreadGetthreadid")]
pub extern "sysv64" fn sce_pthread_getthreadid() -> i32 {
    current().id
}

/// `pthread_getthreadid_np`.
#[export::nid("pthread_getthreadid_np")]
pub extern "sysv64" fn pthread_getthreadid_np() -> i32 {
    current().id
}

// ---------------------------------------------------------------------------------------
// Names, priorities, affinity
// ---------------------------------------------------------------------------------------

/// Runs `f` on the thread behind `h` (the caller's own object when `h` is itself).
fn with_thread(h: *const GuestThread, f: impl FnOnce(&GuestThread) -> i32) -> i32 {
    let me = current();
    if std::ptr::eq(h, me) {
        return f(me);
    }
    match lookup(h) {
        Some(t) => f(&t),
        None => ESRCH,
    }
}

unsafe fn rename(h: *const GuestThread, name: *const c_char) -> i32 {
    if name.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null; a NUL-terminated guest string.
    let n = unsafe { guest_str(name, NAME_MAX - 1) };
    with_thread(h, |t| {
        *lock(&t.name) = n.clone();
        if std::ptr::eq(t, current()) {
            set_host_name(&n);
        }
        0
    })
}
pair!("scePthreadRename", "pthread_rename_np", rename_x, rename, (h: *const GuestThread, name: *const c_char));

/// `pthread_set_name_np` (returns nothing on FreeBSD).
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("pthread_set_name_np")]
pub unsafe extern "sysv64" fn pthread_set_name_np(h: *const GuestThread, name: *const c_char) {
    // SAFETY: the guest's contract.
    unsafe { rename(h, name) };
}

/// Copies a thread's name into a guest buffer of `len` bytes, NUL-terminated.
unsafe fn getname(h: *const GuestThread, buf: *mut c_char, len: usize) -> i32 {
    if buf.is_null() || len == 0 {
        return EINVAL;
    }
    with_thread(h, |t| {
        let n = t.name();
        let k = n.len().min(len - 1);
        // SAFETY: the guest's buffer holds `len` bytes; we write k + 1 <= len.
        unsafe {
            std::ptr::copy_nonoverlapping(n.as_ptr(), buf.cast::<u8>(), k);
            *buf.add(k) = 0;
        }
        0
    })
}
unsafe fn sce_getname(h: *const GuestThread, buf: *mut c_char) -> i32 {
    // SAFETY: the console's buffer for this call is 32 bytes.
    unsafe { getname(h, buf, NAME_MAX) }
}
sce_only!("scePthreadGetname", getname_x, sce_getname, (h: *const GuestThread, buf: *mut c_char));
posix_only!("pthread_getname_np", getname_np_x, getname, (h: *const GuestThread, buf: *mut c_char, len: usize));

unsafe fn setprio(h: *const GuestThread, prio: i32) -> i32 {
    if !(PRIO_HIGHEST..=PRIO_LOWEST).contains(&prio) {
        return EINVAL;
    }
    // Recorded and reported; the host scheduler is not asked (it would need privileges,
    // and host priorities do not map onto the console's).
    with_thread(h, |t| {
        t.prio.store(prio, Ordering::Relaxed);
        0
    })
}
unsafe fn getprio(h: *const GuestThread, out: *mut i32) -> i32 {
    if out.is_null() {
        return EINVAL;
    }
    with_thread(h, |t| {
        // SAFETY: checked non-null.
        unsafe { out.write_unaligned(t.prio.load(Ordering::Relaxed)) };
        0
    })
}
pair!("scePthreadSetprio", "pthread_setprio", setprio_x, setprio, (h: *const GuestThread, prio: i32));
pair!("scePthreadGetprio", "pthread_getprio", getprio_x, getprio, (h: *const GuestThread, out: *mut i32));

unsafe fn setschedparam(h: *const GuestThread, policy: i32, param: *const i32) -> i32 {
    if param.is_null() {
        return EINVAL;
    }
    if !(SCHED_FIFO..=SCHED_RR).contains(&policy) {
        return ENOTSUP;
    }
    // SAFETY: checked non-null.
    let prio = unsafe { param.read_unaligned() };
    if !(PRIO_HIGHEST..=PRIO_LOWEST).contains(&prio) {
        return EINVAL;
    }
    with_thread(h, |t| {
        t.policy.store(policy, Ordering::Relaxed);
        t.prio.store(prio, Ordering::Relaxed);
        0
    })
}
unsafe fn getschedparam(h: *const GuestThread, policy: *mut i32, param: *mut i32) -> i32 {
    if policy.is_null() || param.is_null() {
        return EINVAL;
    }
    with_thread(h, |t| {
        // SAFETY: checked non-null.
        unsafe {
            policy.write_unaligned(t.policy.load(Ordering::Relaxed));
            param.write_unaligned(t.prio.load(Ordering::Relaxed));
        }
        0
    })
}
pair!("scePthreadSetschedparam", "pthread_setschedparam", setschedparam_x, setschedparam, (h: *const GuestThread, policy: i32, param: *const i32));
pair!("scePthreadGetschedparam", "pthread_getschedparam", getschedparam_x, getschedparam, (h: *const GuestThread, policy: *mut i32, param: *mut i32));

unsafe fn setaffinity(h: *const GuestThread, mask: u64) -> i32 {
    if mask == 0 {
        return EINVAL;
    }
    // Recorded and reported; host threads are left to the host scheduler, since pinning
    // console CPU numbers onto a host with fewer cores would serialize the title.
    with_thread(h, |t| {
        t.affinity.store(mask, Ordering::Relaxed);
        0
    })
}
unsafe fn getaffinity(h: *const GuestThread, out: *mut u64) -> i32 {
    if out.is_null() {
        return EINVAL;
    }
    with_thread(h, |t| {
        // SAFETY: checked non-null.
        unsafe { out.write_unaligned(t.affinity.load(Ordering::Relaxed)) };
        0
    })
}
sce_only!("scePthreadSetaffinity", setaffinity_x, setaffinity, (h: *const GuestThread, mask: u64));
sce_only!("scePthreadGetaffinity", getaffinity_x, getaffinity, (h: *const GuestThread, out: *mut u64));

// ---------------------------------------------------------------------------------------
// Once
// ---------------------------------------------------------------------------------------

/// `pthread_once_t`: `{ int state; pthread_mutex_t mutex; }` (the mutex is unused here).
#[repr(C)]
pub struct GuestOnce {
    state: AtomicU32,
    _pad: u32,
    _mutex: usize,
}
const _: () = assert!(std::mem::size_of::<GuestOnce>() == 16);

const ONCE_NEVER: u32 = 0;
const ONCE_DONE: u32 = 1;
const ONCE_RUNNING: u32 = 2;
const ONCE_WAITING: u32 = 3;

extern "sysv64" fn once_cancelled(arg: *mut c_void) {
    // SAFETY: `arg` is the guest's once object, pushed by `once` below.
    let o = unsafe { &*(arg as *const GuestOnce) };
    // A cancelled initializer lets the next caller try again.
    o.state.store(ONCE_NEVER, Ordering::Release);
    futex_wake(&o.state, i32::MAX);
}

/// Runs `f` once per `o`; threads that arrive meanwhile wait for it.
unsafe fn once(o: *mut GuestOnce, f: Option<extern "sysv64" fn()>) -> i32 {
    let (Some(f), false) = (f, o.is_null()) else {
        return EINVAL;
    };
    // SAFETY: checked non-null; the guest's once object.
    let o = unsafe { &*o };
    loop {
        match o.state.load(Ordering::Acquire) {
            ONCE_DONE => return 0,
            ONCE_NEVER => {
                if o.state
                    .compare_exchange(
                        ONCE_NEVER,
                        ONCE_RUNNING,
                        Ordering::Acquire,
                        Ordering::Acquire,
                    )
                    .is_err()
                {
                    continue;
                }
                let me = current();
                // SAFETY: our own state.
                unsafe { me.own() }.cleanup.push(Cleanup {
                    routine: once_cancelled,
                    arg: o as *const GuestOnce as *mut c_void,
                });
                f();
                // SAFETY: our own state.
                unsafe { me.own() }.cleanup.pop();
                if o.state.swap(ONCE_DONE, Ordering::Release) == ONCE_WAITING {
                    futex_wake(&o.state, i32::MAX);
                }
                return 0;
            }
            s => {
                if s == ONCE_RUNNING
                    && o.state
                        .compare_exchange(
                            ONCE_RUNNING,
                            ONCE_WAITING,
                            Ordering::Acquire,
                            Ordering::Acquire,
                        )
                        .is_err()
                {
                    continue;
                }
                futex_wait(&o.state, ONCE_WAITING, None);
            }
        }
    }
}

/// `scePthreadOnce` (calls guest code, which may exit the thread: not guarded).
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("scePthreadOnce")]
pub unsafe extern "sysv64-unwind" fn sce_pthread_once(
    o: *mut GuestOnce,
    f: Option<extern "sysv64" fn()>,
) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { once(o, f) })
}

/// `pthread_once`.
///
/// # Safety
/// The console API's contract: pointers are null or valid for what the call reads
/// and writes.
#[export::nid("pthread_once")]
pub unsafe extern "sysv64-unwind" fn pthread_once(
    o: *mut GuestOnce,
    f: Option<extern "sysv64" fn()>,
) -> i32 {
    // SAFETY: the guest's contract.
    unsafe { once(o, f) }
}

// ---------------------------------------------------------------------------------------
// Thread-specific data
// ---------------------------------------------------------------------------------------

/// One key: `seq` is odd while allocated and changes on every create and delete, so a
/// value set under an older key reads as NULL.
struct Key {
    seq: AtomicU32,
    destructor: AtomicUsize,
}

#[allow(clippy::declare_interior_mutable_const)]
const KEY_FREE: Key = Key {
    seq: AtomicU32::new(0),
    destructor: AtomicUsize::new(0),
};
static KEYS: [Key; KEYS_MAX] = [KEY_FREE; KEYS_MAX];

/// Keys are 1-based, so a zeroed `pthread_key_t` is never a valid key.
fn key_index(key: i32) -> Option<usize> {
    let i = (key as usize).wrapping_sub(1);
    (i < KEYS_MAX).then_some(i)
}

unsafe fn key_create(out: *mut i32, destructor: Option<GuestRoutine>) -> i32 {
    if out.is_null() {
        return EINVAL;
    }
    for (i, k) in KEYS.iter().enumerate() {
        let s = k.seq.load(Ordering::Relaxed);
        if s & 1 == 0
            && k.seq
                .compare_exchange(s, s.wrapping_add(1), Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        {
            k.destructor
                .store(destructor.map_or(0, |f| f as usize), Ordering::Release);
            // SAFETY: checked non-null.
            unsafe { out.write_unaligned(i as i32 + 1) };
            return 0;
        }
    }
    EAGAIN
}
unsafe fn key_delete(key: i32) -> i32 {
    let Some(i) = key_index(key) else {
        return EINVAL;
    };
    let k = &KEYS[i];
    let s = k.seq.load(Ordering::Acquire);
    if s & 1 == 0 {
        return EINVAL;
    }
    k.destructor.store(0, Ordering::Release);
    match k
        .seq
        .compare_exchange(s, s.wrapping_add(1), Ordering::AcqRel, Ordering::Relaxed)
    {
        Ok(_) => 0,
        Err(_) => EINVAL,
    }
}
pair!("scePthreadKeyCreate", "pthread_key_create", key_create_x, key_create, (out: *mut i32, destructor: Option<GuestRoutine>));
pair!("scePthreadKeyDelete", "pthread_key_delete", key_delete_x, key_delete, (key: i32));

fn getspecific(key: i32) -> *mut c_void {
    let Some(i) = key_index(key) else {
        return std::ptr::null_mut();
    };
    let s = KEYS[i].seq.load(Ordering::Acquire);
    if s & 1 == 0 {
        return std::ptr::null_mut();
    }
    // SAFETY: our own state.
    let own = unsafe { current().own() };
    match own.tsd.get(i) {
        Some(&(seq, v)) if seq == s => v as *mut c_void,
        _ => std::ptr::null_mut(),
    }
}
unsafe fn setspecific(key: i32, value: *const c_void) -> i32 {
    let Some(i) = key_index(key) else {
        return EINVAL;
    };
    let s = KEYS[i].seq.load(Ordering::Acquire);
    if s & 1 == 0 {
        return EINVAL;
    }
    // SAFETY: our own state.
    let own = unsafe { current().own() };
    if own.tsd.len() < KEYS_MAX {
        own.tsd.resize(KEYS_MAX, (0, 0));
    }
    own.tsd[i] = (s, value as usize);
    0
}
pair!("scePthreadSetspecific", "pthread_setspecific", setspecific_x, setspecific, (key: i32, value: *const c_void));

/// `scePthreadGetspecific`.
#[export::nid("scePthreadGetspecific")]
pub extern "sysv64" fn sce_pthread_getspecific(key: i32) -> *mut c_void {
    getspecific(key)
}

/// `pthread_getspecific`.
#[export::nid("pthread_getspecific")]
pub extern "sysv64" fn pthread_getspecific(key: i32) -> *mut c_void {
    getspecific(key)
}

/// Calls the destructors of the calling thread's non-NULL values, in rounds, as long as
/// destructors set new values (at most PTHREAD_DESTRUCTOR_ITERATIONS rounds).
fn run_tsd_destructors(t: &GuestThread) {
    for _ in 0..DESTRUCTOR_ITERATIONS {
        let mut ran = false;
        for (i, k) in KEYS.iter().enumerate() {
            let s = k.seq.load(Ordering::Acquire);
            let d = k.destructor.load(Ordering::Acquire);
            if s & 1 == 0 || d == 0 {
                continue;
            }
            // SAFETY: our own state; the borrow ends before the destructor runs.
            let value = {
                let own = unsafe { t.own() };
                match own.tsd.get_mut(i) {
                    Some(e) if e.0 == s && e.1 != 0 => std::mem::replace(&mut e.1, 0),
                    _ => continue,
                }
            };
            // SAFETY: `d` was stored from a guest destructor pointer.
            let f: GuestRoutine = unsafe { std::mem::transmute(d) };
            f(value as *mut c_void);
            ran = true;
        }
        if !ran {
            break;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Cleanup handlers
// ---------------------------------------------------------------------------------------

/// `__pthread_cleanup_push_imp(routine, arg, info)`: `info` is the caller's stack space
/// for the record; we keep our own list and leave it alone.
#[export::nid("__pthread_cleanup_push_imp")]
pub extern "sysv64" fn pthread_cleanup_push_imp(
    routine: Option<GuestRoutine>,
    arg: *mut c_void,
    _info: *mut c_void,
) {
    cleanup_push(routine, arg);
}

/// `pthread_cleanup_push(routine, arg)`, the function form.
#[export::nid("pthread_cleanup_push")]
pub extern "sysv64" fn pthread_cleanup_push(routine: Option<GuestRoutine>, arg: *mut c_void) {
    cleanup_push(routine, arg);
}

fn cleanup_push(routine: Option<GuestRoutine>, arg: *mut c_void) {
    if let Some(routine) = routine {
        // SAFETY: our own state.
        unsafe { current().own() }
            .cleanup
            .push(Cleanup { routine, arg });
    }
}

fn cleanup_pop(execute: i32) {
    // SAFETY: our own state; the borrow ends before the handler runs.
    let c = unsafe { current().own() }.cleanup.pop();
    if let (Some(c), true) = (c, execute != 0) {
        (c.routine)(c.arg);
    }
}

/// `__pthread_cleanup_pop_imp(execute)` (runs guest code, which may exit: unguarded).
#[export::nid("__pthread_cleanup_pop_imp")]
pub extern "sysv64-unwind" fn pthread_cleanup_pop_imp(execute: i32) {
    cleanup_pop(execute)
}

/// `pthread_cleanup_pop(execute)`, the function form.
#[export::nid("pthread_cleanup_pop")]
pub extern "sysv64-unwind" fn pthread_cleanup_pop(execute: i32) {
    cleanup_pop(execute)
}

// ---------------------------------------------------------------------------------------
// Cancellation
// ---------------------------------------------------------------------------------------

/// Requests cancellation of `h`. Acting on it is left to the target's next cancellation
/// point, except that a thread cancelling itself with asynchronous type and cancellation
/// enabled exits here (this is its own call, not an injection).
fn cancel(h: *const GuestThread) -> Waited<i32> {
    let me = current();
    if std::ptr::eq(h, me) {
        let f = me.cancel.fetch_or(CANCEL_REQUESTED, Ordering::SeqCst);
        if f & (CANCEL_DISABLED | EXITING | CANCEL_ASYNC) == CANCEL_ASYNC {
            return Waited::Cancelled;
        }
        return Waited::Done(0);
    }
    let Some(t) = lookup(h) else {
        return Waited::Done(ESRCH);
    };
    t.cancel.fetch_or(CANCEL_REQUESTED, Ordering::SeqCst);
    let b = lock(&t.blocked_on);
    if let Some(w) = *b {
        // SAFETY: the waiter keeps the object alive while it is recorded, and clears the
        // record under this lock before it returns.
        unsafe { (*w.0).wake_all() };
    }
    Waited::Done(0)
}

/// `scePthreadCancel`.
#[export::nid("scePthreadCancel")]
pub extern "sysv64-unwind" fn sce_pthread_cancel(t: *const GuestThread) -> i32 {
    let w = guarded("scePthreadCancel", || cancel(t));
    sce(act(w))
}

/// `pthread_cancel`.
#[export::nid("pthread_cancel")]
pub extern "sysv64-unwind" fn pthread_cancel(t: *const GuestThread) -> i32 {
    let w = guarded("pthread_cancel", || cancel(t));
    act(w)
}

fn setcancelstate(state: i32, old: *mut i32) -> Waited<i32> {
    let me = current();
    let f = match state {
        0 => me.cancel.fetch_and(!CANCEL_DISABLED, Ordering::SeqCst),
        1 => me.cancel.fetch_or(CANCEL_DISABLED, Ordering::SeqCst),
        _ => return Waited::Done(EINVAL),
    };
    if !old.is_null() {
        // SAFETY: a non-null out-pointer is writable.
        unsafe { old.write_unaligned((f & CANCEL_DISABLED != 0) as i32) };
    }
    // Enabling acts on a pending request only for asynchronous type; deferred requests
    // wait for the next cancellation point.
    let now = me.cancel.load(Ordering::SeqCst);
    if now & (CANCEL_REQUESTED | CANCEL_DISABLED | EXITING | CANCEL_ASYNC)
        == CANCEL_REQUESTED | CANCEL_ASYNC
    {
        return Waited::Cancelled;
    }
    Waited::Done(0)
}

fn setcanceltype(kind: i32, old: *mut i32) -> Waited<i32> {
    let me = current();
    let f = match kind {
        0 => me.cancel.fetch_and(!CANCEL_ASYNC, Ordering::SeqCst),
        2 => me.cancel.fetch_or(CANCEL_ASYNC, Ordering::SeqCst),
        _ => return Waited::Done(EINVAL),
    };
    if !old.is_null() {
        // SAFETY: a non-null out-pointer is writable.
        unsafe { old.write_unaligned(if f & CANCEL_ASYNC != 0 { 2 } else { 0 }) };
    }
    let now = me.cancel.load(Ordering::SeqCst);
    if now & (CANCEL_REQUESTED | CANCEL_DISABLED | EXITING | CANCEL_ASYNC)
        == CANCEL_REQUESTED | CANCEL_ASYNC
    {
        return Waited::Cancelled;
    }
    Waited::Done(0)
}

/// `scePthreadSetcancelstate`.
#[export::nid("scePthreadSetcancelstate")]
pub extern "sysv64-unwind" fn sce_pthread_setcancelstate(state: i32, old: *mut i32) -> i32 {
    let w = guarded("scePthreadSetcancelstate", || setcancelstate(state, old));
    sce(act(w))
}

/// `pthread_setcancelstate`.
#[export::nid("pthread_setcancelstate")]
pub extern "sysv64-unwind" fn pthread_setcancelstate(state: i32, old: *mut i32) -> i32 {
    let w = guarded("pthread_setcancelstate", || setcancelstate(state, old));
    act(w)
}

/// `scePthreadSetcanceltype`.
#[export::nid("scePthreadSetcanceltype")]
pub extern "sysv64-unwind" fn sce_pthread_setcanceltype(kind: i32, old: *mut i32) -> i32 {
    let w = guarded("scePthreadSetcanceltype", || setcanceltype(kind, old));
    sce(act(w))
}

/// `pthread_setcanceltype`.
#[export::nid("pthread_setcanceltype")]
pub extern "sysv64-unwind" fn pthread_setcanceltype(kind: i32, old: *mut i32) -> i32 {
    let w = guarded("pthread_setcanceltype", || setcanceltype(kind, old));
    act(w)
}

fn testcancel() -> Waited<()> {
    if cancel_pending() {
        Waited::Cancelled
    } else {
        Waited::Done(())
    }
}

/// `scePthreadTestcancel`: a cancellation point and nothing else.
#[export::nid("scePthreadTestcancel")]
pub extern "sysv64-unwind" fn sce_pthread_testcancel() {
    let w = guarded("scePthreadTestcancel", testcancel);
    act(w)
}

/// `pthread_testcancel`.
#[export::nid("pthread_testcancel")]
pub extern "sysv64-unwind" fn pthread_testcancel() {
    let w = guarded("pthread_testcancel", testcancel);
    act(w)
}
