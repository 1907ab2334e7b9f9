//! APR and AMM command buffers: libSceAmpr's builder functions, which write commands into
//! a guest buffer, and libkernel's/libSceAmpr's submit and wait calls, which run them.
//!
//! # Encoding
//! The builder and the executor are both ours, so the bytes are our own format: each
//! command is a run of little-endian u64 words; word 0 holds the opcode (bits 0–7) and
//! the command's length in words (bits 8–23); the payload words follow.
//!
//! # Execution
//! APR and AMM each have a [`Queue`] with its own worker thread. A submitted buffer runs
//! on the submitting thread until a `WaitOnAddress`/`WaitOnCounter` that is not yet
//! satisfied; from there the rest of it is copied and handed to the worker, and so is
//! every buffer submitted to that queue after it, so order is kept within a queue while a
//! submitter that satisfies the wait later does not hang. A wait in one queue never holds
//! up the other (AMM writes can release APR waits). Submission ids are per queue and
//! complete in order; the wait calls block until their id completed. A buffer whose
//! encoding is bad is refused before any of it runs; a command that fails on a worker
//! aborts the process with a message (there is nobody to return an error to).

use crate::libkernel::equeue::{self, EqueueHandle, KernelEvent, EVFILT_AMPR};
use crate::libkernel::errors::{EBUSY, EINVAL, EPERM, ESRCH};
use crate::libkernel::vm::{self, Backing, Kind, Region};
use std::collections::VecDeque;
use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

/// `SCE_KERNEL_ERROR_ENOSPC`: the buffer has no room for the command.
pub const ENOSPC: i32 = 0x8002_001C_u32 as i32;

const OP_NOP: u64 = 0;
const OP_WRITE_ADDRESS: u64 = 1;
const OP_WRITE_COUNTER: u64 = 2;
const OP_WAIT_ADDRESS: u64 = 3;
const OP_WAIT_COUNTER: u64 = 4;
const OP_WRITE_EQUEUE: u64 = 5;
const OP_MARKER: u64 = 6;
const OP_AMM_MAP_DIRECT: u64 = 7;
const OP_AMM_UNMAP: u64 = 8;
const OP_AMM_PROTECT: u64 = 9;

/// Number of APR counters.
const COUNTERS: usize = 128;

/// `sce::Ampr::CommandBuffer` as the guest reserves it (0x18 bytes).
#[repr(C)]
pub struct CommandBuffer {
    /// Start of the guest's command memory.
    pub base: *mut u8,
    /// Its size in bytes.
    pub size: u32,
    /// Bytes written so far.
    pub offset: u32,
    /// Commands written so far.
    pub commands: u32,
    /// 0 generic, 1 APR, 2 AMM.
    pub kind: u16,
    /// Reserved.
    pub flags: u16,
}
const _: () = assert!(std::mem::size_of::<CommandBuffer>() == 0x18);

/// Appends one command; `full` is the error when it does not fit.
fn append(buf: *mut CommandBuffer, op: u64, payload: &[u64], full: i32) -> i32 {
    // SAFETY: a non-null buffer object is the guest's, constructed by us.
    let Some(b) = (unsafe { buf.as_mut() }) else {
        return EINVAL;
    };
    let words = payload.len() + 1;
    let bytes = words * 8;
    if b.base.is_null() {
        return full;
    }
    if (b.size as usize).saturating_sub(b.offset as usize) < bytes {
        return full;
    }
    let at = b.offset as usize;
    let header = op | ((words as u64) << 8);
    // SAFETY: `base..base+size` is the guest's command memory (SetBuffer); the bound was
    // checked just above. Unaligned writes: the guest may pass any address.
    unsafe {
        let p = b.base.add(at) as *mut u64;
        p.write_unaligned(header);
        for (i, w) in payload.iter().enumerate() {
            p.add(1 + i).write_unaligned(*w);
        }
    }
    b.offset += bytes as u32;
    b.commands += 1;
    0
}

// ---- builder: generic command buffer ----

