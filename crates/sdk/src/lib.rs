//! Builds PS5-format titles from C and C++ (see README.md).

pub mod table;
