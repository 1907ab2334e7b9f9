//! libkernel: threads and their synchronization objects, memory, event queues, files, time,
//! modules, TLS, errno and the stack protector.

pub mod cond;
pub mod dmem;
pub mod equeue;
pub mod errors;
pub mod event_flag;
pub mod file;
pub mod modules;
pub mod mutex;
pub mod process;
pub mod rwlock;
pub mod sema;
pub mod stack_protector;
pub mod thread;
pub mod time;
pub mod tls;
pub mod vm;
pub mod wait;