#[export::nid("sceAmprCommandBufferConstructor")]
pub extern "sysv64" fn command_buffer_constructor(buf: *mut CommandBuffer) -> i32 {
    construct(buf, 0)
}

fn construct(buf: *mut CommandBuffer, kind: u16) -> i32 {
    if buf.is_null() {
        return EINVAL;
    }
    // SAFETY: checked non-null; the guest reserved 0x18 bytes for the object.
    unsafe {
        buf.write(CommandBuffer {
            base: std::ptr::null_mut(),
            size: 0,
            offset: 0,
            commands: 0,
            kind,
            flags: 0,
        })
    };
    0
}

#[export::nid("sceAmprCommandBufferDestructor")]
pub extern "sysv64" fn command_buffer_destructor(buf: *mut CommandBuffer) -> i32 {
    if buf.is_null() {
        EINVAL
    } else {
        0
    }
}

#[export::nid("sceAmprAprCommandBufferConstructor")]
pub extern "sysv64" fn apr_command_buffer_constructor(buf: *mut CommandBuffer) -> i32 {
    construct(buf, 1)
}

#[export::nid("sceAmprAprCommandBufferDestructor")]
pub extern "sysv64" fn apr_command_buffer_destructor(buf: *mut CommandBuffer) -> i32 {
    command_buffer_destructor(buf)
}

#[export::nid("sceAmprAmmCommandBufferConstructor")]
pub extern "sysv64" fn amm_command_buffer_constructor(buf: *mut CommandBuffer) -> i32 {
    construct(buf, 2)
}

#[export::nid("sceAmprAmmCommandBufferDestructor")]
pub extern "sysv64" fn amm_command_buffer_destructor(buf: *mut CommandBuffer) -> i32 {
    command_buffer_destructor(buf)
}

#[export::nid("sceAmprCommandBufferSetBuffer")]
pub extern "sysv64" fn command_buffer_set_buffer(
    buf: *mut CommandBuffer,
    mem: *mut c_void,
    size: u32,
) -> i32 {
    // SAFETY: a non-null object is the guest's.
    let Some(b) = (unsafe { buf.as_mut() }) else {
        return EINVAL;
    };
    b.base = mem as *mut u8;
    b.size = if mem.is_null() { 0 } else { size };
    b.offset = 0;
    b.commands = 0;
    0
}

#[export::nid("sceAmprCommandBufferClearBuffer")]
pub extern "sysv64" fn command_buffer_clear_buffer(buf: *mut CommandBuffer) -> *mut c_void {
    // SAFETY: a non-null object is the guest's.
    let Some(b) = (unsafe { buf.as_mut() }) else {
        return std::ptr::null_mut();
    };
    let old = b.base;
    b.base = std::ptr::null_mut();
    b.size = 0;
    b.offset = 0;
    b.commands = 0;
    old as *mut c_void
}

#[export::nid("sceAmprCommandBufferReset")]
pub extern "sysv64" fn command_buffer_reset(buf: *mut CommandBuffer) -> i32 {
    // SAFETY: a non-null object is the guest's.
    let Some(b) = (unsafe { buf.as_mut() }) else {
        return EINVAL;
    };
    b.offset = 0;
    b.commands = 0;
    0
}

#[export::nid("sceAmprCommandBufferGetBufferBaseAddress")]
pub extern "sysv64" fn command_buffer_get_base(buf: *const CommandBuffer) -> *mut c_void {
    // SAFETY: a non-null object is the guest's.
    unsafe { buf.as_ref() }.map_or(std::ptr::null_mut(), |b| b.base as *mut c_void)
}

#[export::nid("sceAmprCommandBufferGetCurrentOffset")]
pub extern "sysv64" fn command_buffer_get_current_offset(buf: *const CommandBuffer) -> u32 {
    // SAFETY: as above.
    unsafe { buf.as_ref() }.map_or(0, |b| b.offset)
}

