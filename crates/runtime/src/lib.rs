//! The native5 runtime: the one shared object that relinked titles bind to.
//!
//! Every PS5 system library we implement is a module here (`libkernel`, `libc`, …),
//! and every guest-facing function is an `extern "sysv64"` export named by the NID of
//! its PS5 name through [`export::nid`]. One shared object means one copy of shared
//! state (handles, the guest memory map, the GPU device) for all of them.
//!
//! Start-up: ld.so loads the relinked `app.elf`, this library and the bundled modules,
//! runs their initializers, and jumps to the entry stub the relinker wrote, which calls
//! [`start::native5_start`]. That starts the bundled modules and calls the title's entry.

/// Defines an exported assembly thunk named by the NID of `$name`, in version node
/// `$module`, that calls `$target` with the argument registers untouched while saving
/// r8–r11 around it (the OpenOrbis `_start` keeps values there across these calls).
#[macro_export]
macro_rules! guest_thunk {
    ($name:literal, $module:literal, $target:path) => {
        core::arch::global_asm!(
            concat!(".globl native5_thunk_", $name),
            concat!(".type native5_thunk_", $name, ",@function"),
            concat!("native5_thunk_", $name, ":"),
            "push r8",
            "push r9",
            "push r10",
            "push r11",
            "sub rsp, 8",
            "call {target}",
            "add rsp, 8",
            "pop r11",
            "pop r10",
            "pop r9",
            "pop r8",
            "ret",
            concat!(".size native5_thunk_", $name, ", . - native5_thunk_", $name),
            concat!(".symver native5_thunk_", $name, ", \"", export::nid_str!($name), "@@", $module, "\""),
            target = sym $target,
        );
    };
}

pub mod ampr;
pub mod guest_io;
pub mod libc;
pub mod libkernel;
pub mod start;
pub mod vfs;
pub mod videoout;
