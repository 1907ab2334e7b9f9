//! Direct memory: the console's physical memory, handed out by offset and mapped by the
//! title wherever it asks.
//!
//! Backed by one memfd as large as the direct memory: an allocation is a range of
//! offsets in it, and a mapping is an `mmap` of that range, so one physical offset can
//! be mapped at two addresses and both see the same bytes. Releasing a range unmaps
//! its mappings and punches a hole in the memfd, so its pages go back to the host.

use super::errors::{EAGAIN, EINVAL, ENOMEM};
use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::{Mutex, OnceLock};

/// What `sceKernelGetDirectMemorySize` reports: the PS4 base console's 5 GiB for
/// applications. (PS5 titles ask for their budget through other calls.)
pub const DIRECT_MEMORY_SIZE: u64 = 5 << 30;
/// Allocation and mapping granularity.
pub const PAGE: u64 = 16 << 10;

/// CPU read/write and GPU read/write protection bits of the console.
const PROT_CPU_READ: i32 = 0x1;
const PROT_CPU_WRITE: i32 = 0x2;
const PROT_GPU_READ: i32 = 0x10;
const PROT_GPU_WRITE: i32 = 0x20;
/// `SCE_KERNEL_MAP_FIXED`.
const MAP_FIXED: i32 = 0x10;

struct DirectMemory {
    fd: i32,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Allocated ranges: start → (length, memory type).
    allocations: BTreeMap<u64, (u64, i32)>,
    /// Live mappings: address → (length, physical start).
    mappings: BTreeMap<usize, (usize, u64)>,
}

fn direct_memory() -> Option<&'static DirectMemory> {
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
            state: Mutex::new(State::default()),
        })
    })
    .as_ref()
}

fn host_prot(prot: i32) -> i32 {
    let mut p = host_libc::PROT_NONE;
    if prot & (PROT_CPU_READ | PROT_GPU_READ) != 0 {
        p |= host_libc::PROT_READ;
    }
    if prot & (PROT_CPU_WRITE | PROT_GPU_WRITE) != 0 {
        p |= host_libc::PROT_READ | host_libc::PROT_WRITE;
    }
    p
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
    let align = alignment.max(PAGE);
    if phys_out.is_null()
        || len == 0
        || !len.is_multiple_of(PAGE)
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
    let mut st = dm.state.lock().unwrap_or_else(|e| e.into_inner());
    // First fit: walk the gaps between allocations in offset order.
    let mut cursor = (search_start as u64).next_multiple_of(align);
    for (&start, &(l, _)) in st.allocations.iter() {
        if start + l <= cursor {
            continue;
        }
        if cursor + len <= start {
            break;
        }
        cursor = (start + l).next_multiple_of(align);
    }
    if cursor.checked_add(len).is_none_or(|e| e > end) {
        return EAGAIN;
    }
    st.allocations.insert(cursor, (len, memory_type));
    // SAFETY: checked non-null above.
    unsafe { *phys_out = cursor as i64 };
    0
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
    if addr.is_null()
        || len == 0
        || !len.is_multiple_of(PAGE)
        || phys_start < 0
        || !(phys_start as u64).is_multiple_of(PAGE)
    {
        return EINVAL;
    }
    let align = alignment.max(PAGE);
    if !align.is_power_of_two() {
        return EINVAL;
    }
    let Some(dm) = direct_memory() else {
        return ENOMEM;
    };
    let phys = phys_start as u64;
    let mut st = dm.state.lock().unwrap_or_else(|e| e.into_inner());
    // The range must lie inside one allocation.
    let inside = st
        .allocations
        .range(..=phys)
        .next_back()
        .is_some_and(|(&s, &(l, _))| phys + len <= s + l);
    if !inside {
        return EINVAL;
    }
    // SAFETY: `addr` is non-null (checked) and points at the guest's hint slot.
    let hint = unsafe { *addr };
    let fixed = flags & MAP_FIXED != 0;
    let len = len as usize;
    let mapped = if fixed {
        if !(hint as u64).is_multiple_of(align) {
            return EINVAL;
        }
        // SAFETY: a fixed mapping where the guest asked; it owns that range.
        unsafe {
            host_libc::mmap(
                hint,
                len,
                host_prot(prot),
                host_libc::MAP_SHARED | host_libc::MAP_FIXED,
                dm.fd,
                phys as i64,
            )
        }
    } else {
        // Reserve len + align, then map the memfd at the aligned address inside.
        let span = len + align as usize;
        // SAFETY: an anonymous reservation at a host-chosen address.
        let base = unsafe {
            host_libc::mmap(
                std::ptr::null_mut(),
                span,
                host_libc::PROT_NONE,
                host_libc::MAP_PRIVATE | host_libc::MAP_ANONYMOUS | host_libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == host_libc::MAP_FAILED {
            return ENOMEM;
        }
        let aligned = (base as usize).next_multiple_of(align as usize);
        // SAFETY: `aligned..aligned+len` lies in the reservation made just above; the
        // trimmed edges are parts of it too.
        unsafe {
            let head = aligned - base as usize;
            if head > 0 {
                host_libc::munmap(base, head);
            }
            let tail = span - head - len;
            if tail > 0 {
                host_libc::munmap((aligned + len) as *mut c_void, tail);
            }
            host_libc::mmap(
                aligned as *mut c_void,
                len,
                host_prot(prot),
                host_libc::MAP_SHARED | host_libc::MAP_FIXED,
                dm.fd,
                phys as i64,
            )
        }
    };
    if mapped == host_libc::MAP_FAILED {
        return ENOMEM;
    }
    st.mappings.insert(mapped as usize, (len, phys));
    // SAFETY: checked non-null.
    unsafe { *addr = mapped };
    0
}

#[export::nid("sceKernelReleaseDirectMemory")]
pub extern "sysv64" fn sce_kernel_release_direct_memory(start: i64, len: u64) -> i32 {
    if start < 0 || len == 0 {
        return EINVAL;
    }
    let Some(dm) = direct_memory() else {
        return EINVAL;
    };
    let (start, end) = (start as u64, start as u64 + len);
    let mut st = dm.state.lock().unwrap_or_else(|e| e.into_inner());
    let released: Vec<u64> = st
        .allocations
        .iter()
        .filter(|(&s, &(l, _))| s >= start && s + l <= end)
        .map(|(&s, _)| s)
        .collect();
    if released.is_empty() {
        return EINVAL;
    }
    for s in released {
        st.allocations.remove(&s);
    }
    // Unmap what maps the range, and give its pages back to the host.
    let dead: Vec<usize> = st
        .mappings
        .iter()
        .filter(|(_, &(l, p))| p < end && p + l as u64 > start)
        .map(|(&a, _)| a)
        .collect();
    for a in dead {
        if let Some((l, _)) = st.mappings.remove(&a) {
            // SAFETY: this mapping was made by sceKernelMapDirectMemory and is live.
            unsafe { host_libc::munmap(a as *mut c_void, l) };
        }
    }
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
