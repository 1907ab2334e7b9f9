//! `native5`: turns PS5 executables into native programs. See `native5 --help`.

mod catalogue;
mod inspect;
mod relink_cmd;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// native5: PS5 executables as native Linux programs.
#[derive(Parser)]
#[command(name = "native5", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the NID of each symbol name, as `NID NAME` lines.
    Nid {
        /// Symbol names.
        #[arg(required = true)]
        names: Vec<String>,
    },
    /// Show a PS5/PS4 executable or module: container, segments, modules, imports, exports.
    Inspect {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// NID catalogue (`NID name` lines); defaults to the shared aerolib.csv when present.
        #[arg(long, value_name = "FILE")]
        nids: Option<PathBuf>,
        /// The file (ELF, or fake SELF such as eboot.bin).
        file: PathBuf,
    },
    /// Relink a PS5 executable (and the modules in its folder) into a folder that runs
    /// on this machine: OUTDIR/app.elf, OUTDIR/libs/, OUTDIR/app0/, OUTDIR/native5.toml.
    Relink {
        /// Skip the raw system call check (for debugging only).
        #[arg(long)]
        allow_syscalls: bool,
        /// Unused-import filter: 0 keeps every import; 1 drops GOT (non-PLT) imports that
        /// no reachable code reads; 2 also drops PLT imports that no reachable code calls.
        /// Dropped slots point at a stub that names the import and aborts.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=2))]
        unused_filter: u8,
        /// Write OUTDIR/imports.json, classing every import.
        #[arg(long)]
        registry: bool,
        /// NID catalogue for names in messages; defaults to the shared aerolib.csv.
        #[arg(long, value_name = "FILE")]
        nids: Option<PathBuf>,
        /// The title's executable (eboot.bin); its folder is the title's /app0.
        input: PathBuf,
        /// The output folder (replaced if it is an earlier native5 output).
        outdir: PathBuf,
    },
    /// Build PS5-format titles from C/C++ with the PS5-target compiler.
    Sdk {
        #[command(subcommand)]
        command: SdkCommand,
    },
    /// RDNA GPU code (gfx1013 = PS5, gfx1030 = RDNA2 PC parts).
    Rdna {
        #[command(subcommand)]
        command: RdnaCommand,
    },
    /// GPU shaders.
    Shader {
        #[command(subcommand)]
        command: ShaderCommand,
    },
    /// Run a relinked title: OUTDIR/app.elf with ARGS; exits with the title's status.
    Run {
        /// No window: present frames off-screen (needs no display server).
        #[arg(long)]
        headless: bool,
        /// Exit after this many presented frames.
        #[arg(long, value_name = "N")]
        frames: Option<u64>,
        /// Write each presented frame as an opaque PNG into DIR.
        #[arg(long, value_name = "DIR")]
        dump_frames: Option<PathBuf>,
        /// The folder `native5 relink` wrote.
        outdir: PathBuf,
        /// Arguments for the title.
        #[arg(last = true)]
        args: Vec<String>,
    },
}

#[derive(Subcommand)]
enum SdkCommand {
    /// Compile and link SOURCES into a PS5 executable (or a .prx with --module).
    Build {
        /// Build a module (.prx) instead of an executable.
        #[arg(long)]
        module: bool,
        /// The output file.
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// Keep the work folder (objects, stubs, linked ELF) and print where it is.
        #[arg(long)]
        keep_temps: bool,
        /// Print each compiler and linker command.
        #[arg(short, long)]
        verbose: bool,
        /// A PS5 module (.prx) to link against: imports of its exports bind to it.
        #[arg(long = "link-module", value_name = "PRX")]
        link_modules: Vec<PathBuf>,
        /// C/C++/assembly sources and PS5-target objects.
        #[arg(required = true)]
        sources: Vec<PathBuf>,
        /// Extra compiler flags, after `--`.
        #[arg(last = true)]
        cflags: Vec<String>,
    },
}

#[derive(Subcommand)]
enum RdnaCommand {
    /// Disassemble a raw little-endian code blob, one instruction per line, in LLVM 14's
    /// syntax for the target and wave size.
    Disasm {
        /// Target: gfx1013 (PS5) or gfx1030.
        #[arg(long, default_value = "gfx1013", value_parser = ["gfx1013", "gfx1030"])]
        mcpu: String,
        /// Wave size: 32 or 64 (lane masks print as vcc_lo or vcc).
        #[arg(long, default_value = "32", value_parser = ["32", "64"])]
        wave: String,
        /// Byte offset to start at.
        #[arg(long, default_value_t = 0)]
        offset: usize,
        /// The code blob.
        file: PathBuf,
    },
    /// Per encoding: opcodes LLVM 14 accepts for gfx1013 and gfx1030, and how many of
    /// those we decode and print identically (from the committed corpus).
    Coverage,
}

