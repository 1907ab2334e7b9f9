//! libc (and the parts of libSceLibcInternal titles reach through it): start-up,
//! exit, memory, strings and output. Everything is implemented here in Rust; nothing is
//! forwarded to the host C library, so behaviour is the same on every host.

pub mod float;
pub mod format;
#[cfg(test)]
mod format_tests;
pub mod memory;
pub mod printf;
pub mod startup;
pub mod string;
pub mod va_list;
