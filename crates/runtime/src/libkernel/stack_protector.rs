//! `__stack_chk_guard` and `__stack_chk_fail`, which every title built by the PS5
//! compiler imports (it defaults to `-stack-protector 2`).

/// The canary. Set once, from the host's random source, before any guest code runs.
#[export::nid("__stack_chk_guard")]
pub static mut STACK_CHK_GUARD: u64 = 0x5a17_c0de_9e37_79b9;

/// Seeds the canary; called from the runtime's initializer, before guest constructors.
pub fn seed() {
    let mut v = 0u64;
    // SAFETY: getrandom writes at most 8 bytes into `v`.
    let n = unsafe { host_libc::getrandom((&raw mut v).cast(), 8, 0) };
    if n == 8 {
        // The low byte stays zero so string overflows stop at the canary.
        // SAFETY: no guest code runs yet, so nothing reads the guard concurrently.
        unsafe { STACK_CHK_GUARD = v & !0xff };
    }
}

#[export::nid("__stack_chk_fail")]
pub extern "sysv64" fn stack_chk_fail() {
    crate::guest_io::flush_all();
    eprintln!("native5: stack smashing detected in the title (__stack_chk_fail); aborting");
    std::process::abort()
}