#[export::nid("sceAmprCommandBufferGetNumCommands")]
pub extern "sysv64" fn command_buffer_get_num_commands(buf: *const CommandBuffer) -> u32 {
    // SAFETY: as above.
    unsafe { buf.as_ref() }.map_or(0, |b| b.commands)
}

#[export::nid("sceAmprCommandBufferGetSize")]
pub extern "sysv64" fn command_buffer_get_size(buf: *const CommandBuffer) -> u32 {
    // SAFETY: as above.
    unsafe { buf.as_ref() }.map_or(0, |b| b.size)
}

#[export::nid("sceAmprCommandBufferGetType")]
pub extern "sysv64" fn command_buffer_get_type(buf: *const CommandBuffer) -> u32 {
    // SAFETY: as above.
    unsafe { buf.as_ref() }.map_or(0, |b| b.kind as u32)
}

/// Compare functions of the waits: 0 equal, 1 greater, 2 less, 3 not equal.
fn valid_wait(compare: u8, flush: u8) -> bool {
    compare < 4 && flush < 2
}

#[export::nid("sceAmprCommandBufferWriteAddressOnCompletion")]
pub extern "sysv64" fn command_buffer_write_address(
    buf: *mut CommandBuffer,
    addr: *mut u64,
    value: u64,
) -> i32 {
    if addr.is_null() || !(addr as usize).is_multiple_of(8) {
        return EINVAL;
    }
    append(buf, OP_WRITE_ADDRESS, &[addr as u64, value], ENOSPC)
}

#[export::nid("sceAmprCommandBufferWriteCounterOnCompletion")]
pub extern "sysv64" fn command_buffer_write_counter(
    buf: *mut CommandBuffer,
    counter: u8,
    value: u32,
) -> i32 {
    if counter as usize >= COUNTERS {
        return EINVAL;
    }
    append(
        buf,
        OP_WRITE_COUNTER,
        &[counter as u64, value as u64],
        ENOSPC,
    )
}

#[export::nid("sceAmprCommandBufferWaitOnAddress")]
pub extern "sysv64" fn command_buffer_wait_on_address(
    buf: *mut CommandBuffer,
    addr: *mut u64,
    reference: u64,
    compare: u8,
    flush: u8,
) -> i32 {
    if addr.is_null() || !(addr as usize).is_multiple_of(8) || !valid_wait(compare, flush) {
        return EINVAL;
    }
    append(
        buf,
        OP_WAIT_ADDRESS,
        &[addr as u64, reference, compare as u64],
        ENOSPC,
    )
}

#[export::nid("sceAmprCommandBufferWaitOnCounter")]
pub extern "sysv64" fn command_buffer_wait_on_counter(
    buf: *mut CommandBuffer,
    counter: u8,
    reference: u32,
    compare: u8,
    flush: u8,
) -> i32 {
    if counter as usize >= COUNTERS || !valid_wait(compare, flush) {
        return EINVAL;
    }
    append(
        buf,
        OP_WAIT_COUNTER,
        &[counter as u64, reference as u64, compare as u64],
        ENOSPC,
    )
}

#[export::nid("sceAmprCommandBufferWriteKernelEventQueueOnCompletion")]
pub extern "sysv64" fn command_buffer_write_equeue(
    buf: *mut CommandBuffer,
    eq: EqueueHandle,
    ident: i32,
    data: u64,
) -> i32 {
    if eq.is_null() {
        return EINVAL;
    }
    append(
        buf,
        OP_WRITE_EQUEUE,
        &[eq as u64, ident as i64 as u64, data],
        ENOSPC,
    )
}

/// A marker's text is kept in the buffer (tools read it); execution skips it.
unsafe fn marker(buf: *mut CommandBuffer, text: *const c_char) -> i32 {
    if text.is_null() {
        return EINVAL;
    }
    // SAFETY: a NUL-terminated guest string.
    let bytes = unsafe { std::ffi::CStr::from_ptr(text) }.to_bytes();
    let mut words = vec![0u64; bytes.len() / 8 + 1];
    for (i, &c) in bytes.iter().enumerate() {
        words[i / 8] |= (c as u64) << ((i % 8) * 8);
    }
    append(buf, OP_MARKER, &words, ENOSPC)
}

