//! The guest file system: console mount points mapped onto host folders.
//!
//! | guest        | host                                             | access     |
//! |--------------|--------------------------------------------------|------------|
//! | `/app0`      | `OUTDIR/app0`                                    | read-only  |
//! | `/savedata0` | `<data>/<title>/savedata0` (or `[paths] savedata0`) | read-write |
//! | `/temp0`     | `<data>/<title>/temp0`                           | read-write |
//! | `/download0` | `<data>/<title>/download0`                       | read-write |
//! | `/dev/null`, `/dev/zero`, `/dev/random`, `/dev/urandom` | built in | —  |
//!
//! `<data>` is `NATIVE5_DATA_DIR`, else `[paths] data_dir` of `native5.toml`, else
//! `$XDG_DATA_HOME/native5`, else `~/.local/share/native5`; `<title>` is `[paths] title`,
//! else the output folder's name.
//!
//! A guest path never leaves its mount. `..` above a mount's root, a symbolic link whose
//! target lies outside the mount (dangling or not), a path whose first component is no
//! mount (`/etc/passwd`, a host path such as `/home/…`, `/` itself) and a relative path
//! (there is no working folder to resolve it from) are all refused with `EACCES`
//! (`SCE_KERNEL_ERROR_EACCES`). The console has no code for "outside the sandbox";
//! "permission denied" says that the path names something the title may not reach,
//! whether or not it exists on the host. An unknown name under `/dev` is `ENOENT`. The
//! check runs when the path is resolved; a host process that swaps in a symlink
//! afterwards is outside the model.
//!
//! Titles written on a case-insensitive file system often spell names with another
//! case than the files have on disk: a component that does not exist is looked up again
//! ignoring ASCII case (the smallest matching name wins, so the choice is stable).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// FreeBSD errno values used by the file system calls.
pub mod errno {
    /// Operation not permitted.
    pub const EPERM: i32 = 1;
    /// No such file or directory.
    pub const ENOENT: i32 = 2;
    /// Input/output error (also: a host error with no FreeBSD counterpart).
    pub const EIO: i32 = 5;
    /// Bad file descriptor.
    pub const EBADF: i32 = 9;
    /// Resource deadlock avoided.
    pub const EDEADLK: i32 = 11;
    /// Permission denied; also a path that would leave its mount.
    pub const EACCES: i32 = 13;
    /// Bad address.
    pub const EFAULT: i32 = 14;
    /// Device busy (a mount's root).
    pub const EBUSY: i32 = 16;
    /// File exists.
    pub const EEXIST: i32 = 17;
    /// Cross-device link (a rename between mounts).
    pub const EXDEV: i32 = 18;
    /// Not a directory.
    pub const ENOTDIR: i32 = 20;
    /// Is a directory.
    pub const EISDIR: i32 = 21;
    /// Invalid argument.
    pub const EINVAL: i32 = 22;
    /// Too many open files.
    pub const EMFILE: i32 = 24;
    /// No space left on device.
    pub const ENOSPC: i32 = 28;
    /// Illegal seek.
    pub const ESPIPE: i32 = 29;
    /// Read-only file system (`/app0`).
    pub const EROFS: i32 = 30;
    /// Resource temporarily unavailable.
    pub const EAGAIN: i32 = 35;
    /// Operation not supported.
    pub const EOPNOTSUPP: i32 = 45;
    /// Too many levels of symbolic links.
    pub const ELOOP: i32 = 62;
    /// File name too long.
    pub const ENAMETOOLONG: i32 = 63;
    /// Directory not empty.
    pub const ENOTEMPTY: i32 = 66;
    /// Disc quota exceeded.
    pub const EDQUOT: i32 = 69;
    /// Function not implemented.
    pub const ENOSYS: i32 = 78;
    /// Value too large.
    pub const EOVERFLOW: i32 = 84;

    /// The FreeBSD errno for a Linux host errno. Values 1–34 agree between the two;
    /// the rest are translated, and a host error with no counterpart becomes `EIO`.
    pub fn from_host(e: i32) -> i32 {
        match e {
            11 => EAGAIN,
            35 => EDEADLK,
            36 => ENAMETOOLONG,
            38 => ENOSYS,
            39 => ENOTEMPTY,
            40 => ELOOP,
            75 => EOVERFLOW,
            95 => EOPNOTSUPP,
            122 => EDQUOT,
            1..=34 => e,
            _ => EIO,
        }
    }

