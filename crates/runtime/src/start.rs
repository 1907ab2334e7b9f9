//! Start-up and shutdown of a relinked title.
//!
//! The relinker's entry stub calls [`native5_start`] with the initial process stack
//! (argc, argv, envp, auxv: the stack-style block the guest `_start` expects in rdi)
//! and the host loader's finalizer. We start the bundled modules listed in
//! `native5.toml`, then call the guest entry with rdi = that block and rsi = an exit
//! callback that runs the finalizers once.

use serde::Deserialize;
use std::ffi::c_void;
use std::path::{Component, Path, PathBuf};
use std::sync::{Once, OnceLock};

/// The guest entry point: `_start(block, exit_callback)`.
pub type GuestStart = extern "sysv64" fn(*mut u64, extern "sysv64" fn());

/// The part of `native5.toml` the runtime reads.
#[derive(Debug, Default, Deserialize)]
pub struct TitleConfig {
    /// `[modules]`.
    #[serde(default)]
    pub modules: ModulesConfig,
}

/// `[modules]` of `native5.toml`.
#[derive(Debug, Default, Deserialize)]
pub struct ModulesConfig {
    /// Modules started before the title's entry, relative to the output folder.
    #[serde(default)]
    pub start: Vec<String>,
}

static OUTPUT_DIR: OnceLock<PathBuf> = OnceLock::new();
static RTLD_FINI: OnceLock<Option<extern "C" fn()>> = OnceLock::new();
static FINALIZERS: Once = Once::new();
static INIT: Once = Once::new();

/// The relinked output folder: where `app.elf` lives.
pub fn output_dir() -> &'static Path {
    OUTPUT_DIR.get_or_init(|| {
        std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| PathBuf::from("."))
    })
}

/// Maps a guest path to a host path. Only `/app0` is mounted at this stage; a path that
/// would leave its mount is refused.
pub fn map_guest_path(guest: &str) -> Option<PathBuf> {
    let rest = guest.strip_prefix("/app0")?;
    let mut host = output_dir().join("app0");
    for c in Path::new(rest).components() {
        match c {
            Component::Normal(n) => host.push(n),
            Component::RootDir | Component::CurDir => {}
            Component::ParentDir | Component::Prefix(_) => return None,
        }
    }
    Some(host)
}

/// One-time runtime set-up; safe to call from any export.
pub fn ensure_initialized() {
    INIT.call_once(|| {
        crate::libkernel::stack_protector::seed();
    });
}

/// Runs before any guest initializer: the runtime is a dependency of the title.
extern "C" fn runtime_initializer() {
    ensure_initialized();
}

#[used]
#[unsafe(link_section = ".init_array")]
static RUNTIME_INITIALIZER: extern "C" fn() = runtime_initializer;

/// Runs the host loader's finalizers (the title's and modules' DT_FINI_ARRAY), once.
pub fn run_finalizers_once() {
    FINALIZERS.call_once(|| {
        if let Some(Some(f)) = RTLD_FINI.get() {
            f();
        }
    });
}

extern "sysv64" fn exit_callback() {
    run_finalizers_once();
}

fn read_config() -> TitleConfig {
    let path = output_dir().join("native5.toml");
    match std::fs::read_to_string(&path) {
        Ok(text) => match toml::from_str(&text) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("native5: {}: {e}", path.display());
                TitleConfig::default()
            }
        },
        Err(_) => TitleConfig::default(),
    }
}

/// Called by the relinker's entry stub. Never returns.
///
/// # Safety
/// `block` is the initial process stack and `entry` the guest's `_start`.
#[unsafe(no_mangle)]
pub unsafe extern "sysv64" fn native5_start(
    block: *mut u64,
    rtld_fini: Option<extern "C" fn()>,
    entry: GuestStart,
) -> ! {
    ensure_initialized();
    let _ = RTLD_FINI.set(rtld_fini);
    for rel in read_config().modules.start {
        let path = output_dir().join(&rel);
        match crate::libkernel::modules::open(&path) {
            Ok(id) => {
                let _ = crate::libkernel::modules::start(id, 0, std::ptr::null::<c_void>());
            }
            Err(e) => {
                eprintln!("native5: cannot load start module {rel}: {e}");
                crate::libc::startup::run_exit(1)
            }
        }
    }
    entry(block, exit_callback);
    crate::libc::startup::run_exit(0)
}

/// Called by the stub the relinker binds an import to when the runtime does not
/// implement it: reports the NID and name, then aborts.
///
/// # Safety
/// `what` is a NUL-terminated string written by the relinker.
#[unsafe(no_mangle)]
pub unsafe extern "sysv64" fn native5_missing_import(what: *const std::ffi::c_char) -> ! {
    crate::guest_io::flush_all();
    // SAFETY: per the contract.
    let what = unsafe { std::ffi::CStr::from_ptr(what) }.to_string_lossy();
    eprintln!("native5: the title called {what}, which the runtime does not implement; aborting");
    std::process::abort()
}
