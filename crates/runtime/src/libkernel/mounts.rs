//! The guest file system: guest mount points mapped onto host folders.
//!
//! | guest | host | access |
//! |---|---|---|
//! | `/app0` | `OUTDIR/app0` (the title folder the relinker copied) | read-only |
//! | `/temp0`, `/savedata0`, `/download0` | `<data>/temp0` … | read-write, created on first use |
//! | `/dev/null`, `/dev/zero`, `/dev/urandom`, `/dev/random` | the host devices | as the host's |
//!
//! `<data>` is `$NATIVE5_DATA_DIR` when set, else `$XDG_DATA_HOME/native5/<title>`, else
//! `~/.local/share/native5/<title>`, where `<title>` is the name of the output folder.
//!
//! **A guest path never leaves its mount.** `..` is resolved lexically; one that would climb
//! above the mount root, a root that is not a mount, and a path whose existing part resolves
//! (through symlinks) outside the mount's host folder are all refused with `EACCES`
//! (`SCE_KERNEL_ERROR_EACCES`), not `ENOENT`: the path names something the title may not
//! reach, whether or not it exists on the host. The check runs when the path is resolved;
//! a host process racing to swap in a symlink afterwards is outside the model.
//!
//! Console file systems are case-insensitive for many titles' purposes, so when a path
//! component does not exist, a directory entry that differs from it only in (ASCII or
//! Unicode) case is used instead.

use super::wait::errno::EACCES;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// `EROFS`: a write to a read-only mount.
pub const EROFS: i32 = 30;
/// `ENOENT`.
pub const ENOENT: i32 = 2;

/// A guest path resolved to the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The host path.
    pub host: PathBuf,
    /// Whether the mount may be written.
    pub writable: bool,
}

/// The folder that holds the writable mounts.
pub fn data_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        data_dir_from(
            std::env::var_os("NATIVE5_DATA_DIR").map(PathBuf::from),
            std::env::var_os("XDG_DATA_HOME").map(PathBuf::from),
            std::env::var_os("HOME").map(PathBuf::from),
            crate::start::output_dir(),
        )
    })
}

/// [`data_dir`] from explicit environment values.
fn data_dir_from(
    native5: Option<PathBuf>,
    xdg: Option<PathBuf>,
    home: Option<PathBuf>,
    out: &Path,
) -> PathBuf {
    if let Some(d) = native5.filter(|d| !d.as_os_str().is_empty()) {
        return d;
    }
    let title = out
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "title".into());
    let base = xdg
        .filter(|d| d.is_absolute())
        .or_else(|| home.map(|h| h.join(".local/share")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("native5").join(title)
}

/// Resolves a guest path against the mounts; `Err` carries a FreeBSD errno.
pub fn resolve(guest: &str) -> Result<Resolved, i32> {
    resolve_in(guest, &crate::start::output_dir().join("app0"), data_dir())
}

/// [`resolve`] with explicit host folders for `/app0` and the writable mounts.
pub fn resolve_in(guest: &str, app0: &Path, data: &Path) -> Result<Resolved, i32> {
    let rest = guest.strip_prefix('/').ok_or(EACCES)?;
    let mut parts = Vec::new();
    for c in rest.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                // Climbing out of the mount root (the first part) is refused.
                if parts.len() <= 1 {
                    return Err(EACCES);
                }
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    let (&mount, rest) = parts.split_first().ok_or(EACCES)?;
    let (root, writable) = match mount {
        "app0" => (app0.to_path_buf(), false),
        "temp0" | "savedata0" | "download0" => {
            let root = data.join(mount);
            std::fs::create_dir_all(&root).map_err(|e| host_errno(&e))?;
            (root, true)
        }
        "dev" => {
            return match rest {
                [d @ ("null" | "zero" | "urandom" | "random")] => Ok(Resolved {
                    host: Path::new("/dev").join(d),
                    writable: true,
                }),
                _ => Err(EACCES),
            };
        }
        _ => return Err(EACCES),
    };
    let canon_root = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
    let mut host = root;
    let mut exists = true;
    for &c in rest {
        let direct = host.join(c);
        if exists && std::fs::symlink_metadata(&direct).is_err() {
            match case_match(&host, c) {
                Some(name) => host.push(name),
                None => {
                    host = direct;
                    exists = false;
                }
            }
        } else {
            host = direct;
        }
        if exists {
            // Whatever exists must stay inside the mount, symlinks followed. A dangling
            // symlink cannot be checked, so it is refused too.
            let meta = std::fs::symlink_metadata(&host).map_err(|e| host_errno(&e))?;
            if meta.file_type().is_symlink() {
                match std::fs::canonicalize(&host) {
                    Ok(real) if real.starts_with(&canon_root) => {}
                    _ => return Err(EACCES),
                }
            }
        }
    }
    Ok(Resolved { host, writable })
}

/// The entry of `dir` whose name equals `name` ignoring case.
fn case_match(dir: &Path, name: &str) -> Option<std::ffi::OsString> {
    let lower = name.to_lowercase();
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.file_name())
        .find(|n| n.to_str().is_some_and(|s| s.to_lowercase() == lower))
}

