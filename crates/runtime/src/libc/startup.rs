//! Process start and exit: `_init_env`, `atexit`, `exit`, `Need_sceLibc`, `abort`.
//!
//! The OpenOrbis `_start` keeps r8–r10 live across its calls to `_init_env` and
//! `atexit` (see FACTS.md), which the SysV ABI lets a callee clobber. Those two exports
//! are therefore naked thunks that save r8–r11 around the Rust implementation.

use std::sync::Mutex;

/// A guest `atexit` handler.
type AtExitFn = extern "sysv64" fn();

/// Guest `atexit` handlers, run last-registered first.
static AT_EXIT: Mutex<Vec<AtExitFn>> = Mutex::new(Vec::new());

/// The data symbol titles import to say they link libc. Its value is never read.
#[export::nid("Need_sceLibc")]
pub static NEED_SCE_LIBC: u64 = 0;

// Both thunks save r8–r11 (and keep the stack 16-byte aligned) around the Rust code.
crate::guest_thunk!("_init_env", "libc", init_env_impl);
crate::guest_thunk!("atexit", "libc", atexit_impl);

extern "sysv64" fn init_env_impl() {
    crate::start::ensure_initialized();
}

extern "sysv64" fn atexit_impl(handler: Option<AtExitFn>) -> i32 {
    match handler {
        Some(h) => {
            AT_EXIT.lock().unwrap_or_else(|e| e.into_inner()).push(h);
            0
        }
        None => -1,
    }
}

/// Runs the guest's exit path: `atexit` handlers, finalizers, stream flush; then exits.
pub fn run_exit(code: i32) -> ! {
    loop {
        let next = AT_EXIT.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match next {
            Some(h) => h(),
            None => break,
        }
    }
    crate::start::run_finalizers_once();
    crate::guest_io::flush_all();
    // SAFETY: plain process exit; every guest-visible buffer was flushed above.
    unsafe { host_libc::_exit(code) }
}

#[export::nid("exit")]
pub extern "sysv64" fn exit(code: i32) {
    run_exit(code)
}

#[export::nid("_Exit")]
pub extern "sysv64" fn exit_now(code: i32) {
    crate::guest_io::flush_all();
    // SAFETY: immediate process exit, as `_Exit` specifies.
    unsafe { host_libc::_exit(code) }
}

#[export::nid("abort")]
pub extern "sysv64" fn abort() {
    crate::guest_io::flush_all();
    eprintln!("native5: the title called abort()");
    std::process::abort()
}
