//! The files the sdk ships and writes out for each build: its PS5-ABI headers
//! (`crates/sdk/include`) and its crt sources (`crates/sdk/crt`).
//!
//! They are compiled into the library, so a `native5` binary needs nothing beside it; a
//! test checks that these lists match the folders.

use std::path::Path;

/// The sdk's headers: path relative to the include folder, and contents.
pub const HEADERS: &[(&str, &str)] = &[
    ("_sce_cdefs.h", include_str!("../include/_sce_cdefs.h")),
    ("ampr.h", include_str!("../include/ampr.h")),
    ("assert.h", include_str!("../include/assert.h")),
    ("ctype.h", include_str!("../include/ctype.h")),
    ("dirent.h", include_str!("../include/dirent.h")),
    ("errno.h", include_str!("../include/errno.h")),
    ("fcntl.h", include_str!("../include/fcntl.h")),
    ("inttypes.h", include_str!("../include/inttypes.h")),
    ("kernel.h", include_str!("../include/kernel.h")),
    ("math.h", include_str!("../include/math.h")),
    ("pthread.h", include_str!("../include/pthread.h")),
    ("sched.h", include_str!("../include/sched.h")),
    ("semaphore.h", include_str!("../include/semaphore.h")),
    ("stdio.h", include_str!("../include/stdio.h")),
    ("stdlib.h", include_str!("../include/stdlib.h")),
    ("string.h", include_str!("../include/string.h")),
    ("strings.h", include_str!("../include/strings.h")),
    ("sys/stat.h", include_str!("../include/sys/stat.h")),
    ("sys/time.h", include_str!("../include/sys/time.h")),
    ("sys/types.h", include_str!("../include/sys/types.h")),
    ("time.h", include_str!("../include/time.h")),
    ("unistd.h", include_str!("../include/unistd.h")),
];

/// The crt sources: file name and contents.
pub const CRT_SOURCES: &[(&str, &str)] = &[
    ("crt1.c", include_str!("../crt/crt1.c")),
    ("crtbegin.c", include_str!("../crt/crtbegin.c")),
    ("crtend.c", include_str!("../crt/crtend.c")),
    ("crtmodule.c", include_str!("../crt/crtmodule.c")),
];

/// Writes the sdk's headers under `dir` (for an editor's include path, or for compiling
/// by hand with `-nostdlibinc -isystem DIR`).
pub fn install_headers(dir: &Path) -> std::io::Result<()> {
    write_tree(dir, HEADERS)
}

/// Writes `files` under `dir`, creating folders as needed.
pub(crate) fn write_tree(dir: &Path, files: &[(&str, &str)]) -> std::io::Result<()> {
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn listing(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                listing(&p, base, out);
            } else {
                out.push(
                    p.strip_prefix(base)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }

    #[test]
    fn embedded_lists_match_the_folders() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        for (folder, list) in [("include", HEADERS), ("crt", CRT_SOURCES)] {
            let mut on_disk = Vec::new();
            listing(&root.join(folder), &root.join(folder), &mut on_disk);
            on_disk.sort();
            let mut embedded: Vec<String> = list.iter().map(|(n, _)| n.to_string()).collect();
            embedded.sort();
            assert_eq!(
                on_disk, embedded,
                "update the list in src/files.rs for {folder}/"
            );
        }
    }

    /// The first identifier directly followed by `(` on a declaration line.
    fn declared_function(line: &str) -> Option<&str> {
        let open = line.find('(')?;
        let head = &line[..open];
        let start = head
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &head[start..];
        (!name.is_empty()).then_some(name)
    }

    /// Every function and variable the headers declare is something the console exports,
    /// with the right kind, so a title that compiles against them also links.
    #[test]
    fn every_declaration_is_in_the_export_table() {
        let table = crate::table::ExportTable::builtin();
        let mut checked = 0;
        for (file, text) in HEADERS {
            for line in text.lines() {
                let skip = [
                    "#",
                    "/",
                    "*",
                    "}",
                    "typedef",
                    "static",
                    "struct",
                    "extern \"C\"",
                    "__SCE_",
                    "SCE_EXPORT",
                ];
                if line.is_empty()
                    || line.starts_with(char::is_whitespace)
                    || skip.iter().any(|p| line.starts_with(p))
                {
                    continue;
                }
                if let Some(var) = line.strip_prefix("extern ") {
                    let name = var.trim_end_matches(';').rsplit(' ').next().unwrap();
                    let p = table
                        .get(name)
                        .unwrap_or_else(|| panic!("{file}: {name} not exported"));
                    assert!(
                        matches!(p.kind, crate::table::SymbolKind::Object { .. }),
                        "{name}"
                    );
                    checked += 1;
                    continue;
                }
                let Some(name) = declared_function(line) else {
                    continue;
                };
                let p = table
                    .get(name)
                    .unwrap_or_else(|| panic!("{file}: {name} is not in the export table"));
                assert_eq!(p.kind, crate::table::SymbolKind::Function, "{file}: {name}");
                checked += 1;
            }
        }
        assert!(checked > 200, "only {checked} declarations found");
    }
}
