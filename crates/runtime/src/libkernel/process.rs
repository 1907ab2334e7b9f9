//! Process-level queries: the title's process parameters.

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
