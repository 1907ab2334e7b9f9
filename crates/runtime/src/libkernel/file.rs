//! Files and folders: `sceKernelOpen` … `sceKernelGetdirentries` and their POSIX names.
//!
//! Guest file descriptors are indices into our own table, never host descriptors: the
//! guest sees the console's numbering (0–2 are the standard streams, then the lowest free
//! number), and a guest cannot reach a host descriptor it was not given. Paths go through
//! the mount layer ([`crate::vfs`]); flags, `struct stat`, `struct dirent` and the errors
//! are the console's (FreeBSD 9 layouts and errno values). The `sce*` names return
//! `SCE_KERNEL_ERROR_*` (sign-extended where the result is 64-bit); the POSIX names
//! return -1 and set the guest `errno`.
//!
//! Writes to fds 1 and 2 go through the guest streams ([`crate::guest_io`]), so they stay
//! in order with `printf`.

use super::errors::set_errno;
use super::wait::sce;
use crate::vfs::{self, errno, errno::*, Device, Resolved};
use std::ffi::{c_char, c_void, CStr};
use std::fs::File;
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, DirEntryExt, FileTypeExt, MetadataExt};
use std::path::PathBuf;
use std::sync::{Arc, LazyLock, Mutex, RwLock};

/// FreeBSD `open(2)` flags the console uses.
pub mod flags {
    /// Access mode mask.
    pub const O_ACCMODE: i32 = 3;
    /// Read only.
    pub const O_RDONLY: i32 = 0;
    /// Write only.
    pub const O_WRONLY: i32 = 1;
    /// Read and write.
    pub const O_RDWR: i32 = 2;
    /// Non-blocking.
    pub const O_NONBLOCK: i32 = 0x4;
    /// Append on each write.
    pub const O_APPEND: i32 = 0x8;
    /// Synchronous writes.
    pub const O_FSYNC: i32 = 0x80;
    /// Do not follow a symlink in the last component.
    pub const O_NOFOLLOW: i32 = 0x100;
    /// Create if missing.
    pub const O_CREAT: i32 = 0x200;
    /// Truncate to zero length.
    pub const O_TRUNC: i32 = 0x400;
    /// With `O_CREAT`: fail if it exists.
    pub const O_EXCL: i32 = 0x800;
    /// Direct I/O (a hint here).
    pub const O_DIRECT: i32 = 0x10000;
    /// Fail unless a folder.
    pub const O_DIRECTORY: i32 = 0x20000;
}
use flags::*;

/// The most guest descriptors open at once (the console's per-process limit is in this
/// range; titles that open more are buggy).
const MAX_FDS: usize = 4096;

/// What a guest descriptor refers to.
enum Kind {
    /// A host file (only regular files and the like; folders are [`Kind::Dir`]).
    File(File),
    /// A folder, listed when it was opened.
    Dir(Mutex<DirStream>, PathBuf),
    /// A built-in device.
    Device(Device),
    /// The host's standard input.
    Stdin,
    /// Guest stdout or stderr (1 or 2).
    Stream(i32),
}

/// An open folder: its entries (`.` and `..` first, then sorted by name) and the index
/// of the next one to return, which is also its seek offset.
struct DirStream {
    entries: Vec<DirEntry>,
    pos: usize,
}

struct DirEntry {
    ino: u32,
    kind: u8,
    name: Vec<u8>,
}

/// One open guest descriptor; shared (`Arc`) so that a read in flight keeps it alive
/// across a concurrent close.
struct Open {
    kind: Kind,
    /// The mount is read-only (reported in `st_mode` as no write bits).
    read_only: bool,
}

static TABLE: LazyLock<RwLock<Vec<Option<Arc<Open>>>>> = LazyLock::new(|| {
    let std = |kind| {
        Some(Arc::new(Open {
            kind,
            read_only: false,
        }))
    };
    RwLock::new(vec![
        std(Kind::Stdin),
        std(Kind::Stream(1)),
        std(Kind::Stream(2)),
    ])
});

fn get(fd: i32) -> Result<Arc<Open>, i32> {
    let t = TABLE.read().unwrap_or_else(|e| e.into_inner());
    usize::try_from(fd)
        .ok()
        .and_then(|i| t.get(i).cloned().flatten())
        .ok_or(EBADF)
}

