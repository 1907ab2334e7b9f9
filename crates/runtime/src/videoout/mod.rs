//! libSceVideoOut: the display. Buffers are registered, flips are queued (16 deep, as
//! on the console) and presented one per vblank by a presenter thread, which updates
//! the flip status and posts flip events to the event queues titles registered.
//!
//! Presentation itself is headless for now: each presented frame can be written as an
//! opaque PNG (`NATIVE5_DUMP_FRAMES=DIR`), and the process ends after
//! `NATIVE5_FRAMES=N` flips — what `native5 run --headless --frames N --dump-frames DIR`
//! sets. A window comes with the Vulkan presenter.

pub mod frame;

use crate::libkernel::equeue::{self, EqueueHandle, KernelEvent};
use std::collections::VecDeque;
use std::ffi::c_void;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// libSceVideoOut error codes.
#[allow(missing_docs)]
pub mod error {
    pub const INVALID_VALUE: i32 = 0x8029_0001_u32 as i32;
    pub const INVALID_ADDRESS: i32 = 0x8029_0002_u32 as i32;
    pub const INVALID_PIXEL_FORMAT: i32 = 0x8029_0003_u32 as i32;
    pub const INVALID_PITCH: i32 = 0x8029_0004_u32 as i32;
    pub const INVALID_RESOLUTION: i32 = 0x8029_0005_u32 as i32;
    pub const INVALID_FLIP_MODE: i32 = 0x8029_0006_u32 as i32;
    pub const INVALID_TILING_MODE: i32 = 0x8029_0007_u32 as i32;
    pub const RESOURCE_BUSY: i32 = 0x8029_0009_u32 as i32;
    pub const INVALID_INDEX: i32 = 0x8029_000A_u32 as i32;
    pub const INVALID_HANDLE: i32 = 0x8029_000B_u32 as i32;
    pub const INVALID_EVENT_QUEUE: i32 = 0x8029_000C_u32 as i32;
    pub const SLOT_OCCUPIED: i32 = 0x8029_0010_u32 as i32;
    pub const FLIP_QUEUE_FULL: i32 = 0x8029_0012_u32 as i32;
}

/// Buffer slots per port, and the depth of the flip queue.
const SLOTS: usize = 16;
const FLIP_QUEUE_DEPTH: usize = 16;
/// The only port handle (the main bus).
const HANDLE: i32 = 1;
/// 59.94 Hz.
const VBLANK: Duration = Duration::from_nanos(16_683_350);
/// `EVFILT_VIDEO_OUT` and `SCE_VIDEO_OUT_EVENT_FLIP`.
const FILTER_VIDEO_OUT: i16 = -13;
const EVENT_FLIP: u64 = 0;

/// The guest's buffer attribute block (`SceVideoOutBufferAttribute`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct BufferAttribute {
    /// `SCE_VIDEO_OUT_PIXEL_FORMAT_*`.
    pub pixel_format: u32,
    /// `SCE_VIDEO_OUT_TILING_MODE_*`: 0 tiled, 1 linear.
    pub tiling_mode: u32,
    /// Aspect ratio code (0 = 16:9).
    pub aspect_ratio: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Row pitch in pixels.
    pub pitch_in_pixel: u32,
    /// Option bits.
    pub option: u32,
    /// Reserved.
    pub reserved0: u32,
    /// Reserved.
    pub reserved1: u64,
}
const _: () = assert!(std::mem::size_of::<BufferAttribute>() == 0x28);

/// The guest's flip status block (`SceVideoOutFlipStatus`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct FlipStatus {
    /// Flips presented so far.
    pub count: u64,
    /// Process time of the last flip, in microseconds.
    pub process_time: u64,
    /// Time stamp counter of the last flip.
    pub tsc: u64,
    /// The argument of the last presented flip.
    pub flip_arg: i64,
    /// Time stamp counter of the last submission.
    pub submit_tsc: u64,
    /// Reserved.
    pub reserved0: u64,
    /// Flips waiting on the GPU.
    pub gc_queue_num: i32,
    /// Flips queued and not yet presented.
    pub flip_pending_num: i32,
    /// Index of the buffer on screen (-1: blank).
    pub current_buffer: i32,
    /// Reserved.
    pub reserved1: u32,
}
const _: () = assert!(std::mem::size_of::<FlipStatus>() == 0x40);
const _: () = assert!(std::mem::offset_of!(FlipStatus, flip_arg) == 0x18);
const _: () = assert!(std::mem::offset_of!(FlipStatus, current_buffer) == 0x38);

