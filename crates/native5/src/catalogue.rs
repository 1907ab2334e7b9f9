//! Finding the NID catalogue that gives names to NIDs in diagnostics.

use anyhow::{Context, Result};
use sce::NidCatalogue;
use std::path::{Path, PathBuf};

/// Candidate locations of the shared `aerolib.csv`, most specific first.
fn default_paths() -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Some(p) = std::env::var_os("NATIVE5_NIDS") {
        v.push(PathBuf::from(p));
    }
    if let Some(p) = std::env::var_os("NATIVE5_SHARED_DATA") {
        v.push(PathBuf::from(p).join("nid/aerolib.csv"));
    }
    v.push(PathBuf::from("../shared/data/nid/aerolib.csv"));
    // The checkout this binary was built from keeps the shared folder beside it.
    v.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/nid/aerolib.csv"));
    v
}

/// Loads `explicit`, or the shared catalogue when present, or an empty one.
pub fn load(explicit: Option<&Path>) -> Result<NidCatalogue> {
    if let Some(p) = explicit {
        return NidCatalogue::load(p).with_context(|| format!("loading --nids {}", p.display()));
    }
    match default_paths().into_iter().find(|p| p.is_file()) {
        Some(p) => Ok(NidCatalogue::load(&p)?),
        None => Ok(NidCatalogue::new()),
    }
}
