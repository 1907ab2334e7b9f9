//! The string and memory functions the first titles use.

use std::ffi::{c_char, c_int, c_void};

#[export::nid("memset")]
pub unsafe extern "sysv64" fn memset(dst: *mut c_void, value: c_int, len: usize) -> *mut c_void {
    // SAFETY: the guest's contract: `dst` has `len` writable bytes.
    unsafe { std::ptr::write_bytes(dst.cast::<u8>(), value as u8, len) };
    dst
}

#[export::nid("memcpy")]
pub unsafe extern "sysv64" fn memcpy(
    dst: *mut c_void,
    src: *const c_void,
    len: usize,
) -> *mut c_void {
    // SAFETY: the guest's contract: distinct ranges of `len` bytes.
    unsafe { std::ptr::copy_nonoverlapping(src.cast::<u8>(), dst.cast::<u8>(), len) };
    dst
}

#[export::nid("memmove")]
pub unsafe extern "sysv64" fn memmove(
    dst: *mut c_void,
    src: *const c_void,
    len: usize,
) -> *mut c_void {
    // SAFETY: the guest's contract: ranges of `len` bytes, possibly overlapping.
    unsafe { std::ptr::copy(src.cast::<u8>(), dst.cast::<u8>(), len) };
    dst
}

/// Length of a NUL-terminated guest string.
///
/// # Safety
/// `s` must point at a NUL-terminated string.
pub unsafe fn c_strlen(s: *const c_char) -> usize {
    // SAFETY: per the contract.
    unsafe { std::ffi::CStr::from_ptr(s).count_bytes() }
}

#[export::nid("strlen")]
pub unsafe extern "sysv64" fn strlen(s: *const c_char) -> usize {
    // SAFETY: the guest's contract.
    unsafe { c_strlen(s) }
}

#[export::nid("strcmp")]
pub unsafe extern "sysv64" fn strcmp(a: *const c_char, b: *const c_char) -> c_int {
    let mut i = 0;
    loop {
        // SAFETY: both are NUL-terminated (the guest's contract); we stop at the first NUL.
        let (x, y) = unsafe { (*a.add(i) as u8, *b.add(i) as u8) };
        if x != y || x == 0 {
            return x as c_int - y as c_int;
        }
        i += 1;
    }
}

#[export::nid("puts")]
pub unsafe extern "sysv64" fn puts(s: *const c_char) -> c_int {
    // SAFETY: the guest's contract.
    let bytes = unsafe { std::ffi::CStr::from_ptr(s) }.to_bytes();
    crate::guest_io::STDOUT.write(bytes);
    crate::guest_io::STDOUT.write(b"\n");
    1
}
