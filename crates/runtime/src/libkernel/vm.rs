//! The guest's virtual address space: every range a title mapped or reserved, with the
//! console protection and memory type it asked for, plus the flexible-memory budget.
//!
//! The map is one `BTreeMap` of non-overlapping regions keyed by start address behind one
//! lock (mapping is not a hot path); lookups are `range(..=addr).next_back()`, O(log n).
//! Host mappings are made with `mmap`: direct memory as `MAP_SHARED` views of the direct
//! memory memfd (see [`super::dmem`]), flexible memory and `sceKernelMmap` anonymous
//! memory as private anonymous pages, reservations as `PROT_NONE` address space.
//!
//! Only ranges this map tracks are ever unmapped or replaced: a fixed mapping over an
//! address the map does not know first claims it with `MAP_FIXED_NOREPLACE`, so a title
//! cannot clobber the runtime's own memory by mapping over it.

use super::errors::{EACCES, EINVAL, ENOMEM};
use std::collections::BTreeMap;
use std::ffi::{c_char, c_void};
use std::sync::{Mutex, MutexGuard};

/// `SCE_KERNEL_PAGE_SIZE`: the console's allocation and mapping granularity.
pub const PAGE: usize = 16 << 10;

/// CPU read protection bit.
pub const PROT_CPU_READ: i32 = 0x1;
/// CPU write protection bit (implies read on the console, as on x86).
pub const PROT_CPU_WRITE: i32 = 0x2;
/// CPU execute protection bit.
pub const PROT_CPU_EXEC: i32 = 0x4;
/// GPU read protection bit.
pub const PROT_GPU_READ: i32 = 0x10;
/// GPU write protection bit.
pub const PROT_GPU_WRITE: i32 = 0x20;

/// `SCE_KERNEL_MAP_FIXED` (FreeBSD `MAP_FIXED`).
pub const MAP_FIXED: i32 = 0x10;
/// `SCE_KERNEL_MAP_NO_OVERWRITE`: a fixed mapping fails instead of replacing one.
pub const MAP_NO_OVERWRITE: i32 = 0x80;
/// FreeBSD `MAP_ANON`.
pub const MAP_ANON: i32 = 0x1000;

/// The flexible memory budget of a game process. The console sets it from the title's
/// parameters; without those we give the largest budget a PS4 big app can have.
pub const FLEXIBLE_MEMORY_SIZE: u64 = 512 << 20;

/// What backs a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A view of direct memory starting at this physical offset.
    Direct {
        /// Physical offset of the region's first byte.
        phys: u64,
    },
    /// Flexible memory (counts against [`FLEXIBLE_MEMORY_SIZE`]).
    Flexible,
    /// Anonymous memory from `sceKernelMmap`/`mmap` (not budgeted).
    Anon,
    /// Address space reserved by `sceKernelReserveVirtualRange`, not accessible.
    Reserved,
}

/// One tracked range.
#[derive(Clone, Copy, Debug)]
pub struct Region {
    /// Length in bytes.
    pub len: usize,
    /// Backing.
    pub kind: Kind,
    /// Console protection bits as the title gave them.
    pub prot: i32,
    /// Memory type (direct memory), 0 otherwise.
    pub mtype: i32,
    /// The name given by a `…Named…` call, NUL-padded.
    pub name: [u8; 32],
}

impl Region {
    /// A region without a name.
    pub fn new(len: usize, kind: Kind, prot: i32, mtype: i32) -> Self {
        Region {
            len,
            kind,
            prot,
            mtype,
            name: [0; 32],
        }
    }

    /// The region's tail from `delta` bytes in.
    fn tail(&self, delta: usize) -> Region {
        let kind = match self.kind {
            Kind::Direct { phys } => Kind::Direct {
                phys: phys + delta as u64,
            },
            k => k,
        };
        Region {
            len: self.len - delta,
            kind,
            ..*self
        }
    }
}

