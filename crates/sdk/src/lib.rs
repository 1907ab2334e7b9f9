//! Builds PS5-format titles from C and C++, for testing native5 against code that a real
//! PS5-target compiler produced.
//!
//! [`build`] compiles each source with `clang-19 --target=x86_64-sie-ps5` against the
//! sdk's own PS5-ABI headers, links with `ld.lld-19` against stub libraries generated
//! for the console modules the title imports from, and converts the result with
//! [`sce::writer::write`]. [`link`] stops before the conversion.
//!
//! ```no_run
//! let opts = sdk::BuildOptions::new(["hello.c"], "out/eboot.bin");
//! let out = sdk::build(&opts)?;
//! println!("{} imports", out.imports.len());
//! # Ok::<(), sdk::SdkError>(())
//! ```
//!
//! # The PS5 target's defaults, and what the sdk does about them
//!
//! - **Stack protector** (`-stack-protector 2`): every function with a buffer reads
//!   `__stack_chk_guard`, a data object of libkernel, and calls `__stack_chk_fail`. Both
//!   are in the export table; the guard is an STT_OBJECT in the stub and reached through
//!   the GOT (`-fno-direct-access-external-data`), so it is imported with GLOB_DAT.
//! - **Constructors in `.ctors`**: the driver passes `-fno-use-init-array` and rejects
//!   `-fuse-init-array` for this target ("unsupported option"), and cc1 has no flag to
//!   turn init arrays back on. So the sdk does what the console's crt does: its
//!   `crtbegin.o` defines `_init` (DT_INIT), which walks `.ctors` from the end back to the
//!   start, and `_fini` (DT_FINI), which walks `.dtors`. A title built by the sdk thus
//!   starts exactly like a console title: whoever loads it calls DT_INIT (then
//!   DT_INIT_ARRAY, if anything put entries there) before the entry point. For modules,
//!   ld.so does this; for the executable, glibc's ld.so does *not* (it leaves the main
//!   program's constructors to `__libc_start_main`), so native5's entry stub must.
//! - **Hidden visibility** (`-fvisibility=hidden`): exports of a `--module` build must be
//!   marked `SCE_EXPORT` (from any sdk header, e.g. `<kernel.h>`), which is
//!   `__attribute__((visibility("default")))`; `__declspec(dllexport)` also works.
//!   `module_start`/`module_stop` are declared exported in `<kernel.h>`; the module crt
//!   gives weak defaults that return 0, and the sdk refuses a module whose
//!   `module_start`/`module_stop` ended up hidden.
//! - C++ is compiled without exceptions and RTTI by default (the target's defaults); pass
//!   `-fexceptions`/`-frtti` in the extra flags if wanted. The runtime support they need
//!   (`__gxx_personality_v0`, typeinfo vtables) is in libc's part of the table.
//!
//! # The crt
//!
//! `crt/crt1.c` (executables): `_start(rdi, rsi)` takes the console's entry ABI: `rdi`
//! points at a stack-style block (argc as 8 bytes, argv[] inline, NULL, envp[], NULL,
//! auxv), `rsi` is an exit callback that it registers with `atexit`. It calls
//! `main(argc, argv, envp)` and then `exit` with the result. It also reserves the
//! `.sce_process_param` block that the writer fills. `crt/crtmodule.c` (modules): weak
//! `module_start`/`module_stop` and the `.sce_module_param` block. Both are compiled from
//! source on each build, like everything else, in a temporary work folder.

mod build;
mod error;
pub mod files;
pub mod stubs;
pub mod table;
mod toolchain;

pub use build::{build, link, BuildOptions, BuildOutput, Linked};
pub use error::SdkError;
pub use sce::writer::{ImportBinding, OutputKind};
pub use table::{ExportTable, Placement, SymbolKind};
pub use toolchain::{test_toolchain, Toolchain};

/// The SDK version recorded in the process/module parameter block of every title.
///
/// The console packs it as `0xMMmmbbbb` (major, minor, build in hex digits read as
/// decimal: `0x0450_8101` is 4.50, build 8101). The sdk claims 5.50, build 0: the PS5
/// firmware that the AGC NID table (`agc_known_nids.tsv`) was taken from.
pub const SDK_VERSION: u32 = 0x0550_0000;