fn insert(open: Open) -> Result<i64, i32> {
    let mut t = TABLE.write().unwrap_or_else(|e| e.into_inner());
    let slot = match t.iter().position(Option::is_none) {
        Some(i) => i,
        None if t.len() < MAX_FDS => {
            t.push(None);
            t.len() - 1
        }
        None => return Err(EMFILE),
    };
    t[slot] = Some(Arc::new(open));
    Ok(slot as i64)
}

/// The last host error as a FreeBSD errno.
fn last_host_errno() -> i32 {
    errno::from_io(&std::io::Error::last_os_error())
}

/// A host call's `ssize_t`/`off_t` result, or the FreeBSD errno.
fn host_result(r: i64) -> Result<i64, i32> {
    if r < 0 {
        Err(last_host_errno())
    } else {
        Ok(r)
    }
}

/// Reads a guest path argument.
///
/// # Safety
/// `path` is null or a NUL-terminated string.
unsafe fn guest_path<'a>(path: *const c_char) -> Result<&'a [u8], i32> {
    if path.is_null() {
        return Err(EFAULT);
    }
    // SAFETY: non-null per the check; NUL-terminated per the contract.
    Ok(unsafe { CStr::from_ptr(path) }.to_bytes())
}

fn host_cstr(p: &std::path::Path) -> Result<std::ffi::CString, i32> {
    std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(|_| EINVAL)
}

unsafe fn open_imp(path: *const c_char, oflags: i32, mode: u32) -> Result<i64, i32> {
    // SAFETY: the guest's contract.
    let guest = unsafe { guest_path(path) }?;
    let acc = oflags & O_ACCMODE;
    if acc == O_ACCMODE {
        return Err(EINVAL);
    }
    let (mount, host) = match vfs::resolve(guest, oflags & O_NOFOLLOW == 0)? {
        Resolved::Device(d) => {
            return insert(Open {
                kind: Kind::Device(d),
                read_only: false,
            })
        }
        Resolved::Host { mount, path, .. } => (mount, path),
    };
    let meta = std::fs::metadata(&host);
    let exists = meta.is_ok();
    if exists && oflags & O_CREAT != 0 && oflags & O_EXCL != 0 {
        return Err(EEXIST);
    }
    if let Ok(m) = &meta {
        if m.is_dir() {
            if acc != O_RDONLY || oflags & O_TRUNC != 0 {
                return Err(EISDIR);
            }
            let entries = list_dir(&host)?;
            return insert(Open {
                kind: Kind::Dir(Mutex::new(DirStream { entries, pos: 0 }), host),
                read_only: mount.read_only,
            });
        }
        if oflags & O_DIRECTORY != 0 {
            return Err(ENOTDIR);
        }
    }
    if mount.read_only
        && (acc != O_RDONLY || oflags & O_TRUNC != 0 || (!exists && oflags & O_CREAT != 0))
    {
        return Err(EROFS);
    }
    // The path is resolved: a link in its last component was replaced by its checked
    // target, so O_NOFOLLOW keeps a link swapped in since then from being followed.
    let mut host_flags = host_libc::O_CLOEXEC
        | host_libc::O_NOFOLLOW
        | match acc {
            O_WRONLY => host_libc::O_WRONLY,
            O_RDWR => host_libc::O_RDWR,
            _ => host_libc::O_RDONLY,
        };
    for (g, h) in [
        (O_NONBLOCK, host_libc::O_NONBLOCK),
        (O_APPEND, host_libc::O_APPEND),
        (O_FSYNC, host_libc::O_SYNC),
        (O_CREAT, host_libc::O_CREAT),
        (O_TRUNC, host_libc::O_TRUNC),
        (O_EXCL, host_libc::O_EXCL),
        (O_DIRECTORY, host_libc::O_DIRECTORY),
    ] {
        if oflags & g != 0 {
            host_flags |= h;
        }
    }
    // The owner may always read and write what the title creates, so the files stay
    // usable on the host whatever mode the title asks for.
    let host_mode = (mode & 0o777) | 0o600;
    let c = host_cstr(&host)?;
    // SAFETY: `c` is a valid path; the flags and mode are plain integers.
    let fd = unsafe { host_libc::open(c.as_ptr(), host_flags, host_mode) };
    if fd < 0 {
        return Err(last_host_errno());
    }
    // SAFETY: `fd` was just opened and is owned by nothing else.
    let file = unsafe { File::from_raw_fd(fd) };
    insert(Open {
        kind: Kind::File(file),
        read_only: mount.read_only,
    })
}

