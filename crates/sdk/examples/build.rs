//! A stand-in for `native5 sdk build` while the CLI is wired up, and for debugging:
//!
//! ```text
//! cargo run -p sdk --example build -- [--module] [--keep-temps] [-v] -o OUT SOURCES... [-- CFLAGS...]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut opts = sdk::BuildOptions::new(Vec::<PathBuf>::new(), PathBuf::new());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--module" => opts.module = true,
            "--keep-temps" => opts.keep_temps = true,
            "-v" => opts.verbose = true,
            "-o" => match args.next() {
                Some(o) => opts.output = o.into(),
                None => {
                    eprintln!("-o needs a path");
                    return ExitCode::from(2);
                }
            },
            "--" => {
                opts.cflags.extend(args.by_ref());
            }
            _ => opts.sources.push(a.into()),
        }
    }
    match sdk::build(&opts) {
        Ok(out) => {
            println!(
                "wrote {} ({} imports)",
                out.output.display(),
                out.imports.len()
            );
            if let Some(dir) = out.work_dir {
                println!("work folder kept: {}", dir.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
