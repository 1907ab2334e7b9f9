//! `native5 relink` and `native5 run`.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `native5 relink`.
pub struct Args {
    pub allow_syscalls: bool,
    pub unused_filter: u8,
    pub registry: bool,
    pub nids: Option<PathBuf>,
    pub input: PathBuf,
    pub outdir: PathBuf,
}

/// Runs `native5 relink`.
pub fn relink(a: &Args) -> Result<()> {
    let unused_filter = match a.unused_filter {
        0 => relink::UnusedFilter::Keep,
        1 => relink::UnusedFilter::NonPlt,
        2 => relink::UnusedFilter::Strict,
        n => bail!("--unused-filter={n}: use 0, 1 or 2"),
    };
    let opts = relink::RelinkOptions {
        allow_syscalls: a.allow_syscalls,
        registry: a.registry,
        unused_filter,
        runtime: None,
        catalogue: crate::catalogue::load(a.nids.as_deref())?,
    };
    let report = relink::relink(&a.input, &a.outdir, &opts)
        .with_context(|| format!("relinking {}", a.input.display()))?;
    for f in &report.files {
        println!("wrote {}", a.outdir.join(f).display());
    }
    println!(
        "imports: {} bound to the runtime, {} to bundled modules, {} to abort stubs, \
         {} dropped as unused; {} instructions scanned",
        report.bound_runtime,
        report.bound_modules,
        report.stubbed.len(),
        report.dropped,
        report.scanned_instructions
    );
    for (bin, nid, name) in &report.unimplemented {
        println!(
            "  runtime stub (returns an error): {bin}: {nid} {}",
            name.as_deref().unwrap_or("(unknown name)")
        );
    }
    for (bin, nid, name) in &report.stubbed {
        println!(
            "  not implemented: {bin}: {nid} {}",
            name.as_deref().unwrap_or("(unknown name)")
        );
    }
    Ok(())
}

/// How `native5 run` presents frames; passed to the runtime through the documented
/// `NATIVE5_HEADLESS`, `NATIVE5_FRAMES` and `NATIVE5_DUMP_FRAMES` variables.
pub struct Presentation {
    pub headless: bool,
    pub frames: Option<u64>,
    pub dump_frames: Option<PathBuf>,
}

/// Runs `native5 run`: replaces this process with OUTDIR/app.elf, so the exit status,
/// signals and standard streams are the title's own.
pub fn run(outdir: &Path, args: &[String], present: &Presentation) -> ExitCode {
    use std::os::unix::process::CommandExt;
    let app = outdir.join("app.elf");
    if !app.is_file() {
        eprintln!(
            "native5: error: {} not found; run `native5 relink INPUT {}` first",
            app.display(),
            outdir.display()
        );
        return ExitCode::from(2);
    }
    let mut cmd = std::process::Command::new(&app);
    cmd.args(args);
    if present.headless {
        cmd.env("NATIVE5_HEADLESS", "1");
    }
    if let Some(n) = present.frames {
        cmd.env("NATIVE5_FRAMES", n.to_string());
    }
    if let Some(d) = &present.dump_frames {
        if let Err(e) = std::fs::create_dir_all(d) {
            eprintln!("native5: error: cannot create {}: {e}", d.display());
            return ExitCode::from(2);
        }
        cmd.env("NATIVE5_DUMP_FRAMES", d);
    }
    let err = cmd.exec();
    eprintln!("native5: error: cannot start {}: {err}", app.display());
    ExitCode::from(2)
}
