//! `__tls_get_addr` for modules.
//!
//! Relinked modules are ordinary host shared objects, so the host loader assigns their
//! TLS module ids and resolves their DTPMOD64/DTPOFF64 relocations. The guest's
//! `tls_index` has the host layout ({module, offset}); we hand it to the host loader.

use std::ffi::c_void;

/// The `{module, offset}` pair that general-dynamic TLS code passes.
#[repr(C)]
pub struct TlsIndex {
    /// Module id, from a DTPMOD64 relocation.
    pub module: u64,
    /// Offset in the module's block, from a DTPOFF64 relocation.
    pub offset: u64,
}
const _: () = assert!(std::mem::size_of::<TlsIndex>() == 16);

unsafe extern "C" {
    #[link_name = "__tls_get_addr"]
    fn host_tls_get_addr(index: *mut TlsIndex) -> *mut c_void;
}

#[export::nid("__tls_get_addr")]
pub unsafe extern "sysv64" fn tls_get_addr(index: *mut TlsIndex) -> *mut c_void {
    // SAFETY: `index` comes from relocations the host loader resolved for this module.
    unsafe { host_tls_get_addr(index) }
}
