//! The printf family: `printf`, `sprintf`, `snprintf`, `asprintf` and their `v` forms,
//! plus `putchar`.
//!
//! The variadic entries are assembly thunks, since stable Rust cannot define a
//! C-variadic function. Each does what a C compiler's prologue for a variadic function
//! does: spill the six argument registers, and xmm0–xmm7 when `al` (the caller's count of
//! vector registers used) is non-zero, into a register save area on its stack, then build
//! a `va_list` over it whose `gp_offset` skips the named arguments and whose
//! `overflow_arg_area` is the caller's stack arguments. It then calls the Rust entry with
//! the named arguments still in their registers and a pointer to that `va_list` as the
//! next argument, and returns its `eax`. The `v` forms take the guest's own `va_list`
//! (an array, so it arrives as a pointer) and advance it as they read.
//!
//! `fprintf`/`vfprintf` are not here: they need the console's `FILE` layout (and its
//! `stdout`/`stderr` objects), which no module defines yet. `dprintf`/`vdprintf` are not in
//! the PS4 9.00 libc export catalogue, so they are not exported either.
//!
//! Errors follow the C library: -1 with the guest `errno` set (`EINVAL` for a NULL format,
//! buffer or `va_list`, `EOVERFLOW` past `INT_MAX` bytes, `EILSEQ` for a bad wide
//! character, `ENOMEM`). A NULL where the C standard makes it undefined therefore fails
//! cleanly instead of crashing.

use super::format::{self, FormatError, EINVAL, ENOMEM};
use super::va_list::{VaList, VaReader};
use crate::libkernel::errors::set_errno;
use std::ffi::{c_char, c_int, CStr};

/// Defines the exported variadic thunk for `$name` that calls `$target` with `$named`
/// named INTEGER arguments followed by a `*mut VaList`.
///
/// Frame (rsp is 16-byte aligned after `push rbp`, and 208 is a multiple of 16, so the
/// call to Rust is aligned as the ABI requires):
/// `[rsp+0, 48)` general registers, `[rsp+48, 176)` xmm0–7 (16-byte aligned for
/// `movaps`), `[rsp+176, 200)` the `va_list`. The caller's stack arguments start at
/// `rbp+16`, above the saved rbp and the return address.
macro_rules! variadic_export {
    ($name:literal, $target:path, named = 1) => {
        variadic_export!(@asm $name, $target, "8", "rsi");
    };
    ($name:literal, $target:path, named = 2) => {
        variadic_export!(@asm $name, $target, "16", "rdx");
    };
    ($name:literal, $target:path, named = 3) => {
        variadic_export!(@asm $name, $target, "24", "rcx");
    };
    (@asm $name:literal, $target:path, $gp_offset:literal, $ap_reg:literal) => {
        core::arch::global_asm!(
            concat!(".globl native5_thunk_", $name),
            concat!(".type native5_thunk_", $name, ",@function"),
            concat!("native5_thunk_", $name, ":"),
            ".cfi_startproc",
            "push rbp",
            ".cfi_def_cfa_offset 16",
            ".cfi_offset rbp, -16",
            "mov rbp, rsp",
            ".cfi_def_cfa_register rbp",
            "sub rsp, 208",
            "mov [rsp], rdi",
            "mov [rsp + 8], rsi",
            "mov [rsp + 16], rdx",
            "mov [rsp + 24], rcx",
            "mov [rsp + 32], r8",
            "mov [rsp + 40], r9",
            // al = number of vector registers the caller used; skip the spill when none,
            // as compilers do (the area is then never read).
            "test al, al",
            "je 2f",
            "movaps [rsp + 48], xmm0",
            "movaps [rsp + 64], xmm1",
            "movaps [rsp + 80], xmm2",
            "movaps [rsp + 96], xmm3",
            "movaps [rsp + 112], xmm4",
            "movaps [rsp + 128], xmm5",
            "movaps [rsp + 144], xmm6",
            "movaps [rsp + 160], xmm7",
            "2:",
            concat!("mov dword ptr [rsp + 176], ", $gp_offset),
            // No printf-family function has a named floating-point argument.
            "mov dword ptr [rsp + 180], 48",
            "lea rax, [rbp + 16]",
            "mov [rsp + 184], rax",
            "mov [rsp + 192], rsp",
            concat!("lea ", $ap_reg, ", [rsp + 176]"),
            "call {target}",
            "leave",
            ".cfi_def_cfa rsp, 8",
            "ret",
            ".cfi_endproc",
            concat!(".size native5_thunk_", $name, ", . - native5_thunk_", $name),
            concat!(".symver native5_thunk_", $name, ", \"", export::nid_str!($name), "@@libc\""),
            target = sym $target,
        );
    };
}