/// FreeBSD `d_type` values.
const DT_UNKNOWN: u8 = 0;
const DT_FIFO: u8 = 1;
const DT_CHR: u8 = 2;
const DT_DIR: u8 = 4;
const DT_BLK: u8 = 6;
const DT_REG: u8 = 8;
const DT_LNK: u8 = 10;
const DT_SOCK: u8 = 12;

fn d_type(t: std::fs::FileType) -> u8 {
    if t.is_dir() {
        DT_DIR
    } else if t.is_file() {
        DT_REG
    } else if t.is_symlink() {
        DT_LNK
    } else if t.is_fifo() {
        DT_FIFO
    } else if t.is_char_device() {
        DT_CHR
    } else if t.is_block_device() {
        DT_BLK
    } else if t.is_socket() {
        DT_SOCK
    } else {
        DT_UNKNOWN
    }
}

fn list_dir(dir: &std::path::Path) -> Result<Vec<DirEntry>, i32> {
    let ino = |p: &std::path::Path| std::fs::metadata(p).map_or(0, |m| m.ino() as u32);
    let mut entries = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| errno::from_io(&e))? {
        let e = e.map_err(|e| errno::from_io(&e))?;
        let name = e.file_name().as_bytes().to_vec();
        // FreeBSD's d_namlen is one byte; longer host names cannot be listed.
        if name.len() > 255 {
            continue;
        }
        entries.push(DirEntry {
            ino: e.ino() as u32,
            kind: e.file_type().map_or(DT_UNKNOWN, d_type),
            name,
        });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    let dots = [
        (b".".to_vec(), ino(dir)),
        (b"..".to_vec(), dir.parent().map_or(0, ino)),
    ];
    let mut all: Vec<DirEntry> = dots
        .into_iter()
        .map(|(name, ino)| DirEntry {
            ino,
            kind: DT_DIR,
            name,
        })
        .collect();
    all.extend(entries);
    Ok(all)
}

fn close_imp(fd: i32) -> Result<i64, i32> {
    let mut t = TABLE.write().unwrap_or_else(|e| e.into_inner());
    let slot = usize::try_from(fd)
        .ok()
        .and_then(|i| t.get_mut(i))
        .ok_or(EBADF)?;
    // Dropping the last reference closes the host file.
    slot.take().map(|_| 0).ok_or(EBADF)
}

/// Fills `n` guest bytes at `buf` from a device.
///
/// # Safety
/// `buf` is writable for `n` bytes.
unsafe fn read_device(d: Device, buf: *mut c_void, n: usize) -> Result<i64, i32> {
    match d {
        Device::Null => Ok(0),
        Device::Zero => {
            // SAFETY: per the contract.
            unsafe { std::ptr::write_bytes(buf as *mut u8, 0, n) };
            Ok(n as i64)
        }
        Device::Random => {
            let mut done = 0;
            while done < n {
                // SAFETY: the range is inside the guest buffer.
                let r =
                    unsafe { host_libc::getrandom((buf as *mut u8).add(done).cast(), n - done, 0) };
                if r < 0 {
                    let e = std::io::Error::last_os_error();
                    if e.kind() == std::io::ErrorKind::Interrupted {
                        continue;
                    }
                    return Err(errno::from_io(&e));
                }
                done += r as usize;
            }
            Ok(n as i64)
        }
    }
}

/// Checks a guest buffer argument: a null buffer is EFAULT unless the length is 0, and
/// a length beyond `ssize_t` is EINVAL.
fn check_buf(buf: *const c_void, n: usize) -> Result<(), i32> {
    if n > isize::MAX as usize {
        Err(EINVAL)
    } else if buf.is_null() && n != 0 {
        Err(EFAULT)
    } else {
        Ok(())
    }
}

