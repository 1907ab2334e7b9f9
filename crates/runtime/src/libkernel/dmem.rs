//! Direct memory: the console's physical memory, handed out by offset and mapped by the
//! title wherever it asks.
//!
//! Backed by one memfd as large as the direct memory: an allocation is a range of
//! offsets in it, and a mapping is a `MAP_SHARED` view of that range, so one physical
//! offset mapped at two addresses shows the same bytes at both. Mappings are tracked in
//! the process's address-space map ([`super::vm`]). Releasing a range unmaps every view
//! of it and punches a hole in the memfd, so its pages go back to the host.
//!
//! Lock order: the allocation lock here, then the address-space lock, never the reverse.

use super::errors::{EACCES, EAGAIN, EINVAL, ENOENT, ENOMEM};
use super::vm::{self, Backing, Kind, Region, MAP_FIXED, MAP_NO_OVERWRITE, PAGE};
use std::collections::BTreeMap;
use std::ffi::{c_char, c_void};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// What `sceKernelGetDirectMemorySize` reports: the PS4 base console's 5 GiB for
/// applications. (PS5 titles ask for their budget through other calls.)
pub const DIRECT_MEMORY_SIZE: u64 = 5 << 30;

/// The memfd and the allocations in it.
pub struct DirectMemory {
    /// The memfd that backs all of direct memory.
    pub fd: i32,
    /// Allocated ranges: start → (length, memory type).
    allocations: Mutex<BTreeMap<u64, (u64, i32)>>,
}

/// The process's direct memory, created on first use; `None` if the host refused a memfd.
pub fn direct_memory() -> Option<&'static DirectMemory> {
    static DM: OnceLock<Option<DirectMemory>> = OnceLock::new();
    DM.get_or_init(|| {
        // SAFETY: memfd_create with a valid name; the fd is owned by this static.
        let fd = unsafe {
            host_libc::memfd_create(c"native5-direct-memory".as_ptr(), host_libc::MFD_CLOEXEC)
        };
        if fd < 0 {
            return None;
        }
        // SAFETY: `fd` is ours; a sparse file of the full size costs nothing until used.
        if unsafe { host_libc::ftruncate(fd, DIRECT_MEMORY_SIZE as i64) } != 0 {
            return None;
        }
        Some(DirectMemory {
            fd,
            allocations: Mutex::new(BTreeMap::new()),
        })
    })
    .as_ref()
}