variadic_export!("printf", printf_entry, named = 1);
variadic_export!("sprintf", sprintf_entry, named = 2);
variadic_export!("snprintf", snprintf_entry, named = 3);
variadic_export!("asprintf", asprintf_entry, named = 2);

/// Runs an entry's body; a panic never unwinds into the guest: it is reported with the
/// function's name and the process aborts, as `#[export::nid]` does for plain exports.
fn guarded(name: &str, body: impl FnOnce() -> c_int) -> c_int {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(v) => v,
        Err(_) => {
            eprintln!("native5: panic in {name}; aborting");
            std::process::abort()
        }
    }
}

/// Sets `errno` and returns the C library's failure value.
fn fail(errno: i32) -> c_int {
    set_errno(errno);
    -1
}

/// Renders a guest format with arguments from a guest `va_list`.
///
/// # Safety
/// `fmt` must be null or a NUL-terminated string; `ap` null or a live `va_list` holding
/// the arguments the format names, valid for their conversions.
unsafe fn render(fmt: *const c_char, ap: *mut VaList) -> Result<Vec<u8>, i32> {
    if fmt.is_null() || ap.is_null() {
        return Err(EINVAL);
    }
    // SAFETY: per the contract, fmt is NUL-terminated and ap is a live va_list.
    unsafe {
        let fmt = CStr::from_ptr(fmt).to_bytes();
        let mut reader = VaReader::new(ap);
        format::format(fmt, &mut reader).map_err(|FormatError(e)| e)
    }
}

/// `vprintf` to the guest's stdout.
///
/// # Safety
/// As for [`render`].
unsafe fn do_vprintf(fmt: *const c_char, ap: *mut VaList) -> c_int {
    // SAFETY: forwarded.
    match unsafe { render(fmt, ap) } {
        Ok(bytes) => {
            crate::guest_io::STDOUT.write(&bytes);
            bytes.len() as c_int
        }
        Err(e) => fail(e),
    }
}

/// # Safety
/// As for [`render`]; `buf` null or writable for the whole output and its NUL.
unsafe fn do_vsprintf(buf: *mut c_char, fmt: *const c_char, ap: *mut VaList) -> c_int {
    if buf.is_null() {
        return fail(EINVAL);
    }
    // SAFETY: forwarded; the guest's buffer holds the output and the NUL (its contract).
    match unsafe { render(fmt, ap) } {
        Ok(bytes) => unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), bytes.len());
            *buf.add(bytes.len()) = 0;
            bytes.len() as c_int
        },
        Err(e) => fail(e),
    }
}

/// # Safety
/// As for [`render`]; `buf` null with `n == 0`, or writable for `n` bytes.
unsafe fn do_vsnprintf(buf: *mut c_char, n: usize, fmt: *const c_char, ap: *mut VaList) -> c_int {
    if buf.is_null() && n != 0 {
        return fail(EINVAL);
    }
    // SAFETY: forwarded.
    match unsafe { render(fmt, ap) } {
        Ok(bytes) => {
            if n != 0 {
                // Truncate to n − 1 bytes and always terminate; the return value is the
                // full length, so the guest can size a buffer with snprintf(NULL, 0, …).
                let keep = bytes.len().min(n - 1);
                // SAFETY: buf has n writable bytes (the guest's contract) and keep < n.
                unsafe {
                    std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), keep);
                    *buf.add(keep) = 0;
                }
            }
            bytes.len() as c_int
        }
        Err(e) => fail(e),
    }
}

