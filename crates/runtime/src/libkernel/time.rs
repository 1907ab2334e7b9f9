//! Sleeping.

use std::time::Duration;

#[export::nid("sceKernelUsleep")]
pub extern "sysv64" fn sce_kernel_usleep(microseconds: u32) -> i32 {
    std::thread::sleep(Duration::from_micros(microseconds as u64));
    0
}

#[export::nid("usleep")]
pub extern "sysv64" fn usleep(microseconds: u32) -> i32 {
    std::thread::sleep(Duration::from_micros(microseconds as u64));
    0
}

/// Reads a guest clock into a guest timespec; errno result.
///
/// # Safety
/// `out` is null or writable.
unsafe fn clock_gettime_imp(clock: i32, out: *mut super::wait::GuestTimespec) -> i32 {
    if out.is_null() {
        return super::wait::errno::EINVAL;
    }
    match super::wait::clock_now(clock) {
        Some(t) => {
            // SAFETY: checked non-null.
            unsafe { out.write_unaligned(t) };
            0
        }
        // Only CLOCK_REALTIME and CLOCK_MONOTONIC are modelled so far.
        None => super::wait::errno::EINVAL,
    }
}

#[export::nid("clock_gettime")]
pub unsafe extern "sysv64" fn clock_gettime(
    clock: i32,
    out: *mut super::wait::GuestTimespec,
) -> i32 {
    // SAFETY: the guest's contract.
    match unsafe { clock_gettime_imp(clock, out) } {
        0 => 0,
        e => {
            super::errors::set_errno(e);
            -1
        }
    }
}

#[export::nid("sceKernelClockGettime")]
pub unsafe extern "sysv64" fn sce_kernel_clock_gettime(
    clock: i32,
    out: *mut super::wait::GuestTimespec,
) -> i32 {
    // SAFETY: the guest's contract.
    super::wait::sce(unsafe { clock_gettime_imp(clock, out) })
}