/// The FreeBSD errno for a host (Linux) error.
pub fn host_errno(e: &std::io::Error) -> i32 {
    e.raw_os_error().map_or(5, linux_to_freebsd)
}

/// Linux errno → FreeBSD errno (1–34 agree except 11; the rest differ).
pub fn linux_to_freebsd(e: i32) -> i32 {
    match e {
        11 => 35, // EAGAIN
        35 => 11, // EDEADLK
        1..=34 => e,
        36 => 63,  // ENAMETOOLONG
        38 => 78,  // ENOSYS
        39 => 66,  // ENOTEMPTY
        40 => 62,  // ELOOP
        95 => 45,  // EOPNOTSUPP
        110 => 60, // ETIMEDOUT
        _ => 5,    // EIO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mounts_escapes_and_case() {
        let t = std::env::temp_dir().join(format!("native5-mounts-{}", std::process::id()));
        let app0 = t.join("out/app0");
        let data = t.join("data");
        std::fs::create_dir_all(app0.join("Sub")).unwrap();
        std::fs::write(app0.join("Sub/Data.TXT"), b"x").unwrap();
        let r = resolve_in("/app0/sub/data.txt", &app0, &data).unwrap();
        assert_eq!(r.host, app0.join("Sub/Data.TXT"));
        assert!(!r.writable);
        let r = resolve_in("/app0/Sub/../Sub/./new", &app0, &data).unwrap();
        assert_eq!(r.host, app0.join("Sub/new"));
        assert_eq!(resolve_in("/app0/../x", &app0, &data), Err(EACCES));
        assert_eq!(resolve_in("/temp0/../../etc/passwd", &app0, &data), Err(EACCES));
        assert_eq!(resolve_in("/etc/passwd", &app0, &data), Err(EACCES));
        assert_eq!(resolve_in("relative", &app0, &data), Err(EACCES));
        assert_eq!(resolve_in("/dev/sda", &app0, &data), Err(EACCES));
        assert_eq!(
            resolve_in("/dev/null", &app0, &data).unwrap().host,
            Path::new("/dev/null")
        );
        let r = resolve_in("/temp0/a", &app0, &data).unwrap();
        assert!(r.writable && data.join("temp0").is_dir());
        std::os::unix::fs::symlink("/etc", data.join("temp0/out")).unwrap();
        assert_eq!(resolve_in("/temp0/out/passwd", &app0, &data), Err(EACCES));
        std::os::unix::fs::symlink("a", data.join("temp0/inside")).unwrap();
        std::fs::create_dir(data.join("temp0/a")).unwrap();
        assert!(resolve_in("/temp0/inside/f", &app0, &data).is_ok());
        std::fs::remove_dir_all(&t).unwrap();
    }

    #[test]
    fn data_dir_choice() {
        let out = Path::new("/x/MyTitle");
        assert_eq!(
            data_dir_from(Some("/d".into()), Some("/xdg".into()), None, out),
            Path::new("/d")
        );
        assert_eq!(
            data_dir_from(None, Some("/xdg".into()), Some("/h".into()), out),
            Path::new("/xdg/native5/MyTitle")
        );
        assert_eq!(
            data_dir_from(None, None, Some("/h".into()), out),
            Path::new("/h/.local/share/native5/MyTitle")
        );
    }
}