#[export::nid("sceAmprCommandBufferPushMarker")]
pub unsafe extern "sysv64" fn command_buffer_push_marker(
    buf: *mut CommandBuffer,
    text: *const c_char,
) -> i32 {
    // SAFETY: guest string, checked inside.
    unsafe { marker(buf, text) }
}

#[export::nid("sceAmprCommandBufferSetMarker")]
pub unsafe extern "sysv64" fn command_buffer_set_marker(
    buf: *mut CommandBuffer,
    text: *const c_char,
) -> i32 {
    // SAFETY: guest string, checked inside.
    unsafe { marker(buf, text) }
}

#[export::nid("sceAmprCommandBufferPopMarker")]
pub extern "sysv64" fn command_buffer_pop_marker(buf: *mut CommandBuffer) -> i32 {
    append(buf, OP_MARKER, &[0], ENOSPC)
}

#[export::nid("sceAmprCommandBufferNop")]
pub extern "sysv64" fn command_buffer_nop(buf: *mut CommandBuffer, dwords: u32) -> i32 {
    if dwords == 0 || dwords > 16 {
        return EINVAL;
    }
    // Our words are 8 bytes: round the requested dwords up.
    append(buf, OP_NOP, &vec![0; dwords.div_ceil(2) as usize], ENOSPC)
}

#[export::nid("sceAmprMeasureCommandSizeWriteAddressOnCompletion")]
pub extern "sysv64" fn measure_write_address() -> u64 {
    24
}

#[export::nid("sceAmprMeasureCommandSizeWriteCounterOnCompletion")]
pub extern "sysv64" fn measure_write_counter() -> u64 {
    24
}

#[export::nid("sceAmprMeasureCommandSizeWaitOnAddress")]
pub extern "sysv64" fn measure_wait_on_address() -> u64 {
    32
}

#[export::nid("sceAmprMeasureCommandSizeWaitOnCounter")]
pub extern "sysv64" fn measure_wait_on_counter() -> u64 {
    32
}

#[export::nid("sceAmprMeasureCommandSizeWriteKernelEventQueueOnCompletion")]
pub extern "sysv64" fn measure_write_equeue() -> u64 {
    32
}

// ---- builder: AMM ----

/// AMM ranges are whole 16 KiB pages.
fn valid_amm_range(addr: u64, size: u64) -> bool {
    let page = vm::PAGE as u64;
    addr != 0 && size != 0 && (addr | size).is_multiple_of(page) && addr.checked_add(size).is_some()
}

/// The protection bits AMM accepts (CPU and GPU read/write/execute).
fn valid_amm_prot(prot: i32) -> bool {
    prot as u32 & !0x3f7 == 0
}

fn amm_append(buf: *mut CommandBuffer, op: u64, payload: &[u64]) -> i32 {
    // SAFETY: a non-null object is the guest's.
    match unsafe { buf.as_ref() } {
        None => EINVAL,
        Some(b) if b.base.is_null() => EPERM,
        Some(_) => append(buf, op, payload, EBUSY),
    }
}

#[export::nid("sceAmprAmmCommandBufferMapDirect")]
pub extern "sysv64" fn amm_map_direct(
    buf: *mut CommandBuffer,
    addr: u64,
    phys: u64,
    size: u64,
    mtype: i32,
    prot: i32,
) -> i32 {
    if !valid_amm_range(addr, size)
        || !phys.is_multiple_of(vm::PAGE as u64)
        || !valid_amm_prot(prot)
    {
        return EINVAL;
    }
    let tp = ((mtype as u32 as u64) << 32) | prot as u32 as u64;
    amm_append(buf, OP_AMM_MAP_DIRECT, &[addr, phys, size, tp])
}