unsafe fn read_imp(fd: i32, buf: *mut c_void, n: usize, at: Option<i64>) -> Result<i64, i32> {
    let f = get(fd)?;
    check_buf(buf, n)?;
    if at.is_some_and(|o| o < 0) {
        return Err(EINVAL);
    }
    match &f.kind {
        // SAFETY (all host calls): `buf` is writable for `n` bytes per the guest's contract;
        // the host kernel answers EFAULT for a bad buffer instead of faulting here.
        Kind::File(file) => host_result(match at {
            None => unsafe { host_libc::read(file.as_raw_fd(), buf, n) as i64 },
            Some(o) => unsafe { host_libc::pread(file.as_raw_fd(), buf, n, o) as i64 },
        }),
        Kind::Dir(..) => Err(EISDIR),
        // SAFETY: as above.
        Kind::Device(d) => unsafe { read_device(*d, buf, n) },
        Kind::Stdin if at.is_some() => Err(ESPIPE),
        // SAFETY: as above.
        Kind::Stdin => host_result(unsafe { host_libc::read(0, buf, n) as i64 }),
        Kind::Stream(_) => Err(EBADF),
    }
}

unsafe fn write_imp(fd: i32, buf: *const c_void, n: usize, at: Option<i64>) -> Result<i64, i32> {
    let f = get(fd)?;
    check_buf(buf, n)?;
    if at.is_some_and(|o| o < 0) {
        return Err(EINVAL);
    }
    match &f.kind {
        // SAFETY: `buf` is readable for `n` bytes per the guest's contract.
        Kind::File(file) => host_result(match at {
            None => unsafe { host_libc::write(file.as_raw_fd(), buf, n) as i64 },
            Some(o) => unsafe { host_libc::pwrite(file.as_raw_fd(), buf, n, o) as i64 },
        }),
        // A folder is only ever open for reading.
        Kind::Dir(..) | Kind::Stdin => Err(EBADF),
        Kind::Device(_) => Ok(n as i64),
        Kind::Stream(_) if at.is_some() => Err(ESPIPE),
        Kind::Stream(s) => {
            if n != 0 {
                // SAFETY: non-null (checked) and readable for `n` bytes per the contract.
                let bytes = unsafe { std::slice::from_raw_parts(buf as *const u8, n) };
                let stream = if *s == 1 {
                    &crate::guest_io::STDOUT
                } else {
                    &crate::guest_io::STDERR
                };
                stream.write(bytes);
            }
            Ok(n as i64)
        }
    }
}

fn lseek_imp(fd: i32, offset: i64, whence: i32) -> Result<i64, i32> {
    let f = get(fd)?;
    match &f.kind {
        Kind::File(file) => {
            // SEEK_SET/CUR/END/DATA/HOLE have the same values on FreeBSD and Linux.
            if !(0..=4).contains(&whence) {
                return Err(EINVAL);
            }
            // SAFETY: a plain host call on a descriptor we own.
            host_result(unsafe { host_libc::lseek(file.as_raw_fd(), offset, whence) })
        }
        Kind::Dir(d, _) => {
            let mut d = d.lock().unwrap_or_else(|e| e.into_inner());
            let base = match whence {
                0 => 0,
                1 => d.pos as i64,
                2 => d.entries.len() as i64,
                _ => return Err(EINVAL),
            };
            let pos = base.checked_add(offset).filter(|p| *p >= 0).ok_or(EINVAL)?;
            d.pos = pos as usize;
            Ok(pos)
        }
        Kind::Device(_) => match whence {
            0..=2 => Ok(0),
            _ => Err(EINVAL),
        },
        Kind::Stdin | Kind::Stream(_) => Err(ESPIPE),
    }
}

/// The console's `struct stat` (FreeBSD 9 layout, 0x78 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GuestStat {
    /// Device of the inode.
    pub st_dev: u32,
    /// Inode number.
    pub st_ino: u32,
    /// Type and permission bits.
    pub st_mode: u16,
    /// Hard links.
    pub st_nlink: u16,
    /// Owner.
    pub st_uid: u32,
    /// Group.
    pub st_gid: u32,
    /// Device type (for device files).
    pub st_rdev: u32,
    /// Last access.
    pub st_atim: super::wait::GuestTimespec,
    /// Last modification.
    pub st_mtim: super::wait::GuestTimespec,
    /// Last status change.
    pub st_ctim: super::wait::GuestTimespec,
    /// Size in bytes.
    pub st_size: i64,
    /// 512-byte blocks allocated.
    pub st_blocks: i64,
    /// Preferred I/O size.
    pub st_blksize: u32,
    /// User flags.
    pub st_flags: u32,
    /// Generation number.
    pub st_gen: u32,
    /// Spare.
    pub st_lspare: i32,
    /// Creation time.
    pub st_birthtim: super::wait::GuestTimespec,
}
const _: () = {
    assert!(std::mem::size_of::<GuestStat>() == 0x78);
    assert!(std::mem::offset_of!(GuestStat, st_mode) == 0x08);
    assert!(std::mem::offset_of!(GuestStat, st_rdev) == 0x14);
    assert!(std::mem::offset_of!(GuestStat, st_atim) == 0x18);
    assert!(std::mem::offset_of!(GuestStat, st_size) == 0x48);
    assert!(std::mem::offset_of!(GuestStat, st_blksize) == 0x58);
    assert!(std::mem::offset_of!(GuestStat, st_birthtim) == 0x68);
};

