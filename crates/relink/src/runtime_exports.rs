//! The set of NIDs the runtime shared object exports, read from its dynamic symbols.

use crate::RelinkError;
use sce::image::Image;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// File name of the runtime shared object.
pub const RUNTIME_FILE: &str = "libnative5_runtime.so";

/// Finds the runtime: `NATIVE5_RUNTIME`, else beside the running executable (or in its
/// `deps/` folder, where cargo leaves it when building a dependency).
pub fn locate() -> Result<PathBuf, RelinkError> {
    if let Some(p) = std::env::var_os("NATIVE5_RUNTIME") {
        return Ok(PathBuf::from(p));
    }
    let exe = std::env::current_exe().map_err(|e| RelinkError::Runtime(e.to_string()))?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    // In a cargo target folder the copy in deps/ is rebuilt with every dependent build
    // while the one beside the binaries may be older: take the newest.
    let newest = [
        dir.join(RUNTIME_FILE),
        dir.join("deps").join(RUNTIME_FILE),
        dir.join("..").join(RUNTIME_FILE),
        dir.join("../lib/native5").join(RUNTIME_FILE),
    ]
    .into_iter()
    .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
    .max_by_key(|(t, _)| *t);
    if let Some((_, p)) = newest {
        return Ok(p);
    }
    Err(RelinkError::Runtime(format!(
        "{RUNTIME_FILE} not found beside {} (build it with `cargo build -p runtime`, or set NATIVE5_RUNTIME)",
        exe.display()
    )))
}

/// Prefix of the marker symbols that name the runtime's known-unimplemented stubs
/// (see `export::unimplemented`).
pub const UNIMPLEMENTED_MARKER: &str = "native5_unimplemented.";

/// What the runtime exports.
#[derive(Debug, Clone, Default)]
pub struct RuntimeExports {
    /// Every exported NID (the `@@module` version suffix cut).
    pub nids: BTreeSet<String>,
    /// The NIDs among them that are stubs returning an error.
    pub unimplemented: BTreeSet<String>,
}

/// Reads the runtime's dynamic symbols.
pub fn read(path: &Path) -> Result<RuntimeExports, RelinkError> {
    let data =
        std::fs::read(path).map_err(RelinkError::io(format!("reading {}", path.display())))?;
    let img = Image::parse(&data).map_err(|source| RelinkError::Format {
        path: path.display().to_string(),
        source,
    })?;
    let mut out = RuntimeExports::default();
    for name in img.exports.iter().filter_map(|e| e.plain_name.as_deref()) {
        let name = name.split('@').next().unwrap_or(name);
        match name.strip_prefix(UNIMPLEMENTED_MARKER) {
            Some(nid) => {
                out.unimplemented.insert(nid.to_string());
            }
            None => {
                out.nids.insert(name.to_string());
            }
        }
    }
    Ok(out)
}
