//! libkernel: threads, time, modules, TLS, errno and the stack protector.

pub mod dmem;
pub mod equeue;
pub mod errors;
pub mod modules;
pub mod process;
pub mod stack_protector;
pub mod thread;
pub mod time;
pub mod tls;