/// FreeBSD `S_IF*` file types.
const S_IFCHR: u16 = 0o020000;

fn ts(sec: i64, nsec: i64) -> super::wait::GuestTimespec {
    super::wait::GuestTimespec {
        tv_sec: sec,
        tv_nsec: nsec,
    }
}

fn stat_of(m: &std::fs::Metadata, read_only: bool) -> GuestStat {
    // The file-type bits have the same values on Linux and FreeBSD.
    let mut mode = (m.mode() & 0o177777) as u16;
    if read_only {
        mode &= !0o222;
    }
    let birth = m
        .created()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(ts(m.ctime(), m.ctime_nsec()), |d| {
            ts(d.as_secs() as i64, d.subsec_nanos() as i64)
        });
    GuestStat {
        st_dev: m.dev() as u32,
        st_ino: m.ino() as u32,
        st_mode: mode,
        st_nlink: m.nlink().min(u16::MAX as u64) as u16,
        st_uid: 0,
        st_gid: 0,
        st_rdev: m.rdev() as u32,
        st_atim: ts(m.atime(), m.atime_nsec()),
        st_mtim: ts(m.mtime(), m.mtime_nsec()),
        st_ctim: ts(m.ctime(), m.ctime_nsec()),
        st_size: m.size() as i64,
        st_blocks: m.blocks() as i64,
        st_blksize: m.blksize() as u32,
        st_flags: 0,
        st_gen: 0,
        st_lspare: 0,
        st_birthtim: birth,
    }
}

fn device_stat(d: Device) -> GuestStat {
    GuestStat {
        st_dev: 0,
        st_ino: d as u32 + 1,
        st_mode: S_IFCHR | 0o666,
        st_nlink: 1,
        st_uid: 0,
        st_gid: 0,
        st_rdev: d as u32 + 1,
        st_atim: ts(0, 0),
        st_mtim: ts(0, 0),
        st_ctim: ts(0, 0),
        st_size: 0,
        st_blocks: 0,
        st_blksize: 4096,
        st_flags: 0,
        st_gen: 0,
        st_lspare: 0,
        st_birthtim: ts(0, 0),
    }
}

/// Writes a stat result to the guest.
///
/// # Safety
/// `out` is null or writable.
unsafe fn put_stat(out: *mut GuestStat, s: GuestStat) -> Result<i64, i32> {
    if out.is_null() {
        return Err(EFAULT);
    }
    // SAFETY: checked non-null; writable per the contract.
    unsafe { out.write_unaligned(s) };
    Ok(0)
}

unsafe fn stat_imp(path: *const c_char, out: *mut GuestStat) -> Result<i64, i32> {
    // SAFETY: the guest's contract.
    let guest = unsafe { guest_path(path) }?;
    let s = match vfs::resolve(guest, true)? {
        Resolved::Device(d) => device_stat(d),
        Resolved::Host { mount, path, .. } => stat_of(
            &std::fs::metadata(&path).map_err(|e| errno::from_io(&e))?,
            mount.read_only,
        ),
    };
    // SAFETY: the guest's contract.
    unsafe { put_stat(out, s) }
}

unsafe fn fstat_imp(fd: i32, out: *mut GuestStat) -> Result<i64, i32> {
    let f = get(fd)?;
    let host_fd = match &f.kind {
        Kind::File(file) => file.as_raw_fd(),
        Kind::Dir(_, path) => {
            let m = std::fs::metadata(path).map_err(|e| errno::from_io(&e))?;
            // SAFETY: the guest's contract.
            return unsafe { put_stat(out, stat_of(&m, f.read_only)) };
        }
        // SAFETY: the guest's contract.
        Kind::Device(d) => return unsafe { put_stat(out, device_stat(*d)) },
        Kind::Stdin => 0,
        Kind::Stream(s) => *s,
    };
    // Borrow the host descriptor without taking ownership of it.
    // SAFETY: `host_fd` is open for as long as `f` is alive.
    let file = std::mem::ManuallyDrop::new(unsafe { File::from_raw_fd(host_fd) });
    let m = file.metadata().map_err(|e| errno::from_io(&e))?;
    // SAFETY: the guest's contract.
    unsafe { put_stat(out, stat_of(&m, f.read_only)) }
}