#[derive(Clone, Copy)]
struct Buffer {
    address: usize,
    attr: BufferAttribute,
    set: i32,
}

struct Flip {
    index: i32,
    arg: i64,
}

struct PortState {
    open: bool,
    buffers: [Option<Buffer>; SLOTS],
    next_set: i32,
    queue: VecDeque<Flip>,
    status: FlipStatus,
    events: Vec<(usize, usize)>,
    flip_rate: u32,
}

struct Port {
    state: Mutex<PortState>,
    wake: Condvar,
}

/// Headless settings from the environment (set by `native5 run`).
struct Headless {
    dump_dir: Option<PathBuf>,
    frames: Option<u64>,
}

fn headless() -> &'static Headless {
    static H: OnceLock<Headless> = OnceLock::new();
    H.get_or_init(|| Headless {
        dump_dir: std::env::var_os("NATIVE5_DUMP_FRAMES").map(PathBuf::from),
        frames: std::env::var("NATIVE5_FRAMES")
            .ok()
            .and_then(|v| v.parse().ok()),
    })
}

fn port() -> &'static Arc<Port> {
    static P: OnceLock<Arc<Port>> = OnceLock::new();
    P.get_or_init(|| {
        let p = Arc::new(Port {
            state: Mutex::new(PortState {
                open: false,
                buffers: [None; SLOTS],
                next_set: 0,
                queue: VecDeque::new(),
                status: FlipStatus {
                    current_buffer: -1,
                    ..FlipStatus::default()
                },
                events: Vec::new(),
                flip_rate: 0,
            }),
            wake: Condvar::new(),
        });
        let worker = p.clone();
        std::thread::Builder::new()
            .name("native5-vblank".into())
            .spawn(move || presenter(&worker))
            .expect("spawning the presenter thread");
        p
    })
}

fn lock(p: &Port) -> std::sync::MutexGuard<'_, PortState> {
    p.state.lock().unwrap_or_else(|e| e.into_inner())
}

fn process_time_us() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_micros() as u64
}

/// Presents one queued flip per vblank (per 2 or 3 at flip rates 30 and 20 Hz).
fn presenter(p: &Port) {
    let start = Instant::now();
    let mut vblank: u64 = 0;
    loop {
        vblank += 1;
        let at = start + VBLANK * vblank as u32;
        if let Some(d) = at.checked_duration_since(Instant::now()) {
            std::thread::sleep(d);
        }
        let mut st = lock(p);
        let every = st.flip_rate as u64 + 1;
        if !vblank.is_multiple_of(every) {
            continue;
        }
        let Some(flip) = st.queue.pop_front() else {
            // Park until a flip is submitted rather than ticking forever for nothing.
            drop(p.wake.wait(st).unwrap_or_else(|e| e.into_inner()));
            continue;
        };
        let buffer = usize::try_from(flip.index).ok().and_then(|i| st.buffers[i]);
        st.status.count += 1;
        st.status.flip_arg = flip.arg;
        st.status.current_buffer = flip.index;
        st.status.process_time = process_time_us();
        st.status.flip_pending_num = st.queue.len() as i32;
        let count = st.status.count;
        let events = st.events.clone();
        drop(st);
        if let Some(b) = buffer {
            present(&b, count);
        }
        for (q, udata) in events {
            // SAFETY: queues are never freed (see sceKernelDeleteEqueue).
            if let Some(q) = unsafe { equeue::from_handle(q as EqueueHandle) } {
                q.post(KernelEvent {
                    ident: EVENT_FLIP,
                    filter: FILTER_VIDEO_OUT,
                    flags: 0,
                    fflags: 0,
                    data: flip.arg,
                    udata: udata as *mut c_void,
                });
            }
        }
        if headless().frames.is_some_and(|n| count >= n) {
            crate::guest_io::flush_all();
            // SAFETY: ends the process after the requested number of frames.
            unsafe { host_libc::_exit(0) };
        }
    }
}