/// # Safety
/// As for [`render`]; `ret` null or writable.
unsafe fn do_vasprintf(ret: *mut *mut c_char, fmt: *const c_char, ap: *mut VaList) -> c_int {
    if ret.is_null() {
        return fail(EINVAL);
    }
    // SAFETY: forwarded.
    let result = unsafe { render(fmt, ap) }.and_then(|bytes| {
        // The guest frees the string with its `free`, so it comes from the guest heap.
        let p = super::memory::allocate(bytes.len() + 1).cast::<u8>();
        if p.is_null() {
            return Err(ENOMEM);
        }
        // SAFETY: p is a fresh block of len + 1 bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len());
            *p.add(bytes.len()) = 0;
        }
        Ok((p, bytes.len()))
    });
    match result {
        Ok((p, len)) => {
            // SAFETY: ret is writable (checked non-null; the guest's contract).
            unsafe { *ret = p.cast() };
            len as c_int
        }
        Err(e) => {
            // Like FreeBSD, leave a NULL behind on failure so a careless free is harmless.
            // SAFETY: as above.
            unsafe { *ret = std::ptr::null_mut() };
            fail(e)
        }
    }
}

unsafe extern "sysv64" fn printf_entry(fmt: *const c_char, ap: *mut VaList) -> c_int {
    // SAFETY: the guest's contract for printf; the thunk built `ap`.
    guarded("printf", || unsafe { do_vprintf(fmt, ap) })
}

unsafe extern "sysv64" fn sprintf_entry(
    buf: *mut c_char,
    fmt: *const c_char,
    ap: *mut VaList,
) -> c_int {
    // SAFETY: the guest's contract for sprintf; the thunk built `ap`.
    guarded("sprintf", || unsafe { do_vsprintf(buf, fmt, ap) })
}

unsafe extern "sysv64" fn snprintf_entry(
    buf: *mut c_char,
    n: usize,
    fmt: *const c_char,
    ap: *mut VaList,
) -> c_int {
    // SAFETY: the guest's contract for snprintf; the thunk built `ap`.
    guarded("snprintf", || unsafe { do_vsnprintf(buf, n, fmt, ap) })
}

unsafe extern "sysv64" fn asprintf_entry(
    ret: *mut *mut c_char,
    fmt: *const c_char,
    ap: *mut VaList,
) -> c_int {
    // SAFETY: the guest's contract for asprintf; the thunk built `ap`.
    guarded("asprintf", || unsafe { do_vasprintf(ret, fmt, ap) })
}

/// `int vprintf(const char *fmt, va_list ap)`.
///
/// # Safety
/// The guest's contract for `vprintf`.
#[export::nid("vprintf")]
pub unsafe extern "sysv64" fn vprintf(fmt: *const c_char, ap: *mut VaList) -> c_int {
    // SAFETY: the guest's contract.
    unsafe { do_vprintf(fmt, ap) }
}

/// `int vsprintf(char *buf, const char *fmt, va_list ap)`.
///
/// # Safety
/// The guest's contract for `vsprintf`.
#[export::nid("vsprintf")]
pub unsafe extern "sysv64" fn vsprintf(
    buf: *mut c_char,
    fmt: *const c_char,
    ap: *mut VaList,
) -> c_int {
    // SAFETY: the guest's contract.
    unsafe { do_vsprintf(buf, fmt, ap) }
}

/// `int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)`.
///
/// # Safety
/// The guest's contract for `vsnprintf`.
#[export::nid("vsnprintf")]
pub unsafe extern "sysv64" fn vsnprintf(
    buf: *mut c_char,
    n: usize,
    fmt: *const c_char,
    ap: *mut VaList,
) -> c_int {
    // SAFETY: the guest's contract.
    unsafe { do_vsnprintf(buf, n, fmt, ap) }
}

/// `int vasprintf(char **ret, const char *fmt, va_list ap)`; the string is freed with the
/// guest's `free`.
///
/// # Safety
/// The guest's contract for `vasprintf`.
#[export::nid("vasprintf")]
pub unsafe extern "sysv64" fn vasprintf(
    ret: *mut *mut c_char,
    fmt: *const c_char,
    ap: *mut VaList,
) -> c_int {
    // SAFETY: the guest's contract.
    unsafe { do_vasprintf(ret, fmt, ap) }
}

