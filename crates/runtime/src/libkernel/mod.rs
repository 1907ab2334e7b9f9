//! libkernel: threads and their synchronization objects, time, modules, TLS, errno and
//! the stack protector.

pub mod cond;
pub mod errors;
pub mod event_flag;
pub mod modules;
pub mod mutex;
pub mod rwlock;
pub mod sema;
pub mod stack_protector;
pub mod thread;
pub mod time;
pub mod tls;
pub mod wait;