impl DirectMemory {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, (u64, i32)>> {
        self.allocations.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// True when allocations cover `[start, end)` without a gap.
fn covered(allocs: &BTreeMap<u64, (u64, i32)>, start: u64, end: u64) -> bool {
    let mut cursor = start;
    let first = allocs
        .range(..=start)
        .next_back()
        .map(|(&s, _)| s)
        .unwrap_or(start);
    for (&s, &(l, _)) in allocs.range(first..end) {
        if s > cursor {
            return false;
        }
        cursor = cursor.max(s + l);
        if cursor >= end {
            return true;
        }
    }
    cursor >= end
}

/// The first free, `align`-aligned run of `len` bytes in `[start, end)`, or else the
/// largest aligned free run there (as `Err((offset, size))`).
fn first_fit(
    allocs: &BTreeMap<u64, (u64, i32)>,
    start: u64,
    end: u64,
    len: u64,
    align: u64,
) -> Result<u64, (u64, u64)> {
    let mut best = (0u64, 0u64);
    let mut consider = |gap_start: u64, gap_end: u64| -> Option<u64> {
        let a = gap_start.max(start).next_multiple_of(align);
        let e = gap_end.min(end);
        if a >= e {
            return None;
        }
        if len != 0 && e - a >= len {
            return Some(a);
        }
        if e - a > best.1 {
            best = (a, e - a);
        }
        None
    };
    let mut cursor = 0u64;
    for (&s, &(l, _)) in allocs.iter() {
        if s + l <= start {
            cursor = cursor.max(s + l);
            continue;
        }
        if let Some(a) = consider(cursor, s) {
            return Ok(a);
        }
        cursor = cursor.max(s + l);
        if cursor >= end {
            break;
        }
    }
    if let Some(a) = consider(cursor, DIRECT_MEMORY_SIZE) {
        return Ok(a);
    }
    Err(best)
}

#[export::nid("sceKernelGetDirectMemorySize")]
pub extern "sysv64" fn sce_kernel_get_direct_memory_size() -> u64 {
    DIRECT_MEMORY_SIZE
}

#[export::nid("sceKernelAllocateDirectMemory")]
pub unsafe extern "sysv64" fn sce_kernel_allocate_direct_memory(
    search_start: i64,
    search_end: i64,
    len: u64,
    alignment: u64,
    memory_type: i32,
    phys_out: *mut i64,
) -> i32 {
    let align = alignment.max(PAGE as u64);
    if phys_out.is_null()
        || len == 0
        || !len.is_multiple_of(PAGE as u64)
        || !align.is_power_of_two()
        || search_start < 0
        || search_end <= search_start
        || memory_type < 0
    {
        return EINVAL;
    }
    let Some(dm) = direct_memory() else {
        return ENOMEM;
    };
    let end = (search_end as u64).min(DIRECT_MEMORY_SIZE);
    let mut allocs = dm.lock();
    let Ok(at) = first_fit(&allocs, search_start as u64, end, len, align) else {
        return EAGAIN;
    };
    allocs.insert(at, (len, memory_type));
    // SAFETY: checked non-null above.
    unsafe { *phys_out = at as i64 };
    0
}

#[export::nid("sceKernelAllocateMainDirectMemory")]
pub unsafe extern "sysv64" fn sce_kernel_allocate_main_direct_memory(
    len: u64,
    alignment: u64,
    memory_type: i32,
    phys_out: *mut i64,
) -> i32 {
    // SAFETY: the same guest contract.
    unsafe {
        sce_kernel_allocate_direct_memory(
            0,
            DIRECT_MEMORY_SIZE as i64,
            len,
            alignment,
            memory_type,
            phys_out,
        )
    }
}

#[export::nid("sceKernelAvailableDirectMemorySize")]
pub unsafe extern "sysv64" fn sce_kernel_available_direct_memory_size(
    search_start: i64,
    search_end: i64,
    alignment: u64,
    phys_out: *mut i64,
    size_out: *mut u64,
) -> i32 {
    let align = alignment.max(PAGE as u64);
    if size_out.is_null()
        || !align.is_power_of_two()
        || search_start < 0
        || search_end <= search_start
    {
        return EINVAL;
    }
    let Some(dm) = direct_memory() else {
        return ENOMEM;
    };
    let end = (search_end as u64).min(DIRECT_MEMORY_SIZE);
    let (at, size) = match first_fit(&dm.lock(), search_start as u64, end, 0, align) {
        Ok(a) => (a, 0),
        Err(best) => best,
    };
    if size == 0 {
        return ENOMEM;
    }
    // SAFETY: out pointers checked (the offset one is optional).
    unsafe {
        if let Some(p) = phys_out.as_mut() {
            *p = at as i64;
        }
        *size_out = size;
    }
    0
}

/// Maps `[phys, phys+len)` of direct memory, which must be allocated.
#[allow(clippy::too_many_arguments)]
unsafe fn map_direct(
    addr: *mut *mut c_void,
    len: u64,
    mtype: Option<i32>,
    prot: i32,
    flags: i32,
    phys: i64,
    alignment: u64,
    name: *const c_char,
) -> i32 {
    let align = alignment.max(PAGE as u64);
    if addr.is_null()
        || len == 0
        || !len.is_multiple_of(PAGE as u64)
        || phys < 0
        || !(phys as u64).is_multiple_of(PAGE as u64)
        || !align.is_power_of_two()
    {
        return EINVAL;
    }
    let Some(dm) = direct_memory() else {
        return ENOMEM;
    };
    let phys = phys as u64;
    let allocs = dm.lock();
    if !covered(&allocs, phys, phys + len) {
        return EACCES;
    }
    let alloc_type = allocs
        .range(..=phys)
        .next_back()
        .map(|(_, &(_, t))| t)
        .unwrap_or(0);
    // SAFETY: `addr` is non-null (checked) and holds the guest's hint.
    let hint = unsafe { *addr } as usize;
    let fixed = flags & MAP_FIXED != 0;
    if fixed && !(hint as u64).is_multiple_of(align) {
        return EINVAL;
    }
    let mut region = Region::new(
        len as usize,
        Kind::Direct { phys },
        prot,
        mtype.unwrap_or(alloc_type),
    );
    // SAFETY: per this function's contract.
    region.name = unsafe { vm::region_name(name) };
    let r = vm::lock().map(
        hint,
        len as usize,
        align as usize,
        fixed,
        flags & MAP_NO_OVERWRITE != 0,
        region,
        Backing::Shared {
            fd: dm.fd,
            offset: phys,
        },
    );
    drop(allocs);
    match r {
        Ok(a) => {
            // SAFETY: checked non-null.
            unsafe { *addr = a as *mut c_void };
            0
        }
        Err(e) => e,
    }
}

#[export::nid("sceKernelMapDirectMemory")]
pub unsafe extern "sysv64" fn sce_kernel_map_direct_memory(
    addr: *mut *mut c_void,
    len: u64,
    prot: i32,
    flags: i32,
    phys_start: i64,
    alignment: u64,
) -> i32 {
    // SAFETY: guest pointers, checked inside.
    unsafe {
        map_direct(
            addr,
            len,
            None,
            prot,
            flags,
            phys_start,
            alignment,
            std::ptr::null(),
        )
    }
}

#[export::nid("sceKernelMapNamedDirectMemory")]
pub unsafe extern "sysv64" fn sce_kernel_map_named_direct_memory(
    addr: *mut *mut c_void,
    len: u64,
    prot: i32,
    flags: i32,
    phys_start: i64,
    alignment: u64,
    name: *const c_char,
) -> i32 {
    // SAFETY: guest pointers, checked inside.
    unsafe { map_direct(addr, len, None, prot, flags, phys_start, alignment, name) }
}

#[export::nid("sceKernelMapDirectMemory2")]
pub unsafe extern "sysv64" fn sce_kernel_map_direct_memory2(
    addr: *mut *mut c_void,
    len: u64,
    memory_type: i32,
    prot: i32,
    flags: i32,
    phys_start: i64,
    alignment: u64,
) -> i32 {
    if memory_type < 0 {
        return EINVAL;
    }
    // SAFETY: guest pointers, checked inside.
    unsafe {
        map_direct(
            addr,
            len,
            Some(memory_type),
            prot,
            flags,
            phys_start,
            alignment,
            std::ptr::null(),
        )
    }
}

/// Releases `[start, start+len)`: with `checked`, all of it must be allocated (else
/// ENOENT and nothing changes); without, the allocated parts are released.
fn release(start: i64, len: u64, checked: bool) -> i32 {
    if start < 0
        || len == 0
        || !(start as u64).is_multiple_of(PAGE as u64)
        || !len.is_multiple_of(PAGE as u64)
    {
        return EINVAL;
    }
    let Some(dm) = direct_memory() else {
        return EINVAL;
    };
    let (start, end) = (start as u64, start as u64 + len);
    let mut allocs = dm.lock();
    if checked && !covered(&allocs, start, end) {
        return ENOENT;
    }
    let first = allocs
        .range(..=start)
        .next_back()
        .map(|(&s, _)| s)
        .unwrap_or(start);
    let hit: Vec<(u64, u64, i32)> = allocs
        .range(first..end)
        .filter(|(&s, &(l, _))| s + l > start)
        .map(|(&s, &(l, t))| (s, l, t))
        .collect();
    // Keep the parts of each allocation outside the released range.
    for (s, l, t) in hit {
        allocs.remove(&s);
        if s < start {
            allocs.insert(s, (start - s, t));
        }
        if s + l > end {
            allocs.insert(end, (s + l - end, t));
        }
    }
    // Unmap every view of the range, then give its pages back to the host.
    let mut vm = vm::lock();
    for (a, l) in vm.direct_views(start, end) {
        vm.unmap(a, l);
    }
    drop(vm);
    // SAFETY: punching a hole in our own memfd.
    unsafe {
        host_libc::fallocate(
            dm.fd,
            host_libc::FALLOC_FL_PUNCH_HOLE | host_libc::FALLOC_FL_KEEP_SIZE,
            start as i64,
            len as i64,
        )
    };
    0
}

#[export::nid("sceKernelReleaseDirectMemory")]
pub extern "sysv64" fn sce_kernel_release_direct_memory(start: i64, len: u64) -> i32 {
    release(start, len, false)
}

#[export::nid("sceKernelCheckedReleaseDirectMemory")]
pub extern "sysv64" fn sce_kernel_checked_release_direct_memory(start: i64, len: u64) -> i32 {
    release(start, len, true)
}

/// `SceKernelDirectMemoryQueryInfo`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct DirectMemoryQueryInfo {
    /// First offset of the allocation.
    pub start: i64,
    /// One past its last offset.
    pub end: i64,
    /// Its memory type.
    pub memory_type: i32,
}
const _: () = assert!(std::mem::size_of::<DirectMemoryQueryInfo>() == 24);

/// `SCE_KERNEL_DMQ_FIND_NEXT`.
const DMQ_FIND_NEXT: i32 = 1;

#[export::nid("sceKernelDirectMemoryQuery")]
pub unsafe extern "sysv64" fn sce_kernel_direct_memory_query(
    offset: i64,
    flags: i32,
    info: *mut DirectMemoryQueryInfo,
    info_size: u64,
) -> i32 {
    if info.is_null()
        || offset < 0
        || info_size as usize != std::mem::size_of::<DirectMemoryQueryInfo>()
    {
        return EINVAL;
    }
    let Some(dm) = direct_memory() else {
        return EACCES;
    };
    let off = offset as u64;
    let allocs = dm.lock();
    let containing = allocs
        .range(..=off)
        .next_back()
        .filter(|(&s, &(l, _))| off < s + l);
    let found = match containing {
        Some(f) => Some(f),
        None if flags & DMQ_FIND_NEXT != 0 => allocs.range(off..).next(),
        None => None,
    };
    let Some((&s, &(l, t))) = found else {
        return EACCES;
    };
    // SAFETY: checked non-null and of the right size.
    unsafe {
        *info = DirectMemoryQueryInfo {
            start: s as i64,
            end: (s + l) as i64,
            memory_type: t,
        }
    };
    0
}