/// Resolves a path that is changed in place (mkdir, rmdir, unlink, rename): it must be
/// inside a writable mount and not be the mount's root (`root_err` then).
unsafe fn writable_path(path: *const c_char, root_err: i32) -> Result<PathBuf, i32> {
    // SAFETY: the guest's contract.
    let guest = unsafe { guest_path(path) }?;
    match vfs::resolve(guest, false)? {
        // The devices are fixed entries of a folder the title cannot change.
        Resolved::Device(_) => Err(EPERM),
        Resolved::Host { mount, .. } if mount.read_only => Err(EROFS),
        Resolved::Host { is_root: true, .. } => Err(root_err),
        Resolved::Host { path, .. } => Ok(path),
    }
}

unsafe fn mkdir_imp(path: *const c_char, mode: u32) -> Result<i64, i32> {
    // SAFETY: the guest's contract.
    let p = unsafe { writable_path(path, EEXIST) }?;
    std::fs::DirBuilder::new()
        .mode((mode & 0o777) | 0o700)
        .create(&p)
        .map(|_| 0)
        .map_err(|e| errno::from_io(&e))
}

unsafe fn rmdir_imp(path: *const c_char) -> Result<i64, i32> {
    // SAFETY: the guest's contract.
    let p = unsafe { writable_path(path, EBUSY) }?;
    std::fs::remove_dir(&p)
        .map(|_| 0)
        .map_err(|e| errno::from_io(&e))
}

unsafe fn unlink_imp(path: *const c_char) -> Result<i64, i32> {
    // SAFETY: the guest's contract.
    let p = unsafe { writable_path(path, EPERM) }?;
    // FreeBSD refuses to unlink a folder with EPERM (Linux says EISDIR).
    if std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir()) {
        return Err(EPERM);
    }
    std::fs::remove_file(&p)
        .map(|_| 0)
        .map_err(|e| errno::from_io(&e))
}

unsafe fn rename_imp(from: *const c_char, to: *const c_char) -> Result<i64, i32> {
    // SAFETY: the guest's contract.
    let (gf, gt) = unsafe { (guest_path(from)?, guest_path(to)?) };
    let (rf, rt) = (vfs::resolve(gf, false)?, vfs::resolve(gt, false)?);
    match (rf, rt) {
        (
            Resolved::Host {
                mount: mf,
                path: pf,
                is_root: root_f,
            },
            Resolved::Host {
                mount: mt,
                path: pt,
                is_root: root_t,
            },
        ) => {
            if mf.read_only || mt.read_only {
                Err(EROFS)
            } else if !std::ptr::eq(mf, mt) {
                Err(EXDEV)
            } else if root_f || root_t {
                Err(EBUSY)
            } else {
                std::fs::rename(&pf, &pt)
                    .map(|_| 0)
                    .map_err(|e| errno::from_io(&e))
            }
        }
        _ => Err(EPERM),
    }
}

/// Size of a FreeBSD `struct dirent` record for a name of `len` bytes: the 8-byte header,
/// then the name and its NUL, padded to 4 bytes.
fn reclen(len: usize) -> usize {
    8 + ((len + 1 + 3) & !3)
}