#[derive(Subcommand)]
enum ShaderCommand {
    /// Compile a GLSL compute shader with glslang (the reference) and through Mesa's
    /// RADV to RDNA2 (or use its committed corpus entry), recompile the RDNA code with
    /// native5, run both on Vulkan and compare every buffer: prints PASS or FAIL.
    Check {
        /// Compile through RADV even when a committed corpus entry exists.
        #[arg(long)]
        force_radv: bool,
        /// Vulkan device name substring (default: lavapipe).
        #[arg(long)]
        device: Option<String>,
        /// The .comp files (with the `// native5-test:` header).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    // The RADV oracle re-runs this executable as its child process.
    gpu::oracle::run_child_if_requested();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 1 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Nid { names } => {
            for n in names {
                println!("{} {n}", sce::nid_of(&n));
            }
            Ok(())
        }
        Command::Inspect { json, nids, file } => inspect::run(&file, nids.as_deref(), json),
        Command::Relink {
            allow_syscalls,
            unused_filter,
            registry,
            nids,
            input,
            outdir,
        } => relink_cmd::relink(&relink_cmd::Args {
            allow_syscalls,
            unused_filter,
            registry,
            nids,
            input,
            outdir,
        }),
        Command::Sdk {
            command:
                SdkCommand::Build {
                    module,
                    output,
                    keep_temps,
                    verbose,
                    link_modules,
                    sources,
                    cflags,
                },
        } => sdk_build(
            module,
            output,
            keep_temps,
            verbose,
            link_modules,
            sources,
            cflags,
        ),
        Command::Rdna { command } => rdna_cmd(command),
        Command::Shader {
            command:
                ShaderCommand::Check {
                    force_radv,
                    device,
                    files,
                },
        } => return shader_check(force_radv, device, &files),
        Command::Run {
            headless,
            frames,
            dump_frames,
            outdir,
            args,
        } => {
            let present = relink_cmd::Presentation {
                headless,
                frames,
                dump_frames,
            };
            return relink_cmd::run(&outdir, &args, &present);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("native5: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn sdk_build(
    module: bool,
    output: PathBuf,
    keep_temps: bool,
    verbose: bool,
    link_modules: Vec<PathBuf>,
    sources: Vec<PathBuf>,
    cflags: Vec<String>,
) -> anyhow::Result<()> {
    let mut opts = sdk::BuildOptions::new(sources, &output);
    opts.module = module;
    opts.cflags = cflags;
    opts.keep_temps = keep_temps;
    opts.verbose = verbose;
    opts.modules = link_modules;
    let out = sdk::build(&opts)?;
    println!("wrote {} ({} imports)", output.display(), out.imports.len());
    Ok(())
}

fn rdna_cmd(command: RdnaCommand) -> anyhow::Result<()> {
    match command {
        RdnaCommand::Disasm {
            mcpu,
            wave,
            offset,
            file,
        } => {
            let bytes = std::fs::read(&file)
                .map_err(|e| anyhow::anyhow!("reading {}: {e}", file.display()))?;
            if offset > bytes.len() {
                anyhow::bail!(
                    "--offset {offset} is past the end of the {}-byte file",
                    bytes.len()
                );
            }
            let target = rdna::Target::from_name(&mcpu).expect("clap checked the name");
            let wave = if wave == "64" {
                rdna::WaveSize::Wave64
            } else {
                rdna::WaveSize::Wave32
            };
            print!("{}", rdna::disassemble(&bytes, target, wave, offset));
        }
        RdnaCommand::Coverage => {
            let rows = rdna::coverage::report(&rdna::coverage::committed_corpora());
            print!("{}", rdna::coverage::render(&rows));
        }
    }
    Ok(())
}

/// `native5 shader check`: exit 0 only when every file passes.
fn shader_check(force_radv: bool, device: Option<String>, files: &[PathBuf]) -> ExitCode {
    let opts = gpu::check::CheckOptions {
        force_radv,
        device,
        ..Default::default()
    };
    let mut ok = true;
    for f in files {
        match gpu::check::check_file_with(f, &opts) {
            Ok(report) => {
                println!("{report}");
                ok &= report.passed();
            }
            Err(e) => {
                eprintln!("native5: error: {}: {e:#}", f.display());
                return ExitCode::from(2);
            }
        }
    }
    // 3 for a FAIL, so that it is told apart from bad arguments (1) and errors (2).
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    }
}