/// The address-space map.
#[derive(Default)]
pub struct Vm {
    regions: BTreeMap<usize, Region>,
    flexible_used: u64,
}

/// The process's map, locked.
pub fn lock() -> MutexGuard<'static, Vm> {
    static VM: Mutex<Vm> = Mutex::new(Vm {
        regions: BTreeMap::new(),
        flexible_used: 0,
    });
    VM.lock().unwrap_or_else(|e| e.into_inner())
}

/// The host protection for console protection bits: the GPU is emulated by the CPU, so a
/// GPU-readable or -writable range must be host-readable or -writable too.
pub fn host_prot(prot: i32) -> i32 {
    let mut p = host_libc::PROT_NONE;
    if prot & (PROT_CPU_READ | PROT_GPU_READ | PROT_CPU_WRITE | PROT_GPU_WRITE) != 0 {
        p |= host_libc::PROT_READ;
    }
    if prot & (PROT_CPU_WRITE | PROT_GPU_WRITE) != 0 {
        p |= host_libc::PROT_WRITE;
    }
    if prot & PROT_CPU_EXEC != 0 {
        p |= host_libc::PROT_EXEC;
    }
    p
}

/// How a new mapping is backed on the host.
pub enum Backing {
    /// `MAP_SHARED` of `fd` at `offset`.
    Shared {
        /// The memfd.
        fd: i32,
        /// Its offset.
        offset: u64,
    },
    /// Private anonymous memory.
    Anonymous,
    /// `PROT_NONE` reserved address space.
    None,
}

impl Vm {
    /// Splits the region containing `addr` (strictly inside it) in two at `addr`.
    fn split_at(&mut self, addr: usize) {
        let Some((&start, r)) = self.regions.range(..addr).next_back() else {
            return;
        };
        if start + r.len <= addr {
            return;
        }
        let delta = addr - start;
        let tail = r.tail(delta);
        if let Some(head) = self.regions.get_mut(&start) {
            head.len = delta;
        }
        self.regions.insert(addr, tail);
    }

    /// The region containing `addr`.
    pub fn find(&self, addr: usize) -> Option<(usize, Region)> {
        self.regions
            .range(..=addr)
            .next_back()
            .filter(|(&s, r)| addr < s + r.len)
            .map(|(&s, r)| (s, *r))
    }

    /// The region containing `addr`, or the first one after it.
    pub fn find_next(&self, addr: usize) -> Option<(usize, Region)> {
        self.find(addr)
            .or_else(|| self.regions.range(addr..).next().map(|(&s, r)| (s, *r)))
    }

    /// Parts of `[start, start+len)` that no region covers.
    fn gaps(&self, start: usize, len: usize) -> Vec<(usize, usize)> {
        let end = start + len;
        let mut out = Vec::new();
        let mut cursor = start;
        let first = self.find(start).map(|(s, _)| s).unwrap_or(start);
        for (&s, r) in self.regions.range(first..end) {
            if s > cursor {
                out.push((cursor, s - cursor));
            }
            cursor = cursor.max(s + r.len);
        }
        if cursor < end {
            out.push((cursor, end - cursor));
        }
        out
    }

