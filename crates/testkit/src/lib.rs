//! Test support: where the shared reference data lives, and the rule for skipping.
//!
//! Tests that need `../shared/data` call [`shared_data`]. When the folder is missing they
//! print why they skip, unless `NATIVE5_REQUIRE_SHARED=1` (set by CI), in which case the
//! test fails instead.

use std::path::{Path, PathBuf};

/// The workspace root (the folder holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .nth(2)
        .expect("testkit lives at crates/testkit")
        .to_path_buf()
}

/// `../shared/data` beside the checkout (or `NATIVE5_SHARED_DATA`), if present.
pub fn shared_data_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("NATIVE5_SHARED_DATA") {
        return Some(PathBuf::from(p)).filter(|p| p.is_dir());
    }
    let p = workspace_root().join("../shared/data");
    p.is_dir().then(|| p.canonicalize().unwrap_or(p))
}

/// True when the environment says a missing prerequisite is a failure, not a skip.
pub fn required(var: &str) -> bool {
    std::env::var(var).is_ok_and(|v| v == "1")
}

/// The shared data folder, or `None` after printing why the calling test skips.
///
/// Panics when `NATIVE5_REQUIRE_SHARED=1` and the folder is missing.
pub fn shared_data(test: &str) -> Option<PathBuf> {
    match shared_data_dir() {
        Some(p) => Some(p),
        None if required("NATIVE5_REQUIRE_SHARED") => {
            panic!("{test}: ../shared/data is missing and NATIVE5_REQUIRE_SHARED=1")
        }
        None => {
            eprintln!("skipping {test}: ../shared/data is missing (set NATIVE5_SHARED_DATA)");
            None
        }
    }
}

/// A path inside the shared data folder, or `None` after printing a skip reason.
pub fn shared_file(test: &str, rel: &str) -> Option<PathBuf> {
    let p = shared_data(test)?.join(rel);
    if p.exists() {
        Some(p)
    } else if required("NATIVE5_REQUIRE_SHARED") {
        panic!(
            "{test}: {} is missing and NATIVE5_REQUIRE_SHARED=1",
            p.display()
        )
    } else {
        eprintln!("skipping {test}: {} is missing", p.display());
        None
    }
}
