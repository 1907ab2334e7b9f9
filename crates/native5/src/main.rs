//! `native5`: turns PS5 executables into native programs. See `native5 --help`.

mod catalogue;
mod inspect;

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
}

fn main() -> ExitCode {
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
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("native5: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
