//! Regenerates `crates/sdk/data/exports.tsv` from the shared NID data.
//!
//! ```text
//! cargo run -p sdk --example regen_exports -- ../shared/data/nid
//! ```
//!
//! The argument is the folder holding `ps4-exports-9.00.tsv` and `agc_known_nids.tsv`;
//! the committed `data/ps5_extra_nids.tsv` (PS5-only exports) is read by the library.
//! The table is committed, so builds never need the shared data; this is run by hand when
//! the data or the module list in `src/table.rs` changes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: regen_exports <folder with ps4-exports-9.00.tsv and agc_known_nids.tsv>");
        return ExitCode::from(2);
    };
    match run(&dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("regen_exports: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(dir: &Path) -> Result<(), String> {
    let read = |name: &str| {
        let p = dir.join(name);
        std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))
    };
    let text = sdk::table::generate(&read("ps4-exports-9.00.tsv")?, &read("agc_known_nids.tsv")?)
        .map_err(|e| e.to_string())?;
    let table = sdk::table::ExportTable::parse(&text).map_err(|e| e.to_string())?;
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/exports.tsv");
    // Temp file then rename, so an interrupted run never leaves half a table behind.
    let tmp = out.with_extension("tsv.tmp");
    std::fs::write(&tmp, &text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &out).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "wrote {} ({} symbols, {} modules, {} bytes)",
        out.display(),
        table.len(),
        table.modules().len(),
        text.len()
    );
    Ok(())
}