    /// The FreeBSD errno of a host I/O error.
    pub fn from_io(e: &std::io::Error) -> i32 {
        e.raw_os_error().map_or(EIO, from_host)
    }
}

use errno::*;

/// The longest guest path, with its NUL (FreeBSD `PATH_MAX`).
pub const PATH_MAX: usize = 1024;

/// A mounted host folder.
#[derive(Debug)]
pub struct Mount {
    /// The guest name, such as `app0`.
    pub name: &'static str,
    /// The host folder, canonical when it exists.
    pub root: PathBuf,
    /// Writes are refused with `EROFS`.
    pub read_only: bool,
}

impl Mount {
    /// A read-write mount at `root`, created when missing.
    pub fn writable(name: &'static str, root: PathBuf) -> Mount {
        if let Err(e) = std::fs::create_dir_all(&root) {
            eprintln!("native5: cannot create /{name} at {}: {e}", root.display());
        }
        Mount {
            name,
            root: canonical_or_same(root),
            read_only: false,
        }
    }
}

/// A built-in device under `/dev`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// `/dev/null`: reads end at once, writes are discarded.
    Null,
    /// `/dev/zero`: reads give zeros, writes are discarded.
    Zero,
    /// `/dev/random` and `/dev/urandom`: reads give random bytes from the host.
    Random,
}

/// What a guest path names.
#[derive(Debug)]
pub enum Resolved<'m> {
    /// A host path inside `mount`.
    Host {
        /// The mount the path is in.
        mount: &'m Mount,
        /// The host path (it may not exist).
        path: PathBuf,
        /// The path is the mount's root itself.
        is_root: bool,
    },
    /// A built-in device.
    Device(Device),
}

static MOUNTS: OnceLock<Vec<Mount>> = OnceLock::new();

fn mounts() -> &'static [Mount] {
    MOUNTS.get_or_init(|| {
        let out = crate::start::output_dir();
        let cfg = &crate::start::config().paths;
        let data = std::env::var_os("NATIVE5_DATA_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| cfg.data_dir.as_ref().map(|p| out.join(p)))
            .unwrap_or_else(default_data_dir);
        let title = cfg.title.clone().unwrap_or_else(|| {
            out.file_name()
                .map_or_else(|| "title".into(), |n| n.to_string_lossy().into_owned())
        });
        let writable = |name: &'static str, over: &Option<PathBuf>| {
            let root = over
                .as_ref()
                .map_or_else(|| data.join(&title).join(name), |p| out.join(p));
            Mount::writable(name, root)
        };
        vec![
            Mount {
                name: "app0",
                root: canonical_or_same(out.join("app0")),
                read_only: true,
            },
            writable("savedata0", &cfg.savedata0),
            writable("temp0", &cfg.temp0),
            writable("download0", &cfg.download0),
        ]
    })
}

/// `$XDG_DATA_HOME/native5`, else `~/.local/share/native5`.
fn default_data_dir() -> PathBuf {
    let env = |k| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("XDG_DATA_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| env("HOME").map(|h| h.join(".local/share")))
        .unwrap_or_else(std::env::temp_dir)
        .join("native5")
}

fn canonical_or_same(p: PathBuf) -> PathBuf {
    std::fs::canonicalize(&p).unwrap_or(p)
}

/// The host folder of a mount, by guest name (`app0`, `savedata0` …).
pub fn mount_root(name: &str) -> Option<&'static Path> {
    mounts()
        .iter()
        .find(|m| m.name == name)
        .map(|m| m.root.as_path())
}

/// Resolves a guest path. `follow_last` says whether a symbolic link in the last
/// component is followed (open, stat) or named itself (unlink, rename, rmdir); links in
/// earlier components are always followed, and every one must stay inside the mount.
/// Errors are FreeBSD errno values.
pub fn resolve(guest: &[u8], follow_last: bool) -> Result<Resolved<'static>, i32> {
    resolve_in(mounts(), guest, follow_last)
}