/// `int putchar(int c)`: writes `(unsigned char)c` to the guest's stdout.
#[export::nid("putchar")]
pub extern "sysv64" fn putchar(c: c_int) -> c_int {
    crate::guest_io::STDOUT.write(&[c as u8]);
    c as u8 as c_int
}

#[cfg(test)]
mod tests {
    use super::*;

    extern "C" {
        #[link_name = "native5_thunk_snprintf"]
        fn thunk_snprintf(buf: *mut c_char, n: usize, fmt: *const c_char, ...) -> c_int;
        #[link_name = "native5_thunk_sprintf"]
        fn thunk_sprintf(buf: *mut c_char, fmt: *const c_char, ...) -> c_int;
        #[link_name = "native5_thunk_asprintf"]
        fn thunk_asprintf(ret: *mut *mut c_char, fmt: *const c_char, ...) -> c_int;
        #[link_name = "native5_thunk_printf"]
        fn thunk_printf(fmt: *const c_char, ...) -> c_int;
    }

    fn text(buf: &[u8]) -> &str {
        let end = buf.iter().position(|&b| b == 0).unwrap();
        std::str::from_utf8(&buf[..end]).unwrap()
    }

    #[test]
    fn snprintf_thunk_reads_registers_and_stack() {
        let mut buf = [0u8; 256];
        let s = c"str";
        // 9 integer-class and 10 double variadic arguments: both register areas fill up
        // and the rest goes to the overflow area, interleaved on the stack.
        // SAFETY: a valid buffer, format and arguments matching it.
        let n = unsafe {
            thunk_snprintf(
                buf.as_mut_ptr().cast(),
                buf.len(),
                c"%d %ld %s %c %u %x %d %lld %d|%.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f"
                    .as_ptr(),
                1 as c_int,
                2i64,
                s.as_ptr(),
                b'c' as c_int,
                5 as c_int,
                0xabc as c_int,
                -7 as c_int,
                8i64,
                9 as c_int,
                0.5f64,
                1.5f64,
                2.5f64,
                3.5f64,
                4.5f64,
                5.5f64,
                6.5f64,
                7.5f64,
                8.25f64,
                9.75f64,
            )
        };
        let expect = "1 2 str c 5 abc -7 8 9|0.5 1.5 2.5 3.5 4.5 5.5 6.5 7.5 8.2 9.8";
        assert_eq!(text(&buf), expect);
        assert_eq!(n as usize, expect.len());
    }

    #[test]
    fn long_double_arguments_come_from_the_aligned_stack() {
        // Rust cannot pass a `long double`, so build the call by hand, as a C compiler
        // would: three ints in rcx, r8, r9; on the stack an int at +0, then the x87 value
        // at the next 16-byte boundary (+16), then an int at +32.
        let third = super::super::va_list::F80 {
            mantissa: 0xaaaa_aaaa_aaaa_aaab,
            sign_exp: 16383 - 2,
        };
        let mut buf = [0u8; 96];
        let ret: i32;
        // SAFETY: a SysV variadic call with every argument where the ABI puts it; the
        // stack is 16-byte aligned on entry to an asm block and stays aligned (48 bytes).
        unsafe {
            std::arch::asm!(
                "sub rsp, 48",
                "mov qword ptr [rsp], 4",
                "mov [rsp + 16], {m}",
                "mov [rsp + 24], {se}",
                "mov qword ptr [rsp + 32], 5",
                "xor eax, eax",
                "call {f}",
                "add rsp, 48",
                m = in(reg) third.mantissa,
                se = in(reg) third.sign_exp as u64,
                f = sym thunk_snprintf,
                in("rdi") buf.as_mut_ptr(),
                in("rsi") buf.len(),
                in("rdx") c"%d %d %d %d %.22Lf %d".as_ptr(),
                in("rcx") 1u64,
                in("r8") 2u64,
                in("r9") 3u64,
                lateout("eax") ret,
                clobber_abi("C"),
            );
        }
        let expect = "1 2 3 4 0.3333333333333333333424 5";
        assert_eq!(text(&buf), expect);
        assert_eq!(ret as usize, expect.len());
    }