#[export::nid("sceAmprAmmCommandBufferUnmap")]
pub extern "sysv64" fn amm_unmap(buf: *mut CommandBuffer, addr: u64, size: u64) -> i32 {
    if !valid_amm_range(addr, size) {
        return EINVAL;
    }
    amm_append(buf, OP_AMM_UNMAP, &[addr, size])
}

#[export::nid("sceAmprAmmCommandBufferModifyProtect")]
pub extern "sysv64" fn amm_modify_protect(
    buf: *mut CommandBuffer,
    addr: u64,
    size: u64,
    prot: i32,
    mask: i32,
) -> i32 {
    if !valid_amm_range(addr, size) || !valid_amm_prot(prot) || !valid_amm_prot(mask) {
        return EINVAL;
    }
    amm_append(
        buf,
        OP_AMM_PROTECT,
        &[addr, size, prot as u32 as u64, mask as u32 as u64],
    )
}

#[export::nid("sceAmprAmmMeasureAmmCommandSizeMapDirect")]
pub extern "sysv64" fn amm_measure_map_direct(
    addr: u64,
    phys: u64,
    size: u64,
    _mtype: i32,
    prot: i32,
) -> i64 {
    if !valid_amm_range(addr, size)
        || !phys.is_multiple_of(vm::PAGE as u64)
        || !valid_amm_prot(prot)
    {
        return EINVAL as i64;
    }
    40
}

#[export::nid("sceAmprAmmMeasureAmmCommandSizeUnmap")]
pub extern "sysv64" fn amm_measure_unmap(addr: u64, size: u64) -> i64 {
    if !valid_amm_range(addr, size) {
        return EINVAL as i64;
    }
    24
}

#[export::nid("sceAmprAmmMeasureAmmCommandSizeModifyProtect")]
pub extern "sysv64" fn amm_measure_modify_protect(
    addr: u64,
    size: u64,
    prot: i32,
    mask: i32,
) -> i64 {
    if !valid_amm_range(addr, size) || !valid_amm_prot(prot) || !valid_amm_prot(mask) {
        return EINVAL as i64;
    }
    40
}

// ---- execution ----

fn counters() -> &'static [AtomicU32; COUNTERS] {
    static C: [AtomicU32; COUNTERS] = [const { AtomicU32::new(0) }; COUNTERS];
    &C
}

/// One decoded command.
#[derive(Clone, Copy)]
enum Cmd {
    Skip,
    WriteAddress(u64, u64),
    WriteCounter(usize, u32),
    WaitAddress(u64, u64, u8),
    WaitCounter(usize, u64, u8),
    WriteEqueue(u64, u64, u64),
    MapDirect(u64, u64, u64, i32, i32),
    Unmap(u64, u64),
    Protect(u64, u64, i32, i32),
}

/// Splits `words` into commands, checking every header; `Err` names the bad word.
fn decode(words: &[u64]) -> Result<Vec<(usize, Cmd)>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let h = words[i];
        let op = h & 0xff;
        let len = ((h >> 8) & 0xffff) as usize;
        if len == 0 || i + len > words.len() || h >> 24 != 0 {
            return Err(format!("bad command header {h:#x} at byte {}", i * 8));
        }
        let p = &words[i + 1..i + len];
        let need = |n: usize| -> Result<(), String> {
            if p.len() < n {
                Err(format!("command {op} at byte {} is too short", i * 8))
            } else {
                Ok(())
            }
        };
        let cmd = match op {
            OP_NOP | OP_MARKER => Cmd::Skip,
            OP_WRITE_ADDRESS => {
                need(2)?;
                Cmd::WriteAddress(p[0], p[1])
            }
            OP_WRITE_COUNTER => {
                need(2)?;
                Cmd::WriteCounter(p[0] as usize % COUNTERS, p[1] as u32)
            }
            OP_WAIT_ADDRESS => {
                need(3)?;
                Cmd::WaitAddress(p[0], p[1], p[2] as u8)
            }
            OP_WAIT_COUNTER => {
                need(3)?;
                Cmd::WaitCounter(p[0] as usize % COUNTERS, p[1], p[2] as u8)
            }
            OP_WRITE_EQUEUE => {
                need(3)?;
                Cmd::WriteEqueue(p[0], p[1], p[2])
            }
            OP_AMM_MAP_DIRECT => {
                need(4)?;
                Cmd::MapDirect(p[0], p[1], p[2], (p[3] >> 32) as i32, p[3] as i32)
            }
            OP_AMM_UNMAP => {
                need(2)?;
                Cmd::Unmap(p[0], p[1])
            }
            OP_AMM_PROTECT => {
                need(4)?;
                Cmd::Protect(p[0], p[1], p[2] as i32, p[3] as i32)
            }
            _ => return Err(format!("unknown opcode {op} at byte {}", i * 8)),
        };
        out.push((i, cmd));
        i += len;
    }
    Ok(out)
}

