//! Start-up and shutdown of a relinked title.
//!
//! The relinker's entry stub calls [`native5_start`] with the initial process stack
//! (argc, argv, envp, auxv: the stack-style block the guest `_start` expects in rdi)
//! and the host loader's finalizer. We start the bundled modules listed in
//! `native5.toml`, then call the guest entry with rdi = that block and rsi = an exit
//! callback that runs the finalizers once.

use serde::Deserialize;
use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::sync::{Once, OnceLock};

/// The guest entry point: `_start(block, exit_callback)`.
pub type GuestStart = extern "sysv64" fn(*mut u64, extern "sysv64" fn());

/// The part of `native5.toml` the runtime reads.
#[derive(Debug, Default, Deserialize)]
pub struct TitleConfig {
    /// `[modules]`.
    #[serde(default)]
    pub modules: ModulesConfig,
    /// `[paths]`.
    #[serde(default)]
    pub paths: PathsConfig,
}

/// `[paths]` of `native5.toml`: where the writable guest mounts live on the host.
/// Relative paths are relative to the output folder.
#[derive(Debug, Default, Deserialize)]
pub struct PathsConfig {
    /// The folder that holds `<title>/{savedata0,temp0,download0}`; the default is
    /// `$XDG_DATA_HOME/native5` (or `~/.local/share/native5`). `NATIVE5_DATA_DIR` wins.
    pub data_dir: Option<PathBuf>,
    /// The per-title folder name under `data_dir`; the default is the output folder's name.
    pub title: Option<String>,
    /// The host folder of `/savedata0`, instead of `<data_dir>/<title>/savedata0`.
    pub savedata0: Option<PathBuf>,
    /// The host folder of `/temp0`.
    pub temp0: Option<PathBuf>,
    /// The host folder of `/download0`.
    pub download0: Option<PathBuf>,
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

/// One-time runtime set-up; safe to call from any export.
pub fn ensure_initialized() {
    INIT.call_once(|| {
        crate::libkernel::stack_protector::seed();
        crate::libkernel::time::mark_process_start();
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

/// The title's `native5.toml`, read once (defaults when it is missing or malformed).
pub fn config() -> &'static TitleConfig {
    static CONFIG: OnceLock<TitleConfig> = OnceLock::new();
    CONFIG.get_or_init(read_config)
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
    for rel in &config().modules.start {
        let path = output_dir().join(rel);
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
    // SAFETY: `block` is the initial process stack (the entry stub's contract).
    unsafe { run_main_initializers(block) };
    entry(block, exit_callback);
    crate::libc::startup::run_exit(0)
}

/// The host loader runs every object's initializers except the main program's (glibc
/// leaves those to `__libc_start_main`, which a relinked title never calls), so the
/// title's DT_INIT and DT_INIT_ARRAY run here, in that order, before its entry.
///
/// # Safety
/// `block` is the initial process stack: argc, argv[], NULL, envp[], NULL.
unsafe fn run_main_initializers(block: *mut u64) {
    type Init = extern "C" fn(i32, *const *const u8, *const *const u8);
    // SAFETY: per the contract, argv starts after argc and envp after argv's NULL.
    let (argc, argv, envp) = unsafe {
        let argc = *block as usize;
        let argv = block.add(1) as *const *const u8;
        (argc as i32, argv, argv.add(argc + 1))
    };
    let Some((bias, dynamic)) = main_program_dynamic() else {
        return;
    };
    let mut init = None;
    let (mut array, mut array_len) = (0u64, 0u64);
    let mut p = dynamic;
    // SAFETY: the main program's PT_DYNAMIC is mapped and ends with DT_NULL.
    unsafe {
        while *p != 0 {
            match *p {
                12 => init = Some(*p.add(1)),
                25 => array = *p.add(1),
                27 => array_len = *p.add(1),
                _ => {}
            }
            p = p.add(2);
        }
    }
    if let Some(i) = init {
        // SAFETY: DT_INIT of the title, relocated by the loader's bias.
        let f: Init = unsafe { std::mem::transmute((bias + i) as usize) };
        f(argc, argv, envp);
    }
    for k in 0..array_len / 8 {
        // SAFETY: the array's slots were relocated by the loader; each is a function.
        let slot = unsafe { *((bias + array + k * 8) as *const u64) };
        if slot != 0 && slot != u64::MAX {
            // SAFETY: a non-empty init-array slot holds a function address.
            let f: Init = unsafe { std::mem::transmute(slot as usize) };
            f(argc, argv, envp);
        }
    }
}

/// The main program's load bias and its dynamic table.
fn main_program_dynamic() -> Option<(u64, *const u64)> {
    main_program_segment(host_libc::PT_DYNAMIC).map(|(bias, va)| (bias, (bias + va) as *const u64))
}

/// The main program's load bias and the `p_vaddr` of its first segment of `p_type`.
pub fn main_program_segment(p_type: u32) -> Option<(u64, u64)> {
    struct Query {
        p_type: u32,
        found: Option<(u64, u64)>,
    }
    unsafe extern "C" fn first(
        info: *mut host_libc::dl_phdr_info,
        _: usize,
        data: *mut c_void,
    ) -> i32 {
        // SAFETY: the loader passes a valid info; `data` is our query.
        unsafe {
            let info = &*info;
            let q = &mut *(data as *mut Query);
            for i in 0..info.dlpi_phnum as usize {
                let ph = &*info.dlpi_phdr.add(i);
                if ph.p_type == q.p_type && q.found.is_none() {
                    q.found = Some((info.dlpi_addr, ph.p_vaddr));
                }
            }
        }
        1 // the first object is the main program; stop there
    }
    let mut q = Query {
        p_type,
        found: None,
    };
    // SAFETY: the callback writes only into `q`.
    unsafe { host_libc::dl_iterate_phdr(Some(first), (&raw mut q).cast()) };
    q.found
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
