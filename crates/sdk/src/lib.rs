//! Builds PS5-format titles from C and C++ (see README.md).

pub mod files;
pub mod stubs;
pub mod table;