fn compare(value: u64, reference: u64, cmp: u8) -> bool {
    match cmp {
        0 => value == reference,
        1 => value > reference,
        2 => value < reference,
        _ => value != reference,
    }
}

/// Whether a wait command is satisfied now.
fn satisfied(cmd: Cmd) -> bool {
    match cmd {
        Cmd::WaitAddress(a, r, c) => {
            // SAFETY: the guest named an 8-byte aligned address it owns (checked at
            // build time); it is read atomically because another agent may write it.
            let v = unsafe { (*(a as *const AtomicU64)).load(Ordering::Acquire) };
            compare(v, r, c)
        }
        Cmd::WaitCounter(n, r, c) => compare(counters()[n].load(Ordering::Acquire) as u64, r, c),
        _ => true,
    }
}

/// Runs one non-wait command.
fn execute(cmd: Cmd) -> Result<(), String> {
    match cmd {
        Cmd::WriteAddress(a, v) => {
            // SAFETY: as in `satisfied`: an aligned guest address, written atomically.
            unsafe { (*(a as *const AtomicU64)).store(v, Ordering::Release) };
        }
        Cmd::WriteCounter(n, v) => counters()[n].store(v, Ordering::Release),
        Cmd::WriteEqueue(q, ident, data) => {
            // SAFETY: the guest's handle from sceKernelCreateEqueue; queues are never freed.
            let Some(q) = (unsafe { equeue::from_handle(q as EqueueHandle) }) else {
                return Err("WriteKernelEventQueue with a null queue".into());
            };
            q.post(KernelEvent {
                ident,
                filter: EVFILT_AMPR,
                data: data as i64,
                ..KernelEvent::default()
            });
        }
        Cmd::MapDirect(addr, phys, size, mtype, prot) => {
            let dm = crate::libkernel::dmem::direct_memory().ok_or("no direct memory")?;
            let region = Region::new(size as usize, Kind::Direct { phys }, prot, mtype);
            vm::lock()
                .map(
                    addr as usize,
                    size as usize,
                    vm::PAGE,
                    true,
                    false,
                    region,
                    Backing::Shared {
                        fd: dm.fd,
                        offset: phys,
                    },
                )
                .map_err(|e| format!("AMM MapDirect of {addr:#x} failed: {e:#x}"))?;
        }
        Cmd::Unmap(addr, size) => {
            vm::lock().unmap(addr as usize, size as usize);
        }
        Cmd::Protect(addr, size, prot, mask) => {
            let mut vm = vm::lock();
            let old = vm.find(addr as usize).map_or(0, |(_, r)| r.prot);
            let new = (old & !mask) | (prot & mask);
            let e = vm.protect(addr as usize, size as usize, new, None);
            if e != 0 {
                return Err(format!("AMM ModifyProtect of {addr:#x} failed: {e:#x}"));
            }
        }
        _ => {}
    }
    Ok(())
}

/// Work handed to a queue's worker: the rest of a buffer, copied.
struct Job {
    id: u32,
    words: Vec<u64>,
}

#[derive(Default)]
struct QueueState {
    last_id: u32,
    completed: u32,
    backlog: VecDeque<Job>,
    /// A submitter is running a buffer inline, or the worker is running a job.
    busy: bool,
    worker_started: bool,
}