/// Fills `buf` with directory records (FreeBSD 9 `struct dirent`: d_fileno u32,
/// d_reclen u16, d_type u8, d_namlen u8, d_name). `base` receives the position before
/// the read.
unsafe fn getdents_imp(fd: i32, buf: *mut u8, n: usize, base: *mut i64) -> Result<i64, i32> {
    let f = get(fd)?;
    let Kind::Dir(d, _) = &f.kind else {
        return Err(EINVAL);
    };
    check_buf(buf as *const c_void, n)?;
    let mut d = d.lock().unwrap_or_else(|e| e.into_inner());
    if !base.is_null() {
        // SAFETY: non-null and writable per the guest's contract.
        unsafe { base.write_unaligned(d.pos as i64) };
    }
    let mut used = 0;
    while let Some(e) = d.entries.get(d.pos) {
        let len = reclen(e.name.len());
        if used + len > n {
            break;
        }
        let mut rec = vec![0u8; len];
        rec[0..4].copy_from_slice(&e.ino.to_le_bytes());
        rec[4..6].copy_from_slice(&(len as u16).to_le_bytes());
        rec[6] = e.kind;
        rec[7] = e.name.len() as u8;
        rec[8..8 + e.name.len()].copy_from_slice(&e.name);
        // SAFETY: `used + len <= n`, inside the guest buffer.
        unsafe { std::ptr::copy_nonoverlapping(rec.as_ptr(), buf.add(used), len) };
        used += len;
        d.pos += 1;
    }
    if used == 0 && d.pos < d.entries.len() {
        // Not even one record fits.
        return Err(EINVAL);
    }
    Ok(used as i64)
}

/// Defines one export of an implementation returning `Result<i64, errno>`: `sce` names
/// return the SCE error (as `$ret`, so 64-bit results are sign-extended), `posix` names
/// -1 with `errno` set.
macro_rules! export {
    (sce $name:literal as $f:ident = $imp:ident ($($a:ident: $t:ty),*) -> $ret:ty) => {
        #[doc = concat!("`", $name, "`.")]
        ///
        /// # Safety
        /// The console API's contract: pointers are null or valid for what the call reads
        /// and writes.
        #[export::nid($name)]
        pub unsafe extern "sysv64" fn $f($($a: $t),*) -> $ret {
            // SAFETY: the guest's contract is the implementation's.
            match unsafe { $imp($($a),*) } {
                Ok(v) => v as $ret,
                Err(e) => sce(e) as $ret,
            }
        }
    };
    (posix $name:literal as $f:ident = $imp:ident ($($a:ident: $t:ty),*) -> $ret:ty) => {
        #[doc = concat!("`", $name, "`.")]
        ///
        /// # Safety
        /// The console API's contract: pointers are null or valid for what the call reads
        /// and writes.
        #[export::nid($name)]
        pub unsafe extern "sysv64" fn $f($($a: $t),*) -> $ret {
            // SAFETY: the guest's contract is the implementation's.
            match unsafe { $imp($($a),*) } {
                Ok(v) => v as $ret,
                Err(e) => {
                    set_errno(e);
                    -1
                }
            }
        }
    };
}

export!(sce "sceKernelOpen" as sce_kernel_open = open_imp(path: *const c_char, oflags: i32, mode: u32) -> i32);
export!(posix "open" as open = open_imp(path: *const c_char, oflags: i32, mode: u32) -> i32);
export!(posix "_open" as open_ = open_imp(path: *const c_char, oflags: i32, mode: u32) -> i32);

unsafe fn close_unsafe(fd: i32) -> Result<i64, i32> {
    close_imp(fd)
}
export!(sce "sceKernelClose" as sce_kernel_close = close_unsafe(fd: i32) -> i32);
export!(posix "close" as close = close_unsafe(fd: i32) -> i32);
export!(posix "_close" as close_ = close_unsafe(fd: i32) -> i32);

unsafe fn read_plain(fd: i32, buf: *mut c_void, n: usize) -> Result<i64, i32> {
    // SAFETY: the guest's contract.
    unsafe { read_imp(fd, buf, n, None) }
}
export!(sce "sceKernelRead" as sce_kernel_read = read_plain(fd: i32, buf: *mut c_void, n: usize) -> i64);
export!(posix "read" as read = read_plain(fd: i32, buf: *mut c_void, n: usize) -> i64);
export!(posix "_read" as read_ = read_plain(fd: i32, buf: *mut c_void, n: usize) -> i64);

unsafe fn write_plain(fd: i32, buf: *const c_void, n: usize) -> Result<i64, i32> {
    // SAFETY: the guest's contract.
    unsafe { write_imp(fd, buf, n, None) }
}
export!(sce "sceKernelWrite" as sce_kernel_write = write_plain(fd: i32, buf: *const c_void, n: usize) -> i64);
export!(posix "write" as write = write_plain(fd: i32, buf: *const c_void, n: usize) -> i64);
export!(posix "_write" as write_ = write_plain(fd: i32, buf: *const c_void, n: usize) -> i64);

