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