/// [`resolve`] against an explicit mount table.
pub fn resolve_in<'m>(
    mounts: &'m [Mount],
    guest: &[u8],
    follow_last: bool,
) -> Result<Resolved<'m>, i32> {
    match parse(guest)? {
        Parsed::Device(d) => Ok(Resolved::Device(d)),
        Parsed::Mount(first, stack) => {
            let Some(mount) = mounts.iter().find(|m| m.name.as_bytes() == first) else {
                return Err(EACCES);
            };
            let path = walk(mount, &stack, follow_last)?;
            Ok(Resolved::Host {
                mount,
                path,
                is_root: stack.is_empty(),
            })
        }
    }
}

/// A guest path, taken apart lexically.
#[derive(Debug, PartialEq)]
enum Parsed<'a> {
    Device(Device),
    /// The first component and the normalized rest (no `.`, `..` applied).
    Mount(&'a [u8], Vec<&'a [u8]>),
}

fn parse(guest: &[u8]) -> Result<Parsed<'_>, i32> {
    if guest.is_empty() {
        return Err(ENOENT);
    }
    if guest.len() >= PATH_MAX {
        return Err(ENAMETOOLONG);
    }
    if guest[0] != b'/' {
        return Err(EACCES);
    }
    let mut parts = guest
        .split(|&b| b == b'/')
        .filter(|c| !c.is_empty() && *c != b".");
    let Some(first) = parts.next() else {
        // "/" itself: the console's root is no mount.
        return Err(EACCES);
    };
    // `..` is applied to the guest path first: it may never climb above the mount.
    let mut stack: Vec<&[u8]> = Vec::new();
    for c in parts {
        if c == b".." {
            if stack.pop().is_none() {
                return Err(EACCES);
            }
        } else {
            if c.len() > 255 {
                return Err(ENAMETOOLONG);
            }
            stack.push(c);
        }
    }
    if first == b"dev" {
        return match stack.as_slice() {
            [b"null"] => Ok(Parsed::Device(Device::Null)),
            [b"zero"] => Ok(Parsed::Device(Device::Zero)),
            [b"random"] | [b"urandom"] => Ok(Parsed::Device(Device::Random)),
            _ => Err(ENOENT),
        };
    }
    Ok(Parsed::Mount(first, stack))
}

/// Follows `parts` below the mount's root on the host, one component at a time, so
/// that every symbolic link on the way is checked against the mount.
fn walk(mount: &Mount, parts: &[&[u8]], follow_last: bool) -> Result<PathBuf, i32> {
    let mut cur = mount.root.clone();
    for (i, &part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let name = OsStr::from_bytes(part);
        let mut cand = cur.join(name);
        let mut meta = std::fs::symlink_metadata(&cand);
        if matches!(&meta, Err(e) if e.kind() == std::io::ErrorKind::NotFound) {
            if let Some(other) = find_ignoring_case(&cur, part) {
                cand = cur.join(other);
                meta = std::fs::symlink_metadata(&cand);
            }
        }
        match meta {
            Ok(m) if m.file_type().is_symlink() && (follow_last || !last) => {
                // canonicalize follows every link in the chain; the end must be inside.
                let real = std::fs::canonicalize(&cand).map_err(|e| {
                    if e.kind() == std::io::ErrorKind::NotFound {
                        dangling_link_error(mount, &cand)
                    } else {
                        errno::from_io(&e)
                    }
                })?;
                if !real.starts_with(&mount.root) {
                    return Err(EACCES);
                }
                cur = real;
            }
            Ok(_) => cur = cand,
            Err(_) => {
                // It does not exist (or a parent is no folder): the rest is taken as
                // spelled, and the host call reports ENOENT/ENOTDIR, or creates it.
                cur = cand;
                for rest in &parts[i + 1..] {
                    cur.push(OsStr::from_bytes(rest));
                }
                break;
            }
        }
    }
    Ok(cur)
}

/// A link whose target does not exist: EACCES when the target would be outside the
/// mount (even a dangling link may not point out), else ENOENT.
fn dangling_link_error(mount: &Mount, link: &Path) -> i32 {
    match std::fs::read_link(link) {
        Ok(t) if t.is_absolute() && !t.starts_with(&mount.root) => EACCES,
        Ok(t) => {
            // A relative target: apply it lexically to the link's folder.
            let mut p = link.parent().map(Path::to_path_buf).unwrap_or_default();
            for c in t.components() {
                match c {
                    std::path::Component::ParentDir => {
                        p.pop();
                    }
                    std::path::Component::Normal(n) => p.push(n),
                    _ => {}
                }
            }
            if p.starts_with(&mount.root) {
                ENOENT
            } else {
                EACCES
            }
        }
        Err(_) => ENOENT,
    }
}

