//! libkernel error codes and the per-thread `errno`.
//!
//! SCE kernel errors are `0x80020000 + errno`, with FreeBSD errno values.

use std::cell::Cell;

/// `SCE_KERNEL_ERROR_ENOENT`.
pub const ENOENT: i32 = 0x8002_0002_u32 as i32;
/// `SCE_KERNEL_ERROR_ESRCH`.
pub const ESRCH: i32 = 0x8002_0003_u32 as i32;
/// `SCE_KERNEL_ERROR_EPERM`.
pub const EPERM: i32 = 0x8002_0001_u32 as i32;
/// `SCE_KERNEL_ERROR_EBADF`.
pub const EBADF: i32 = 0x8002_0009_u32 as i32;
/// `SCE_KERNEL_ERROR_EACCES`.
pub const EACCES: i32 = 0x8002_000D_u32 as i32;
/// `SCE_KERNEL_ERROR_EBUSY`.
pub const EBUSY: i32 = 0x8002_0010_u32 as i32;
/// `SCE_KERNEL_ERROR_ENOMEM`.
pub const ENOMEM: i32 = 0x8002_000C_u32 as i32;
/// `SCE_KERNEL_ERROR_EFAULT`.
pub const EFAULT: i32 = 0x8002_000E_u32 as i32;
/// `SCE_KERNEL_ERROR_EINVAL`.
pub const EINVAL: i32 = 0x8002_0016_u32 as i32;
/// `SCE_KERNEL_ERROR_EAGAIN`.
pub const EAGAIN: i32 = 0x8002_0023_u32 as i32;
/// `SCE_KERNEL_ERROR_ENOSYS`: what unimplemented functions return.
pub const ENOSYS: i32 = 0x8002_004E_u32 as i32;

thread_local! {
    static ERRNO: Cell<i32> = const { Cell::new(0) };
}

/// Sets the calling thread's guest `errno`.
pub fn set_errno(value: i32) {
    ERRNO.with(|e| e.set(value));
}

#[export::nid("__error")]
pub extern "sysv64" fn error_location() -> *mut i32 {
    ERRNO.with(|e| e.as_ptr())
}