    /// Regions overlapping `[start, start+len)`.
    fn overlapping(&self, start: usize, len: usize) -> impl Iterator<Item = (usize, Region)> + '_ {
        let first = self.find(start).map(|(s, _)| s).unwrap_or(start);
        self.regions
            .range(first..start + len)
            .map(|(&s, r)| (s, *r))
    }

    /// Forgets the tracked parts of `[start, start+len)` (the host mapping is untouched)
    /// and returns what was removed.
    fn carve(&mut self, start: usize, len: usize) -> Vec<(usize, Region)> {
        self.split_at(start);
        self.split_at(start + len);
        let keys: Vec<usize> = self
            .regions
            .range(start..start + len)
            .map(|(&s, _)| s)
            .collect();
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            if let Some(r) = self.regions.remove(&k) {
                if r.kind == Kind::Flexible {
                    self.flexible_used -= r.len as u64;
                }
                out.push((k, r));
            }
        }
        out
    }

    /// Maps a new region: at `hint` exactly when `fixed` (replacing tracked regions there
    /// unless `no_overwrite`), else anywhere aligned to `align`, preferring `hint`.
    /// Returns the address or an SCE error.
    #[allow(clippy::too_many_arguments)]
    pub fn map(
        &mut self,
        hint: usize,
        len: usize,
        align: usize,
        fixed: bool,
        no_overwrite: bool,
        region: Region,
        backing: Backing,
    ) -> Result<usize, i32> {
        if len == 0 || !len.is_multiple_of(PAGE) || !align.is_power_of_two() {
            return Err(EINVAL);
        }
        let addr = if fixed {
            if !hint.is_multiple_of(PAGE) || hint == 0 || hint.checked_add(len).is_none() {
                return Err(EINVAL);
            }
            if no_overwrite
                && self
                    .overlapping(hint, len)
                    .any(|(_, r)| r.kind != Kind::Reserved)
            {
                return Err(ENOMEM);
            }
            // Claim what the map does not track without replacing anything the host has
            // there (the runtime's own memory, the title's image).
            let gaps = self.gaps(hint, len);
            for (i, &(g, gl)) in gaps.iter().enumerate() {
                // SAFETY: MAP_FIXED_NOREPLACE never replaces an existing mapping.
                let p = unsafe {
                    host_libc::mmap(
                        g as *mut c_void,
                        gl,
                        host_libc::PROT_NONE,
                        host_libc::MAP_PRIVATE
                            | host_libc::MAP_ANONYMOUS
                            | host_libc::MAP_NORESERVE
                            | host_libc::MAP_FIXED_NOREPLACE,
                        -1,
                        0,
                    )
                };
                if p != g as *mut c_void {
                    if p != host_libc::MAP_FAILED {
                        // SAFETY: an old kernel placed it elsewhere; it is ours to drop.
                        unsafe { host_libc::munmap(p, gl) };
                    }
                    for &(u, ul) in &gaps[..i] {
                        // SAFETY: claimed just above by this call.
                        unsafe { host_libc::munmap(u as *mut c_void, ul) };
                    }
                    return Err(ENOMEM);
                }
            }
            hint
        } else {
            reserve_aligned(hint, len, align.max(PAGE))?
        };
        let (flags, fd, offset) = match backing {
            Backing::Shared { fd, offset } => (host_libc::MAP_SHARED, fd, offset as i64),
            Backing::Anonymous => (host_libc::MAP_PRIVATE | host_libc::MAP_ANONYMOUS, -1, 0),
            Backing::None => (
                host_libc::MAP_PRIVATE | host_libc::MAP_ANONYMOUS | host_libc::MAP_NORESERVE,
                -1,
                0,
            ),
        };
        let prot = match backing {
            Backing::None => host_libc::PROT_NONE,
            _ => host_prot(region.prot),
        };
        // SAFETY: `addr..addr+len` is address space this map owns: tracked regions or
        // ranges just claimed or reserved above.
        let p = unsafe {
            host_libc::mmap(
                addr as *mut c_void,
                len,
                prot,
                flags | host_libc::MAP_FIXED,
                fd,
                offset,
            )
        };
        if p == host_libc::MAP_FAILED {
            return Err(ENOMEM);
        }
        self.carve(addr, len);
        if region.kind == Kind::Flexible {
            self.flexible_used += len as u64;
        }
        self.regions.insert(addr, Region { len, ..region });
        Ok(addr)
    }

    /// Unmaps the tracked parts of `[start, start+len)`; returns the removed regions.
    pub fn unmap(&mut self, start: usize, len: usize) -> Vec<(usize, Region)> {
        let removed = self.carve(start, len);
        for &(a, r) in &removed {
            // SAFETY: a tracked region: guest memory this map created.
            unsafe { host_libc::munmap(a as *mut c_void, r.len) };
        }
        removed
    }

    /// Changes the protection of `[start, start+len)`, which must be fully mapped.
    pub fn protect(&mut self, start: usize, len: usize, prot: i32, mtype: Option<i32>) -> i32 {
        if !self.gaps(start, len).is_empty()
            || self
                .overlapping(start, len)
                .any(|(_, r)| r.kind == Kind::Reserved)
        {
            return ENOMEM;
        }
        // SAFETY: the range is fully tracked guest memory (checked above).
        if unsafe { host_libc::mprotect(start as *mut c_void, len, host_prot(prot)) } != 0 {
            return ENOMEM;
        }
        self.split_at(start);
        self.split_at(start + len);
        for (_, r) in self.regions.range_mut(start..start + len) {
            r.prot = prot;
            if let Some(t) = mtype {
                r.mtype = t;
            }
        }
        0
    }

    /// Direct-memory regions overlapping the physical range `[start, end)`, as the virtual
    /// sub-ranges that map it. A linear scan: only direct-memory release needs it.
    pub fn direct_views(&self, start: u64, end: u64) -> Vec<(usize, usize)> {
        self.regions
            .iter()
            .filter_map(|(&a, r)| match r.kind {
                Kind::Direct { phys } if phys < end && phys + r.len as u64 > start => {
                    let lo = phys.max(start);
                    let hi = (phys + r.len as u64).min(end);
                    Some((a + (lo - phys) as usize, (hi - lo) as usize))
                }
                _ => None,
            })
            .collect()
    }

    /// Flexible memory in use.
    pub fn flexible_used(&self) -> u64 {
        self.flexible_used
    }

    /// Sets the name of the regions in `[start, start+len)`.
    pub fn rename(&mut self, start: usize, len: usize, name: [u8; 32]) {
        self.split_at(start);
        self.split_at(start + len);
        for (_, r) in self.regions.range_mut(start..start + len) {
            r.name = name;
        }
    }
}

