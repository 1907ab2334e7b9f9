//! The printf family as a guest sees it: exported from the built shared object under
//! NIDs, the variadic ones through their assembly thunks in version node `libc`.

use std::ffi::{c_char, c_int, c_void, CString};

/// The runtime shared object that cargo built next to this test.
fn runtime_so() -> CString {
    let exe = std::env::current_exe().expect("test executable path");
    let so = exe
        .parent()
        .expect("deps dir")
        .join("libnative5_runtime.so");
    assert!(so.exists(), "{} not built", so.display());
    CString::new(so.to_str().unwrap()).unwrap()
}

fn open() -> *mut c_void {
    let path = runtime_so();
    // SAFETY: a valid path; the runtime's initializer only seeds the stack canary.
    let h =
        unsafe { host_libc::dlopen(path.as_ptr(), host_libc::RTLD_NOW | host_libc::RTLD_LOCAL) };
    assert!(!h.is_null(), "dlopen failed");
    h
}

fn lookup(h: *mut c_void, name: &str, version: Option<&str>) -> *mut c_void {
    let nid = CString::new(sce::nid_of(name)).unwrap();
    // SAFETY: a live handle and valid strings.
    unsafe {
        match version {
            Some(v) => {
                let v = CString::new(v).unwrap();
                host_libc::dlvsym(h, nid.as_ptr(), v.as_ptr())
            }
            None => host_libc::dlsym(h, nid.as_ptr()),
        }
    }
}

#[test]
fn every_export_resolves_by_nid() {
    let h = open();
    for name in ["printf", "sprintf", "snprintf", "asprintf"] {
        assert!(!lookup(h, name, Some("libc")).is_null(), "{name}@libc");
    }
    for name in ["vprintf", "vsprintf", "vsnprintf", "vasprintf", "putchar"] {
        assert!(!lookup(h, name, None).is_null(), "{name}");
    }
}

#[test]
fn exported_snprintf_is_variadic() {
    let h = open();
    let f = lookup(h, "snprintf", Some("libc"));
    assert!(!f.is_null());
    type Snprintf = unsafe extern "C" fn(*mut c_char, usize, *const c_char, ...) -> c_int;
    // SAFETY: the symbol is the snprintf thunk, which has exactly this C signature.
    let snprintf: Snprintf = unsafe { std::mem::transmute(f) };
    let mut buf = [0u8; 128];
    // SAFETY: a valid buffer, format and matching arguments (7 ints, 9 doubles: some of
    // each go to the stack).
    let n = unsafe {
        snprintf(
            buf.as_mut_ptr().cast(),
            buf.len(),
            c"%d%d%d%d%d%d%d %g %g %g %g %g %g %g %g %g %p".as_ptr(),
            1 as c_int,
            2 as c_int,
            3 as c_int,
            4 as c_int,
            5 as c_int,
            6 as c_int,
            7 as c_int,
            0.5,
            1.0,
            1.5,
            2.0,
            2.5,
            3.0,
            3.5,
            4.0,
            1e100,
            std::ptr::null::<c_void>(),
        )
    };
    let expect = "1234567 0.5 1 1.5 2 2.5 3 3.5 4 1e+100 0x0";
    assert_eq!(&buf[..expect.len() + 1], format!("{expect}\0").as_bytes());
    assert_eq!(n as usize, expect.len());
}
