//! Loading modules at run time: `sceKernelLoadStartModule`, `sceKernelDlsym`.
//!
//! A relinked module is a host shared object under the output's `app0/`, at the path
//! the title names it by. Symbols are looked up by the NID of their name.

use super::errors::{EINVAL, ENOENT, ESRCH};
use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::Mutex;

/// Handles of loaded modules, with the host path each was opened from; a module id is
/// its index plus one.
struct Handle(*mut c_void, std::path::PathBuf);
// SAFETY: dlopen handles may be used from any thread.
unsafe impl Send for Handle {}

static MODULES: Mutex<Vec<Handle>> = Mutex::new(Vec::new());

/// `module_start(argc, argv)`.
type ModuleStart = extern "sysv64" fn(usize, *const c_void) -> i32;

/// The id of a module already opened from `host_path`.
pub fn find(host_path: &std::path::Path) -> Option<i32> {
    let m = MODULES.lock().unwrap_or_else(|e| e.into_inner());
    m.iter()
        .position(|h| h.1 == host_path)
        .map(|i| i as i32 + 1)
}

/// Opens a relinked module and records it; returns its id.
pub fn open(host_path: &std::path::Path) -> Result<i32, String> {
    let c = CString::new(host_path.as_os_str().as_encoded_bytes()).map_err(|e| e.to_string())?;
    // SAFETY: `c` is a valid path string.
    let h = unsafe { host_libc::dlopen(c.as_ptr(), host_libc::RTLD_NOW | host_libc::RTLD_GLOBAL) };
    if h.is_null() {
        // SAFETY: dlerror returns a valid string after a failed dlopen.
        let err = unsafe { CStr::from_ptr(host_libc::dlerror()) };
        return Err(err.to_string_lossy().into_owned());
    }
    let mut m = MODULES.lock().unwrap_or_else(|e| e.into_inner());
    m.push(Handle(h, host_path.to_path_buf()));
    Ok(m.len() as i32)
}

/// Looks up a symbol of module `id` by PS5 name (through its NID).
pub fn symbol(id: i32, name: &str) -> Option<*mut c_void> {
    let m = MODULES.lock().unwrap_or_else(|e| e.into_inner());
    let h = m.get((id as usize).checked_sub(1)?)?.0;
    let nid = CString::new(sce_nid(name)).ok()?;
    // SAFETY: `h` is a live dlopen handle; `nid` is a valid string.
    let p = unsafe { host_libc::dlsym(h, nid.as_ptr()) };
    (!p.is_null()).then_some(p)
}

/// Runs a module's `module_start`, if it has one.
pub fn start(id: i32, args: usize, argp: *const c_void) -> i32 {
    match symbol(id, "module_start") {
        Some(p) => {
            // SAFETY: `module_start` has this signature on the console.
            let f: ModuleStart = unsafe { std::mem::transmute(p) };
            f(args, argp)
        }
        None => 0,
    }
}

fn sce_nid(name: &str) -> String {
    sce::nid_of(name)
}

#[export::nid("sceKernelLoadStartModule")]
pub unsafe extern "sysv64" fn sce_kernel_load_start_module(
    path: *const c_char,
    args: usize,
    argp: *const c_void,
    _flags: u32,
    _option: *const c_void,
    result: *mut i32,
) -> i32 {
    if path.is_null() {
        return EINVAL;
    }
    // SAFETY: a non-null path is a NUL-terminated guest string.
    let bytes = unsafe { CStr::from_ptr(path) }.to_bytes();
    let guest = String::from_utf8_lossy(bytes).into_owned();
    // Modules load through the mount layer, like files: a path outside its mount fails.
    let host = match crate::vfs::resolve(bytes, true) {
        Ok(crate::vfs::Resolved::Host { path, .. }) => path,
        Ok(crate::vfs::Resolved::Device(_)) => return ENOENT,
        Err(e) => return super::wait::sce(e),
    };
    // A module that is already loaded (such as a start module) keeps its id and is not
    // started a second time.
    if let Some(id) = find(&host) {
        if !result.is_null() {
            // SAFETY: a non-null result pointer is writable.
            unsafe { *result = 0 };
        }
        return id;
    }
    match open(&host) {
        Ok(id) => {
            let r = start(id, args, argp);
            if !result.is_null() {
                // SAFETY: a non-null result pointer is writable.
                unsafe { *result = r };
            }
            id
        }
        Err(e) => {
            eprintln!("native5: sceKernelLoadStartModule({guest}): {e}");
            ENOENT
        }
    }
}

#[export::nid("sceKernelDlsym")]
pub unsafe extern "sysv64" fn sce_kernel_dlsym(
    id: i32,
    name: *const c_char,
    out: *mut *mut c_void,
) -> i32 {
    if name.is_null() || out.is_null() {
        return EINVAL;
    }
    // SAFETY: a non-null name is a NUL-terminated guest string.
    let name = unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned();
    match symbol(id, &name) {
        Some(p) => {
            // SAFETY: checked non-null.
            unsafe { *out = p };
            0
        }
        None => ESRCH,
    }
}