fn present(b: &Buffer, count: u64) {
    let Some(dir) = &headless().dump_dir else {
        return;
    };
    let (w, h, pitch) = (
        b.attr.width as usize,
        b.attr.height as usize,
        b.attr.pitch_in_pixel as usize,
    );
    // SAFETY: the buffer was registered by the title as `pitch * height` pixels of 4
    // bytes; the title keeps it mapped while it is registered.
    let bytes = unsafe { std::slice::from_raw_parts(b.address as *const u8, pitch * h * 4) };
    let rgb = frame::to_rgb(bytes, b.attr.pixel_format, w, h, pitch);
    let path = dir.join(format!("frame-{count:05}.png"));
    if let Err(e) = std::fs::create_dir_all(dir)
        .and_then(|()| frame::write_png(&path, &rgb, w as u32, h as u32))
    {
        eprintln!("native5: cannot write {}: {e}", path.display());
    }
}

#[export::nid("sceVideoOutOpen")]
pub extern "sysv64" fn sce_video_out_open(
    _user: i32,
    bus_type: i32,
    index: i32,
    _param: *const c_void,
) -> i32 {
    if bus_type != 0 || index != 0 {
        return error::INVALID_VALUE;
    }
    let mut st = lock(port());
    if st.open {
        return error::RESOURCE_BUSY;
    }
    st.open = true;
    HANDLE
}

#[export::nid("sceVideoOutClose")]
pub extern "sysv64" fn sce_video_out_close(handle: i32) -> i32 {
    let mut st = lock(port());
    if handle != HANDLE || !st.open {
        return error::INVALID_HANDLE;
    }
    st.open = false;
    st.buffers = [None; SLOTS];
    st.queue.clear();
    0
}

#[export::nid("sceVideoOutSetBufferAttribute")]
pub unsafe extern "sysv64" fn sce_video_out_set_buffer_attribute(
    attr: *mut BufferAttribute,
    pixel_format: u32,
    tiling_mode: u32,
    aspect_ratio: u32,
    width: u32,
    height: u32,
    pitch_in_pixel: u32,
) {
    // SAFETY: a non-null attribute block is writable (the guest's contract).
    if let Some(a) = unsafe { attr.as_mut() } {
        *a = BufferAttribute {
            pixel_format,
            tiling_mode,
            aspect_ratio,
            width,
            height,
            pitch_in_pixel,
            ..BufferAttribute::default()
        };
    }
}

#[export::nid("sceVideoOutRegisterBuffers")]
pub unsafe extern "sysv64" fn sce_video_out_register_buffers(
    handle: i32,
    start: i32,
    addresses: *const *mut c_void,
    count: i32,
    attr: *const BufferAttribute,
) -> i32 {
    // SAFETY: a non-null attribute block is readable.
    let Some(attr) = (unsafe { attr.as_ref() }).copied() else {
        return error::INVALID_ADDRESS;
    };
    if addresses.is_null() {
        return error::INVALID_ADDRESS;
    }
    if start < 0 || count <= 0 || (start + count) as usize > SLOTS {
        return error::INVALID_VALUE;
    }
    if frame::bytes_per_pixel(attr.pixel_format).is_none() {
        return error::INVALID_PIXEL_FORMAT;
    }
    if attr.tiling_mode != frame::TILING_LINEAR {
        // The GFX10 tiled layouts are not detiled yet; say so rather than show garbage.
        eprintln!("native5: sceVideoOutRegisterBuffers: tiling mode {} is not supported yet (linear only)", attr.tiling_mode);
        return error::INVALID_TILING_MODE;
    }
    if attr.width == 0 || attr.height == 0 {
        return error::INVALID_RESOLUTION;
    }
    if attr.pitch_in_pixel < attr.width {
        return error::INVALID_PITCH;
    }
    let mut st = lock(port());
    if handle != HANDLE || !st.open {
        return error::INVALID_HANDLE;
    }
    let range = start as usize..(start + count) as usize;
    if st.buffers[range.clone()].iter().any(Option::is_some) {
        return error::SLOT_OCCUPIED;
    }
    // SAFETY: the guest passed `count` addresses.
    let addrs = unsafe { std::slice::from_raw_parts(addresses, count as usize) };
    if addrs.iter().any(|a| a.is_null()) {
        return error::INVALID_ADDRESS;
    }
    let set = st.next_set;
    st.next_set += 1;
    for (slot, &a) in range.zip(addrs) {
        st.buffers[slot] = Some(Buffer {
            address: a as usize,
            attr,
            set,
        });
    }
    set
}

