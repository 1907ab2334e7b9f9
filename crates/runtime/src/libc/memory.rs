//! `malloc`, `calloc`, `realloc`, `free` over Rust's allocator.
//!
//! Each block carries a 16-byte header before the pointer handed to the guest, holding
//! the usable size, so that `free` and `realloc` can rebuild the layout. Blocks are
//! 16-byte aligned, as the console's allocator guarantees.

use std::alloc::{alloc, dealloc, Layout};
use std::ffi::c_void;
use std::ptr;

const HEADER: usize = 16;
const ALIGN: usize = 16;

fn layout_for(size: usize) -> Option<Layout> {
    let total = size.checked_add(HEADER)?;
    Layout::from_size_align(total, ALIGN).ok()
}

/// Allocates `size` bytes with a size header; null on failure.
pub fn allocate(size: usize) -> *mut c_void {
    let Some(layout) = layout_for(size.max(1)) else {
        return ptr::null_mut();
    };
    // SAFETY: the layout has a non-zero size.
    let base = unsafe { alloc(layout) };
    if base.is_null() {
        return ptr::null_mut();
    }
    // SAFETY: the block is at least HEADER bytes and 16-aligned.
    unsafe {
        (base as *mut usize).write(size.max(1));
        base.add(HEADER).cast()
    }
}

/// The usable size of a block from [`allocate`].
///
/// # Safety
/// `p` must come from [`allocate`] and not be freed.
pub unsafe fn usable_size(p: *const c_void) -> usize {
    // SAFETY: the header sits HEADER bytes before the pointer.
    unsafe { (p.cast::<u8>().sub(HEADER) as *const usize).read() }
}

/// Frees a block from [`allocate`]; null is ignored.
///
/// # Safety
/// `p` must be null or come from [`allocate`] and not be freed already.
pub unsafe fn release(p: *mut c_void) {
    if p.is_null() {
        return;
    }
    // SAFETY: per the contract, the header is valid and describes the layout.
    unsafe {
        let size = usable_size(p);
        let base = p.cast::<u8>().sub(HEADER);
        dealloc(
            base,
            layout_for(size).expect("layout was valid at allocation"),
        );
    }
}

#[export::nid("malloc")]
pub extern "sysv64" fn malloc(size: usize) -> *mut c_void {
    allocate(size)
}

#[export::nid("calloc")]
pub extern "sysv64" fn calloc(count: usize, size: usize) -> *mut c_void {
    let Some(total) = count.checked_mul(size) else {
        return ptr::null_mut();
    };
    let p = allocate(total);
    if !p.is_null() {
        // SAFETY: the block has at least `total` bytes.
        unsafe { ptr::write_bytes(p.cast::<u8>(), 0, total) };
    }
    p
}

#[export::nid("realloc")]
pub unsafe extern "sysv64" fn realloc(p: *mut c_void, size: usize) -> *mut c_void {
    if p.is_null() {
        return allocate(size);
    }
    let q = allocate(size);
    if !q.is_null() {
        // SAFETY: `p` is a live block from `allocate` (the guest's contract); copy the
        // smaller of the two sizes.
        unsafe {
            let n = usable_size(p).min(size);
            ptr::copy_nonoverlapping(p.cast::<u8>(), q.cast::<u8>(), n);
            release(p);
        }
    }
    q
}

#[export::nid("free")]
pub unsafe extern "sysv64" fn free(p: *mut c_void) {
    // SAFETY: the guest's contract for free.
    unsafe { release(p) }
}