    #[test]
    fn snprintf_truncates_and_counts() {
        let mut buf = [0xffu8; 8];
        // SAFETY: valid buffer and format.
        let n = unsafe {
            thunk_snprintf(
                buf.as_mut_ptr().cast(),
                4,
                c"%s-%d".as_ptr(),
                c"abcdef".as_ptr(),
                42 as c_int,
            )
        };
        assert_eq!(n, 9);
        assert_eq!(&buf[..5], b"abc\0\xff");
        // n = 0 writes nothing, even through a NULL buffer.
        // SAFETY: n = 0 permits NULL.
        let n = unsafe { thunk_snprintf(std::ptr::null_mut(), 0, c"%05d".as_ptr(), 7 as c_int) };
        assert_eq!(n, 5);
    }

    #[test]
    fn sprintf_and_asprintf_thunks() {
        let mut buf = [0u8; 64];
        // SAFETY: valid buffer and format; only doubles, so al > 0 with no integers.
        let n = unsafe {
            thunk_sprintf(
                buf.as_mut_ptr().cast(),
                c"%g %e".as_ptr(),
                0.0001f64,
                12345.678f64,
            )
        };
        assert_eq!(text(&buf), "0.0001 1.234568e+04");
        assert_eq!(n, 19);
        let mut out: *mut c_char = std::ptr::null_mut();
        // SAFETY: valid out-pointer and format.
        let n = unsafe {
            thunk_asprintf(
                &mut out,
                c"[%*d|%-4s]".as_ptr(),
                6 as c_int,
                -12 as c_int,
                c"ab".as_ptr(),
            )
        };
        assert_eq!(n, 13);
        // SAFETY: asprintf returned a NUL-terminated guest heap string.
        unsafe {
            assert_eq!(CStr::from_ptr(out).to_str().unwrap(), "[   -12|ab  ]");
            super::super::memory::release(out.cast());
        }
    }

    #[test]
    fn null_arguments_fail_cleanly() {
        // SAFETY: NULL format and buffer are refused before any use.
        unsafe {
            assert_eq!(thunk_printf(std::ptr::null()), -1);
            assert_eq!(thunk_sprintf(std::ptr::null_mut(), c"x".as_ptr()), -1);
            assert_eq!(thunk_asprintf(std::ptr::null_mut(), c"x".as_ptr()), -1);
            assert_eq!(thunk_snprintf(std::ptr::null_mut(), 5, c"x".as_ptr()), -1);
            assert_eq!(vprintf(c"x".as_ptr(), std::ptr::null_mut()), -1);
            // printf of nothing returns 0 and prints nothing.
            assert_eq!(thunk_printf(c"%.0s".as_ptr(), c"hidden".as_ptr()), 0);
        }
    }

    #[test]
    fn v_forms_advance_the_guest_va_list() {
        // A va_list as a guest's va_start leaves it: two named arguments used, the rest in
        // registers then on the stack.
        let mut save = [0u64; 22];
        save[2] = 10;
        save[3] = 20;
        save[4] = 30;
        save[5] = 40;
        let mut stack = [50u64, 60, 70];
        let mut ap = VaList {
            gp_offset: 16,
            fp_offset: 48,
            overflow_arg_area: stack.as_mut_ptr().cast(),
            reg_save_area: save.as_mut_ptr().cast(),
        };
        let mut buf = [0u8; 64];
        // SAFETY: the va_list above holds the six ints the format reads.
        let n = unsafe {
            vsnprintf(
                buf.as_mut_ptr().cast(),
                64,
                c"%d %d %d %d %d %d".as_ptr(),
                &mut ap,
            )
        };
        assert_eq!(text(&buf), "10 20 30 40 50 60");
        assert_eq!(n, 17);
        assert_eq!(ap.gp_offset, 48);
        // SAFETY: still inside `stack`.
        assert_eq!(
            ap.overflow_arg_area,
            unsafe { stack.as_mut_ptr().add(2) }.cast()
        );
    }
}
