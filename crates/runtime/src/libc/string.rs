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

#[export::nid("strcpy")]
pub unsafe extern "sysv64" fn strcpy(dst: *mut c_char, src: *const c_char) -> *mut c_char {
    // SAFETY: the guest's contract: `src` is NUL-terminated and `dst` has room for it.
    unsafe {
        let n = c_strlen(src);
        std::ptr::copy_nonoverlapping(src, dst, n + 1);
    }
    dst
}

#[export::nid("strncmp")]
pub unsafe extern "sysv64" fn strncmp(a: *const c_char, b: *const c_char, n: usize) -> c_int {
    for i in 0..n {
        // SAFETY: both are NUL-terminated or at least `n` bytes (the guest's contract).
        let (x, y) = unsafe { (*a.add(i) as u8, *b.add(i) as u8) };
        if x != y || x == 0 {
            return x as c_int - y as c_int;
        }
    }
    0
}

#[export::nid("memcmp")]
pub unsafe extern "sysv64" fn memcmp(a: *const c_void, b: *const c_void, n: usize) -> c_int {
    // SAFETY: the guest's contract: both ranges have `n` readable bytes.
    let (x, y) = unsafe {
        (
            std::slice::from_raw_parts(a.cast::<u8>(), n),
            std::slice::from_raw_parts(b.cast::<u8>(), n),
        )
    };
    match x.iter().zip(y).find(|(p, q)| p != q) {
        Some((p, q)) => *p as c_int - *q as c_int,
        None => 0,
    }
}
