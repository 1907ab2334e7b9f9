//! Process-level queries: the title's process parameters and SDK version, the platform
//! (PS5, not a PS4 Pro), the process id and the current CPU.

use std::ffi::c_void;

/// `PT_SCE_PROCPARAM`, which the relinker keeps in the host program headers.
const PT_SCE_PROCPARAM: u32 = 0x6100_0001;

#[export::nid("sceKernelGetProcParam")]
pub extern "sysv64" fn sce_kernel_get_proc_param() -> *const c_void {
    match crate::start::main_program_segment(PT_SCE_PROCPARAM) {
        Some((bias, vaddr)) => (bias + vaddr) as *const c_void,
        None => std::ptr::null(),
    }
}

/// Offset of the SDK version (a u32) in the process parameters: after the size (u64),
/// the magic (u32) and the entry count (u32).
const PROCPARAM_SDK_VERSION: usize = 16;

#[export::nid("sceKernelGetCompiledSdkVersion")]
pub unsafe extern "sysv64" fn sce_kernel_get_compiled_sdk_version(version: *mut i32) -> i32 {
    if version.is_null() {
        return super::errors::EINVAL;
    }
    let param = sce_kernel_get_proc_param() as *const u8;
    if param.is_null() {
        // A title without process parameters has no compiled SDK version.
        return super::errors::ENOENT;
    }
    // SAFETY: the PT_SCE_PROCPARAM segment is mapped and starts with the size field;
    // the version is read only when the size says it is there.
    let v = unsafe {
        let size = (param as *const u64).read_unaligned();
        if size < (PROCPARAM_SDK_VERSION + 4) as u64 {
            return super::errors::ENOENT;
        }
        (param.add(PROCPARAM_SDK_VERSION) as *const u32).read_unaligned()
    };
    // SAFETY: checked non-null; writable per the guest's contract.
    unsafe { version.write_unaligned(v as i32) };
    0
}

/// `sceKernelIsNeoMode`: 0, a PS5 runs PS5 titles in no PS4 Pro mode.
#[export::nid("sceKernelIsNeoMode")]
pub extern "sysv64" fn sce_kernel_is_neo_mode() -> i32 {
    0
}

/// `sceKernelIsProspero`: 1, this is a PS5.
#[export::nid("sceKernelIsProspero")]
pub extern "sysv64" fn sce_kernel_is_prospero() -> i32 {
    1
}

#[export::nid("getpid")]
pub extern "sysv64" fn getpid() -> i32 {
    std::process::id() as i32
}

/// The CPU the calling thread runs on (the host CPU number; titles use it to pick
/// per-CPU slots, so any stable small number is right).
#[export::nid("sceKernelGetCurrentCpu")]
pub extern "sysv64" fn sce_kernel_get_current_cpu() -> i32 {
    // SAFETY: sched_getcpu has no preconditions.
    let cpu = unsafe { host_libc::sched_getcpu() };
    cpu.max(0)
}