/// One submission queue (APR or AMM).
pub struct Queue {
    name: &'static str,
    state: Mutex<QueueState>,
    /// Wakes the worker (new job, queue idle) and waiters (completions).
    changed: Condvar,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Submits `words`: returns the id, or an SCE error (bad encoding, or an inline
    /// command that failed).
    fn submit(&'static self, words: &[u64]) -> Result<u32, i32> {
        let cmds = match decode(words) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("native5: {} command buffer refused: {e}", self.name);
                return Err(EINVAL);
            }
        };
        let mut st = self.lock();
        st.last_id = st.last_id.wrapping_add(1);
        let id = st.last_id;
        if st.busy || !st.backlog.is_empty() {
            // Something earlier is still running or queued: keep order, go behind it.
            st.backlog.push_back(Job {
                id,
                words: words.to_vec(),
            });
            self.start_worker(&mut st);
            drop(st);
            self.changed.notify_all();
            return Ok(id);
        }
        st.busy = true;
        drop(st);
        for &(at, cmd) in &cmds {
            if !satisfied(cmd) {
                // From this wait on, the worker runs the buffer; it goes first.
                let mut st = self.lock();
                st.backlog.push_front(Job {
                    id,
                    words: words[at..].to_vec(),
                });
                st.busy = false;
                self.start_worker(&mut st);
                drop(st);
                self.changed.notify_all();
                return Ok(id);
            }
            if let Err(e) = execute(cmd) {
                eprintln!("native5: {} command failed: {e}", self.name);
                self.finish(id);
                return Err(EINVAL);
            }
        }
        self.finish(id);
        Ok(id)
    }

    fn finish(&self, id: u32) {
        let mut st = self.lock();
        st.completed = id;
        st.busy = false;
        drop(st);
        self.changed.notify_all();
    }

    fn start_worker(&'static self, st: &mut QueueState) {
        if st.worker_started {
            return;
        }
        st.worker_started = true;
        let spawned = std::thread::Builder::new()
            .name(format!("native5-{}", self.name.to_lowercase()))
            .spawn(move || self.worker());
        if let Err(e) = spawned {
            eprintln!(
                "native5: cannot start the {} worker: {e}; aborting",
                self.name
            );
            std::process::abort();
        }
    }

    fn worker(&'static self) {
        loop {
            let mut st = self.lock();
            while st.busy || st.backlog.is_empty() {
                st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
            }
            let Some(job) = st.backlog.pop_front() else {
                continue;
            };
            st.busy = true;
            drop(st);
            let cmds = match decode(&job.words) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!(
                        "native5: {} command buffer {}: {e}; aborting",
                        self.name, job.id
                    );
                    std::process::abort();
                }
            };
            for (_, cmd) in cmds {
                // Guest memory gives no wake-up: poll, backing off to 100 µs.
                let mut pause = Duration::from_micros(1);
                while !satisfied(cmd) {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_micros(100));
                }
                if let Err(e) = execute(cmd) {
                    eprintln!(
                        "native5: {} command buffer {} failed on the worker: {e}; aborting",
                        self.name, job.id
                    );
                    std::process::abort();
                }
            }
            self.finish(job.id);
        }
    }

    /// Blocks until submission `id` completed; ESRCH for an id never handed out.
    fn wait(&self, id: u32) -> i32 {
        let mut st = self.lock();
        if id == 0 || id > st.last_id {
            return ESRCH;
        }
        while st.completed < id {
            st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        0
    }
}

fn apr_queue() -> &'static Queue {
    static Q: OnceLock<Queue> = OnceLock::new();
    Q.get_or_init(|| Queue {
        name: "APR",
        state: Mutex::new(QueueState::default()),
        changed: Condvar::new(),
    })
}

fn amm_queue() -> &'static Queue {
    static Q: OnceLock<Queue> = OnceLock::new();
    Q.get_or_init(|| Queue {
        name: "AMM",
        state: Mutex::new(QueueState::default()),
        changed: Condvar::new(),
    })
}