unsafe fn pread_at(fd: i32, buf: *mut c_void, n: usize, offset: i64) -> Result<i64, i32> {
    // SAFETY: the guest's contract.
    unsafe { read_imp(fd, buf, n, Some(offset)) }
}
export!(sce "sceKernelPread" as sce_kernel_pread = pread_at(fd: i32, buf: *mut c_void, n: usize, offset: i64) -> i64);
export!(posix "pread" as pread = pread_at(fd: i32, buf: *mut c_void, n: usize, offset: i64) -> i64);

unsafe fn pwrite_at(fd: i32, buf: *const c_void, n: usize, offset: i64) -> Result<i64, i32> {
    // SAFETY: the guest's contract.
    unsafe { write_imp(fd, buf, n, Some(offset)) }
}
export!(sce "sceKernelPwrite" as sce_kernel_pwrite = pwrite_at(fd: i32, buf: *const c_void, n: usize, offset: i64) -> i64);
export!(posix "pwrite" as pwrite = pwrite_at(fd: i32, buf: *const c_void, n: usize, offset: i64) -> i64);

unsafe fn lseek_unsafe(fd: i32, offset: i64, whence: i32) -> Result<i64, i32> {
    lseek_imp(fd, offset, whence)
}
export!(sce "sceKernelLseek" as sce_kernel_lseek = lseek_unsafe(fd: i32, offset: i64, whence: i32) -> i64);
export!(posix "lseek" as lseek = lseek_unsafe(fd: i32, offset: i64, whence: i32) -> i64);

export!(sce "sceKernelStat" as sce_kernel_stat = stat_imp(path: *const c_char, out: *mut GuestStat) -> i32);
export!(posix "stat" as stat = stat_imp(path: *const c_char, out: *mut GuestStat) -> i32);

export!(sce "sceKernelFstat" as sce_kernel_fstat = fstat_imp(fd: i32, out: *mut GuestStat) -> i32);
export!(posix "fstat" as fstat = fstat_imp(fd: i32, out: *mut GuestStat) -> i32);
export!(posix "_fstat" as fstat_ = fstat_imp(fd: i32, out: *mut GuestStat) -> i32);

export!(sce "sceKernelMkdir" as sce_kernel_mkdir = mkdir_imp(path: *const c_char, mode: u32) -> i32);
export!(posix "mkdir" as mkdir = mkdir_imp(path: *const c_char, mode: u32) -> i32);

export!(sce "sceKernelRmdir" as sce_kernel_rmdir = rmdir_imp(path: *const c_char) -> i32);
export!(posix "rmdir" as rmdir = rmdir_imp(path: *const c_char) -> i32);

export!(sce "sceKernelUnlink" as sce_kernel_unlink = unlink_imp(path: *const c_char) -> i32);
export!(posix "unlink" as unlink = unlink_imp(path: *const c_char) -> i32);

export!(sce "sceKernelRename" as sce_kernel_rename = rename_imp(from: *const c_char, to: *const c_char) -> i32);
export!(posix "rename" as rename = rename_imp(from: *const c_char, to: *const c_char) -> i32);

unsafe fn getdents_plain(fd: i32, buf: *mut u8, n: usize) -> Result<i64, i32> {
    // SAFETY: the guest's contract.
    unsafe { getdents_imp(fd, buf, n, std::ptr::null_mut()) }
}
export!(sce "sceKernelGetdents" as sce_kernel_getdents = getdents_plain(fd: i32, buf: *mut u8, n: usize) -> i32);
export!(posix "getdents" as getdents = getdents_plain(fd: i32, buf: *mut u8, n: usize) -> i32);

export!(sce "sceKernelGetdirentries" as sce_kernel_getdirentries = getdents_imp(fd: i32, buf: *mut u8, n: usize, base: *mut i64) -> i32);
export!(posix "getdirentries" as getdirentries = getdents_imp(fd: i32, buf: *mut u8, n: usize, base: *mut i64) -> i32);
export!(posix "_getdirentries" as getdirentries_ = getdents_imp(fd: i32, buf: *mut u8, n: usize, base: *mut i64) -> i32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dirent_records_are_padded_to_four_bytes() {
        assert_eq!(reclen(1), 12);
        assert_eq!(reclen(3), 12);
        assert_eq!(reclen(4), 16);
        assert_eq!(reclen(255), 8 + 256);
    }
}