/// Reserves `len` bytes of host address space aligned to `align`, near `hint` if it can.
fn reserve_aligned(hint: usize, len: usize, align: usize) -> Result<usize, i32> {
    let span = len.checked_add(align).ok_or(ENOMEM)?;
    // SAFETY: an anonymous reservation at a host-chosen address (the hint is only a hint).
    let base = unsafe {
        host_libc::mmap(
            hint as *mut c_void,
            span,
            host_libc::PROT_NONE,
            host_libc::MAP_PRIVATE | host_libc::MAP_ANONYMOUS | host_libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if base == host_libc::MAP_FAILED {
        return Err(ENOMEM);
    }
    let aligned = (base as usize).next_multiple_of(align);
    let head = aligned - base as usize;
    let tail = span - head - len;
    // SAFETY: both trimmed edges are parts of the reservation made just above.
    unsafe {
        if head > 0 {
            host_libc::munmap(base, head);
        }
        if tail > 0 {
            host_libc::munmap((aligned + len) as *mut c_void, tail);
        }
    }
    Ok(aligned)
}

/// Copies a guest name (at most 31 bytes) into a region name.
///
/// # Safety
/// `name` is null or a NUL-terminated guest string.
pub unsafe fn region_name(name: *const c_char) -> [u8; 32] {
    let mut out = [0u8; 32];
    if name.is_null() {
        return out;
    }
    for (i, slot) in out.iter_mut().take(31).enumerate() {
        // SAFETY: reading up to the terminator of a guest string.
        let c = unsafe { *name.add(i) } as u8;
        if c == 0 {
            break;
        }
        *slot = c;
    }
    out
}

/// Flexible memory: `sceKernelMapFlexibleMemory` and its named form.
unsafe fn map_flexible(
    addr: *mut *mut c_void,
    len: u64,
    prot: i32,
    flags: i32,
    name: *const c_char,
) -> i32 {
    if addr.is_null() || len == 0 || !(len as usize).is_multiple_of(PAGE) {
        return EINVAL;
    }
    // SAFETY: non-null guest out/in pointer.
    let hint = unsafe { *addr } as usize;
    let mut vm = lock();
    if vm.flexible_used + len > FLEXIBLE_MEMORY_SIZE {
        return ENOMEM;
    }
    let mut region = Region::new(len as usize, Kind::Flexible, prot, 0);
    // SAFETY: per this function's contract.
    region.name = unsafe { region_name(name) };
    match vm.map(
        hint,
        len as usize,
        PAGE,
        flags & MAP_FIXED != 0,
        flags & MAP_NO_OVERWRITE != 0,
        region,
        Backing::Anonymous,
    ) {
        Ok(a) => {
            // SAFETY: checked non-null.
            unsafe { *addr = a as *mut c_void };
            0
        }
        Err(e) => e,
    }
}

#[export::nid("sceKernelMapFlexibleMemory")]
pub unsafe extern "sysv64" fn sce_kernel_map_flexible_memory(
    addr: *mut *mut c_void,
    len: u64,
    prot: i32,
    flags: i32,
) -> i32 {
    // SAFETY: guest pointers, checked inside.
    unsafe { map_flexible(addr, len, prot, flags, std::ptr::null()) }
}

#[export::nid("sceKernelMapNamedFlexibleMemory")]
pub unsafe extern "sysv64" fn sce_kernel_map_named_flexible_memory(
    addr: *mut *mut c_void,
    len: u64,
    prot: i32,
    flags: i32,
    name: *const c_char,
) -> i32 {
    // SAFETY: guest pointers, checked inside.
    unsafe { map_flexible(addr, len, prot, flags, name) }
}

#[export::nid("sceKernelReleaseFlexibleMemory")]
pub extern "sysv64" fn sce_kernel_release_flexible_memory(addr: *mut c_void, len: u64) -> i32 {
    let (a, l) = (addr as usize, len as usize);
    if !a.is_multiple_of(PAGE) || l == 0 || a.checked_add(l).is_none() {
        return EINVAL;
    }
    let mut vm = lock();
    // Only flexible memory may be released this way.
    if vm.overlapping(a, l).any(|(_, r)| r.kind != Kind::Flexible) {
        return EINVAL;
    }
    vm.unmap(a, l);
    0
}

#[export::nid("sceKernelAvailableFlexibleMemorySize")]
pub unsafe extern "sysv64" fn sce_kernel_available_flexible_memory_size(size: *mut u64) -> i32 {
    if size.is_null() {
        return EINVAL;
    }
    let used = lock().flexible_used();
    // SAFETY: checked non-null.
    unsafe { *size = FLEXIBLE_MEMORY_SIZE - used };
    0
}

#[export::nid("sceKernelReserveVirtualRange")]
pub unsafe extern "sysv64" fn sce_kernel_reserve_virtual_range(
    addr: *mut *mut c_void,
    len: u64,
    flags: i32,
    alignment: u64,
) -> i32 {
    if addr.is_null() || len == 0 || !(len as usize).is_multiple_of(PAGE) {
        return EINVAL;
    }
    let align = (alignment as usize).max(PAGE);
    // SAFETY: non-null guest pointer.
    let hint = unsafe { *addr } as usize;
    let region = Region::new(len as usize, Kind::Reserved, 0, 0);
    match lock().map(
        hint,
        len as usize,
        align,
        flags & MAP_FIXED != 0,
        flags & MAP_NO_OVERWRITE != 0,
        region,
        Backing::None,
    ) {
        Ok(a) => {
            // SAFETY: checked non-null.
            unsafe { *addr = a as *mut c_void };
            0
        }
        Err(e) => e,
    }
}

/// `sceKernelMmap` without the out pointer: anonymous memory only. Returns the address
/// or an SCE error.
fn mmap_anon(addr: usize, len: u64, prot: i32, flags: i32, fd: i32) -> Result<usize, i32> {
    if flags & MAP_ANON == 0 || fd != -1 {
        crate::log_once!(
            "native5: mmap of a file is not implemented (guest files live elsewhere); ENOSYS"
        );
        return Err(super::errors::ENOSYS);
    }
    let len = (len as usize)
        .checked_next_multiple_of(PAGE)
        .ok_or(EINVAL)?;
    let region = Region::new(len, Kind::Anon, prot, 0);
    lock().map(
        addr,
        len,
        PAGE,
        flags & MAP_FIXED != 0,
        flags & MAP_NO_OVERWRITE != 0,
        region,
        Backing::Anonymous,
    )
}

#[export::nid("sceKernelMmap")]
pub unsafe extern "sysv64" fn sce_kernel_mmap(
    addr: *mut c_void,
    len: u64,
    prot: i32,
    flags: i32,
    fd: i32,
    _offset: i64,
    res: *mut *mut c_void,
) -> i32 {
    if res.is_null() {
        return EINVAL;
    }
    match mmap_anon(addr as usize, len, prot, flags, fd) {
        Ok(a) => {
            // SAFETY: checked non-null.
            unsafe { *res = a as *mut c_void };
            0
        }
        Err(e) => e,
    }
}

/// Sets the guest errno from an SCE error and returns -1 (the POSIX failure value).
fn posix_fail(sce: i32) -> i32 {
    super::errors::set_errno(sce & 0xffff);
    -1
}

#[export::nid("mmap")]
pub extern "sysv64" fn posix_mmap(
    addr: *mut c_void,
    len: u64,
    prot: i32,
    flags: i32,
    fd: i32,
    _offset: i64,
) -> *mut c_void {
    match mmap_anon(addr as usize, len, prot, flags, fd) {
        Ok(a) => a as *mut c_void,
        Err(e) => {
            posix_fail(e);
            host_libc::MAP_FAILED
        }
    }
}

/// Unmaps `[addr, addr+len)`: EINVAL for a misaligned or empty range.
fn munmap_range(addr: usize, len: u64) -> i32 {
    let Some(len) = (len as usize).checked_next_multiple_of(PAGE) else {
        return EINVAL;
    };
    if !addr.is_multiple_of(PAGE) || len == 0 || addr.checked_add(len).is_none() {
        return EINVAL;
    }
    lock().unmap(addr, len);
    0
}

#[export::nid("sceKernelMunmap")]
pub extern "sysv64" fn sce_kernel_munmap(addr: *mut c_void, len: u64) -> i32 {
    munmap_range(addr as usize, len)
}

#[export::nid("munmap")]
pub extern "sysv64" fn posix_munmap(addr: *mut c_void, len: u64) -> i32 {
    match munmap_range(addr as usize, len) {
        0 => 0,
        e => posix_fail(e),
    }
}

/// Changes protection, rounding the range out to whole pages as FreeBSD does.
fn protect_range(addr: usize, len: u64, prot: i32, mtype: Option<i32>) -> i32 {
    let start = addr - addr % PAGE;
    let Some(end) = addr
        .checked_add(len as usize)
        .and_then(|e| e.checked_next_multiple_of(PAGE))
    else {
        return EINVAL;
    };
    if end == start {
        return 0;
    }
    lock().protect(start, end - start, prot, mtype)
}

#[export::nid("sceKernelMprotect")]
pub extern "sysv64" fn sce_kernel_mprotect(addr: *const c_void, len: u64, prot: i32) -> i32 {
    protect_range(addr as usize, len, prot, None)
}

#[export::nid("sceKernelMtypeprotect")]
pub extern "sysv64" fn sce_kernel_mtypeprotect(
    addr: *const c_void,
    len: u64,
    mtype: i32,
    prot: i32,
) -> i32 {
    protect_range(addr as usize, len, prot, Some(mtype))
}

#[export::nid("mprotect")]
pub extern "sysv64" fn posix_mprotect(addr: *const c_void, len: u64, prot: i32) -> i32 {
    match protect_range(addr as usize, len, prot, None) {
        0 => 0,
        e => posix_fail(e),
    }
}

#[export::nid("sceKernelQueryMemoryProtection")]
pub unsafe extern "sysv64" fn sce_kernel_query_memory_protection(
    addr: *mut c_void,
    start: *mut *mut c_void,
    end: *mut *mut c_void,
    prot: *mut i32,
) -> i32 {
    let Some((s, r)) = lock().find(addr as usize) else {
        return EACCES;
    };
    if r.kind == Kind::Reserved {
        return EACCES;
    }
    // SAFETY: each out pointer is optional and writable when non-null. `end` is one past
    // the range, like VirtualQuery's.
    unsafe {
        if let Some(p) = start.as_mut() {
            *p = s as *mut c_void;
        }
        if let Some(p) = end.as_mut() {
            *p = (s + r.len) as *mut c_void;
        }
        if let Some(p) = prot.as_mut() {
            *p = r.prot;
        }
    }
    0
}

/// `SceKernelVirtualQueryInfo`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct VirtualQueryInfo {
    /// First byte of the range.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// Physical offset (direct memory), else 0.
    pub offset: i64,
    /// Console protection bits.
    pub protection: i32,
    /// Memory type.
    pub memory_type: i32,
    /// Bit 0 flexible, 1 direct, 2 stack, 3 pooled, 4 committed (C bit-fields of an
    /// `unsigned`, which take one byte here: the name that follows starts right after).
    pub bits: u8,
    /// Name, NUL-terminated.
    pub name: [u8; 32],
}
const _: () = assert!(std::mem::size_of::<VirtualQueryInfo>() == 72);
const _: () = assert!(std::mem::offset_of!(VirtualQueryInfo, protection) == 24);
const _: () = assert!(std::mem::offset_of!(VirtualQueryInfo, bits) == 32);
const _: () = assert!(std::mem::offset_of!(VirtualQueryInfo, name) == 33);

/// `SCE_KERNEL_VQ_FIND_NEXT`: query the next range when `addr` is in none.
const VQ_FIND_NEXT: i32 = 1;

#[export::nid("sceKernelVirtualQuery")]
pub unsafe extern "sysv64" fn sce_kernel_virtual_query(
    addr: *const c_void,
    flags: i32,
    info: *mut VirtualQueryInfo,
    info_size: u64,
) -> i32 {
    if info.is_null() || info_size as usize != std::mem::size_of::<VirtualQueryInfo>() {
        return EINVAL;
    }
    let vm = lock();
    let found = if flags & VQ_FIND_NEXT != 0 {
        vm.find_next(addr as usize)
    } else {
        vm.find(addr as usize)
    };
    let Some((s, r)) = found else {
        return EACCES;
    };
    let (offset, bits) = match r.kind {
        Kind::Direct { phys } => (phys as i64, 0b1_0010),
        Kind::Flexible | Kind::Anon => (0, 0b1_0001),
        Kind::Reserved => (0, 0),
    };
    let out = VirtualQueryInfo {
        start: s,
        end: s + r.len,
        offset,
        protection: r.prot,
        memory_type: r.mtype,
        bits,
        name: r.name,
    };
    // SAFETY: checked non-null and of the right size.
    unsafe { *info = out };
    0
}

#[export::nid("sceKernelSetVirtualRangeName")]
pub unsafe extern "sysv64" fn sce_kernel_set_virtual_range_name(
    addr: *mut c_void,
    len: u64,
    name: *const c_char,
) -> i32 {
    if name.is_null() {
        return EINVAL;
    }
    let (a, l) = (addr as usize, len as usize);
    let mut vm = lock();
    if l == 0 || !vm.gaps(a, l).is_empty() {
        return EINVAL;
    }
    // SAFETY: non-null guest string.
    vm.rename(a, l, unsafe { region_name(name) });
    0
}