/// The words of `bytes` bytes at `base` (a multiple of 8 bytes; `None` if not).
///
/// # Safety
/// `base..base+bytes` is readable guest memory.
unsafe fn words_of(base: *const u8, bytes: u32) -> Option<Vec<u64>> {
    if base.is_null() || !bytes.is_multiple_of(8) {
        return None;
    }
    let n = bytes as usize / 8;
    // SAFETY: per the contract; read unaligned since the guest chose the address.
    Some(
        (0..n)
            .map(|i| unsafe { (base as *const u64).add(i).read_unaligned() })
            .collect(),
    )
}

fn apr_submit(buf: *const CommandBuffer, priority: u32) -> Result<u32, i32> {
    // SAFETY: a non-null object is the guest's.
    let Some(b) = (unsafe { buf.as_ref() }) else {
        return Err(EINVAL);
    };
    if priority > 2 {
        return Err(EINVAL);
    }
    // SAFETY: the buffer's written bytes are guest memory.
    let words = unsafe { words_of(b.base, b.offset) }.ok_or(EINVAL)?;
    apr_queue().submit(&words)
}

#[export::nid("sceKernelAprSubmitCommandBuffer")]
pub extern "sysv64" fn kernel_apr_submit(buf: *const CommandBuffer, priority: u32) -> i32 {
    apr_submit(buf, priority).err().unwrap_or(0)
}

#[export::nid("sceKernelAprSubmitCommandBufferAndGetId")]
pub extern "sysv64" fn kernel_apr_submit_and_get_id(
    buf: *const CommandBuffer,
    priority: u32,
    id: *mut u32,
) -> i32 {
    if id.is_null() {
        return EINVAL;
    }
    match apr_submit(buf, priority) {
        Ok(n) => {
            // SAFETY: checked non-null.
            unsafe { *id = n };
            0
        }
        Err(e) => e,
    }
}

#[export::nid("sceKernelAprWaitCommandBuffer")]
pub extern "sysv64" fn kernel_apr_wait(id: u32) -> i32 {
    apr_queue().wait(id)
}

fn amm_submit(base: *const c_void, bytes: u32, priority: u32) -> Result<u32, i32> {
    if priority > 2 {
        return Err(EINVAL);
    }
    if base.is_null() {
        return Err(EPERM);
    }
    // SAFETY: the guest's written command bytes.
    let words = unsafe { words_of(base as *const u8, bytes) }.ok_or(EINVAL)?;
    amm_queue().submit(&words)
}

#[export::nid("sceAmprAmmSubmitCommandBuffer")]
pub extern "sysv64" fn amm_submit_command_buffer(
    base: *const c_void,
    bytes: u32,
    priority: u32,
) -> i32 {
    amm_submit(base, bytes, priority).err().unwrap_or(0)
}

/// `sceAmprAmmSubmitCommandBuffer2`'s result record.
#[repr(C)]
pub struct AmmSubmitResult {
    /// 0, or the error of the command that failed.
    pub result: i32,
    /// Byte offset of that command.
    pub error_offset: u32,
}

#[export::nid("sceAmprAmmSubmitCommandBuffer2")]
pub extern "sysv64" fn amm_submit_command_buffer2(
    base: *const c_void,
    bytes: u32,
    priority: u32,
    result: *mut AmmSubmitResult,
    id: *mut u32,
) -> i32 {
    match amm_submit(base, bytes, priority) {
        Ok(n) => {
            // SAFETY: optional out pointers, writable when non-null.
            unsafe {
                if let Some(r) = result.as_mut() {
                    *r = AmmSubmitResult {
                        result: 0,
                        error_offset: 0,
                    };
                }
                if let Some(p) = id.as_mut() {
                    *p = n;
                }
            }
            0
        }
        Err(e) => e,
    }
}

#[export::nid("sceAmprAmmWaitCommandBufferCompletion")]
pub extern "sysv64" fn amm_wait_completion(id: u32) -> i32 {
    amm_queue().wait(id)
}