#[export::nid("sceVideoOutUnregisterBuffers")]
pub extern "sysv64" fn sce_video_out_unregister_buffers(handle: i32, set: i32) -> i32 {
    let mut st = lock(port());
    if handle != HANDLE || !st.open {
        return error::INVALID_HANDLE;
    }
    if !st.buffers.iter().flatten().any(|b| b.set == set) {
        return error::INVALID_INDEX;
    }
    for b in st.buffers.iter_mut() {
        if b.is_some_and(|b| b.set == set) {
            *b = None;
        }
    }
    0
}

#[export::nid("sceVideoOutSubmitFlip")]
pub extern "sysv64" fn sce_video_out_submit_flip(
    handle: i32,
    index: i32,
    mode: i32,
    arg: i64,
) -> i32 {
    let p = port();
    let mut st = lock(p);
    if handle != HANDLE || !st.open {
        return error::INVALID_HANDLE;
    }
    if !(1..=6).contains(&mode) {
        return error::INVALID_FLIP_MODE;
    }
    // Index -1 flips to a blank screen.
    if index < -1 || index >= SLOTS as i32 || (index >= 0 && st.buffers[index as usize].is_none()) {
        return error::INVALID_INDEX;
    }
    if st.queue.len() >= FLIP_QUEUE_DEPTH {
        return error::FLIP_QUEUE_FULL;
    }
    st.queue.push_back(Flip { index, arg });
    st.status.flip_pending_num = st.queue.len() as i32;
    drop(st);
    p.wake.notify_all();
    0
}

#[export::nid("sceVideoOutGetFlipStatus")]
pub unsafe extern "sysv64" fn sce_video_out_get_flip_status(
    handle: i32,
    status: *mut FlipStatus,
) -> i32 {
    if status.is_null() {
        return error::INVALID_ADDRESS;
    }
    let st = lock(port());
    if handle != HANDLE || !st.open {
        return error::INVALID_HANDLE;
    }
    // SAFETY: checked non-null; the block is writable (the guest's contract).
    unsafe { *status = st.status };
    0
}

#[export::nid("sceVideoOutIsFlipPending")]
pub extern "sysv64" fn sce_video_out_is_flip_pending(handle: i32) -> i32 {
    let st = lock(port());
    if handle != HANDLE || !st.open {
        return error::INVALID_HANDLE;
    }
    st.queue.len() as i32
}

#[export::nid("sceVideoOutSetFlipRate")]
pub extern "sysv64" fn sce_video_out_set_flip_rate(handle: i32, rate: i32) -> i32 {
    let mut st = lock(port());
    if handle != HANDLE || !st.open {
        return error::INVALID_HANDLE;
    }
    if !(0..=2).contains(&rate) {
        return error::INVALID_VALUE;
    }
    st.flip_rate = rate as u32;
    0
}

#[export::nid("sceVideoOutAddFlipEvent")]
pub extern "sysv64" fn sce_video_out_add_flip_event(
    queue: EqueueHandle,
    handle: i32,
    udata: *mut c_void,
) -> i32 {
    if queue.is_null() {
        return error::INVALID_EVENT_QUEUE;
    }
    let mut st = lock(port());
    if handle != HANDLE || !st.open {
        return error::INVALID_HANDLE;
    }
    st.events.push((queue as usize, udata as usize));
    0
}

/// Vblank events are not posted yet (the presenter ticks only while flips are queued).
#[export::unimplemented("sceVideoOutAddVblankEvent")]
pub extern "sysv64" fn sce_video_out_add_vblank_event(
    _queue: EqueueHandle,
    _handle: i32,
    _udata: *mut c_void,
) -> i32 {
    crate::libkernel::errors::ENOSYS
}
