//! PS5/PS4 binary formats: the SCE ELF with its dynlib-data tables, fake SELF
//! containers and NIDs, read and written.
//!
//! [`Image::parse`] reads an executable or module (SELF-wrapped or not). The
//! [`writer`] turns a normal x86-64 PIE or shared object into an SCE ELF, the way a
//! console toolchain does. This crate knows nothing about relinking or the runtime.

pub mod bytes;
pub mod catalogue;
pub mod dynamic;
pub mod elf;
pub mod error;
pub mod image;
pub mod nid;
pub mod self_file;
pub mod strtab;
pub mod writer;

pub use catalogue::NidCatalogue;
pub use error::{Error, Result};
pub use image::{
    Container, Export, Image, Import, Library, Module, Relocation, Symbol, SymbolKind,
};
pub use nid::{nid_of, SymbolNid};