/// The entry of `dir` whose name equals `name` ignoring ASCII case.
fn find_ignoring_case(dir: &Path, name: &[u8]) -> Option<std::ffi::OsString> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .filter(|n| n.as_bytes().eq_ignore_ascii_case(name))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_errors_become_freebsd_values() {
        assert_eq!(errno::from_host(2), ENOENT);
        assert_eq!(errno::from_host(39), ENOTEMPTY);
        assert_eq!(errno::from_host(36), ENAMETOOLONG);
        assert_eq!(errno::from_host(11), EAGAIN);
        assert_eq!(errno::from_host(1000), EIO);
    }

    #[test]
    fn guest_paths_are_taken_apart_lexically() {
        assert_eq!(parse(b"").unwrap_err(), ENOENT);
        assert_eq!(parse(b"/").unwrap_err(), EACCES);
        assert_eq!(parse(b"app0/x").unwrap_err(), EACCES);
        assert_eq!(parse(b"/app0/..").unwrap_err(), EACCES);
        assert_eq!(parse(b"/app0/a/../../x").unwrap_err(), EACCES);
        assert_eq!(parse(b"/dev/../app0").unwrap_err(), EACCES);
        assert_eq!(parse(b"/dev/tty").unwrap_err(), ENOENT);
        assert_eq!(parse(&[b'a'; 1024]).unwrap_err(), ENAMETOOLONG);
        assert_eq!(parse(b"//dev//null"), Ok(Parsed::Device(Device::Null)));
        assert_eq!(parse(b"/app0/./a/.."), Ok(Parsed::Mount(b"app0", vec![])));
        assert_eq!(
            parse(b"/savedata0/a/./b/../c"),
            Ok(Parsed::Mount(b"savedata0", vec![&b"a"[..], &b"c"[..]]))
        );
    }

    fn host(r: Result<Resolved<'_>, i32>) -> Result<PathBuf, i32> {
        match r? {
            Resolved::Host { path, .. } => Ok(path),
            Resolved::Device(d) => panic!("{d:?}"),
        }
    }

    #[test]
    fn symlinks_case_and_mount_tables() {
        let t = tempfile_dir("vfs");
        let mounts = [
            Mount::writable("app0", t.join("app0")),
            Mount::writable("temp0", t.join("temp0")),
        ];
        let app0 = mounts[0].root.clone();
        let temp0 = mounts[1].root.clone();
        std::fs::create_dir_all(app0.join("Sub")).unwrap();
        std::fs::write(app0.join("Sub/Data.TXT"), b"x").unwrap();
        let r = |p: &str, f| host(resolve_in(&mounts, p.as_bytes(), f));
        assert_eq!(r("/app0/sub/data.txt", true), Ok(app0.join("Sub/Data.TXT")));
        assert_eq!(r("/app0/SUB/new/x", true), Ok(app0.join("Sub/new/x")));
        assert_eq!(r("/savedata0/x", true), Err(EACCES));
        std::os::unix::fs::symlink("/etc", temp0.join("out")).unwrap();
        std::os::unix::fs::symlink("../..", temp0.join("up")).unwrap();
        std::os::unix::fs::symlink("/nonexistent/x", temp0.join("dangling_out")).unwrap();
        std::os::unix::fs::symlink("missing", temp0.join("dangling_in")).unwrap();
        std::fs::create_dir(temp0.join("a")).unwrap();
        std::os::unix::fs::symlink("a", temp0.join("inside")).unwrap();
        assert_eq!(r("/temp0/out/passwd", true), Err(EACCES));
        assert_eq!(r("/temp0/out", true), Err(EACCES));
        assert_eq!(r("/temp0/up", true), Err(EACCES));
        assert_eq!(r("/temp0/dangling_out", true), Err(EACCES));
        assert_eq!(r("/temp0/dangling_in", true), Err(ENOENT));
        assert_eq!(r("/temp0/inside/f", true), Ok(temp0.join("a/f")));
        // Not following the last link names the link itself (unlink, rename).
        assert_eq!(r("/temp0/out", false), Ok(temp0.join("out")));
        assert_eq!(r("/temp0/out/passwd", false), Err(EACCES));
        std::fs::remove_dir_all(&t).unwrap();
    }

    fn tempfile_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("native5-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
