//! Time: the FreeBSD clocks, the process time, the TSC, and sleeping.
//!
//! Every FreeBSD clock id the console has is modelled on a host clock of the same
//! meaning: the `*_FAST` ones on the coarse host clocks (cheap, tick resolution, as on
//! FreeBSD), `UPTIME*` on the monotonic clock (FreeBSD's uptime is monotonic time since
//! boot), `VIRTUAL`/`PROF` on the process's user (and system) CPU time.

use super::errors::set_errno;
use super::wait::{errno, sce, GuestTimespec};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// FreeBSD `CLOCK_REALTIME`.
pub const CLOCK_REALTIME: i32 = 0;
/// FreeBSD `CLOCK_VIRTUAL`: user CPU time of the process.
pub const CLOCK_VIRTUAL: i32 = 1;
/// FreeBSD `CLOCK_PROF`: user and system CPU time of the process.
pub const CLOCK_PROF: i32 = 2;
/// FreeBSD `CLOCK_MONOTONIC`.
pub const CLOCK_MONOTONIC: i32 = 4;
/// FreeBSD `CLOCK_UPTIME`.
pub const CLOCK_UPTIME: i32 = 5;
/// FreeBSD `CLOCK_UPTIME_PRECISE`.
pub const CLOCK_UPTIME_PRECISE: i32 = 7;
/// FreeBSD `CLOCK_UPTIME_FAST`.
pub const CLOCK_UPTIME_FAST: i32 = 8;
/// FreeBSD `CLOCK_REALTIME_PRECISE`.
pub const CLOCK_REALTIME_PRECISE: i32 = 9;
/// FreeBSD `CLOCK_REALTIME_FAST`.
pub const CLOCK_REALTIME_FAST: i32 = 10;
/// FreeBSD `CLOCK_MONOTONIC_PRECISE`.
pub const CLOCK_MONOTONIC_PRECISE: i32 = 11;
/// FreeBSD `CLOCK_MONOTONIC_FAST`.
pub const CLOCK_MONOTONIC_FAST: i32 = 12;
/// FreeBSD `CLOCK_SECOND`: realtime in whole seconds.
pub const CLOCK_SECOND: i32 = 13;
/// FreeBSD `CLOCK_THREAD_CPUTIME_ID`.
pub const CLOCK_THREAD_CPUTIME_ID: i32 = 14;
/// FreeBSD `CLOCK_PROCESS_CPUTIME_ID`.
pub const CLOCK_PROCESS_CPUTIME_ID: i32 = 15;

/// How a guest clock is read on the host.
enum HostClock {
    Clock(host_libc::clockid_t),
    /// `getrusage`: user time only (true) or user + system (false).
    Rusage(bool),
    /// Realtime truncated to seconds.
    Second,
}

fn host_clock(clock: i32) -> Option<HostClock> {
    use HostClock::*;
    Some(match clock {
        CLOCK_REALTIME | CLOCK_REALTIME_PRECISE => Clock(host_libc::CLOCK_REALTIME),
        CLOCK_REALTIME_FAST => Clock(host_libc::CLOCK_REALTIME_COARSE),
        CLOCK_MONOTONIC | CLOCK_MONOTONIC_PRECISE | CLOCK_UPTIME | CLOCK_UPTIME_PRECISE => {
            Clock(host_libc::CLOCK_MONOTONIC)
        }
        CLOCK_MONOTONIC_FAST | CLOCK_UPTIME_FAST => Clock(host_libc::CLOCK_MONOTONIC_COARSE),
        CLOCK_THREAD_CPUTIME_ID => Clock(host_libc::CLOCK_THREAD_CPUTIME_ID),
        CLOCK_PROCESS_CPUTIME_ID => Clock(host_libc::CLOCK_PROCESS_CPUTIME_ID),
        CLOCK_VIRTUAL => Rusage(true),
        CLOCK_PROF => Rusage(false),
        CLOCK_SECOND => Second,
        _ => return None,
    })
}

fn read_host(id: host_libc::clockid_t) -> GuestTimespec {
    let mut ts = host_libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is writable; every id passed here exists on Linux.
    unsafe { host_libc::clock_gettime(id, &mut ts) };
    GuestTimespec {
        tv_sec: ts.tv_sec,
        tv_nsec: ts.tv_nsec,
    }
}

/// Reads a guest clock (FreeBSD ids); `None` for an id the console does not have.
pub fn guest_clock(clock: i32) -> Option<GuestTimespec> {
    Some(match host_clock(clock)? {
        HostClock::Clock(id) => read_host(id),
        HostClock::Second => GuestTimespec {
            tv_sec: read_host(host_libc::CLOCK_REALTIME).tv_sec,
            tv_nsec: 0,
        },
        HostClock::Rusage(user_only) => {
            // SAFETY: an all-zero rusage is valid; getrusage fills it.
            let mut ru: host_libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: `ru` is writable.
            unsafe { host_libc::getrusage(host_libc::RUSAGE_SELF, &mut ru) };
            let us = |t: host_libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
            let total = us(ru.ru_utime) + if user_only { 0 } else { us(ru.ru_stime) };
            GuestTimespec {
                tv_sec: total / 1_000_000,
                tv_nsec: total % 1_000_000 * 1000,
            }
        }
    })
}

/// The resolution of a guest clock.
fn guest_clock_res(clock: i32) -> Option<GuestTimespec> {
    let id = match host_clock(clock)? {
        HostClock::Clock(id) => id,
        HostClock::Rusage(_) => {
            return Some(GuestTimespec {
                tv_sec: 0,
                tv_nsec: 1000,
            })
        }
        HostClock::Second => {
            return Some(GuestTimespec {
                tv_sec: 1,
                tv_nsec: 0,
            })
        }
    };
    let mut ts = host_libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is writable.
    unsafe { host_libc::clock_getres(id, &mut ts) };
    Some(GuestTimespec {
        tv_sec: ts.tv_sec,
        tv_nsec: ts.tv_nsec,
    })
}

/// Writes a clock reading to a guest timespec; errno result.
///
/// # Safety
/// `out` is null or writable.
unsafe fn write_clock(value: Option<GuestTimespec>, out: *mut GuestTimespec) -> i32 {
    let Some(t) = value else {
        return errno::EINVAL;
    };
    if out.is_null() {
        // FreeBSD's clock_gettime(2) copies out to the user pointer: EFAULT.
        return EFAULT;
    }
    // SAFETY: checked non-null; the guest's contract makes it writable.
    unsafe { out.write_unaligned(t) };
    0
}

const EFAULT: i32 = 14;

/// Runs an errno-returning implementation for a POSIX name: -1 and `errno` on failure.
fn posix(e: i32) -> i32 {
    if e == 0 {
        0
    } else {
        set_errno(e);
        -1
    }
}

#[export::nid("clock_gettime")]
pub unsafe extern "sysv64" fn clock_gettime(clock: i32, out: *mut GuestTimespec) -> i32 {
    // SAFETY: the guest's contract.
    posix(unsafe { write_clock(guest_clock(clock), out) })
}

#[export::nid("sceKernelClockGettime")]
pub unsafe extern "sysv64" fn sce_kernel_clock_gettime(clock: i32, out: *mut GuestTimespec) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { write_clock(guest_clock(clock), out) })
}

#[export::nid("clock_getres")]
pub unsafe extern "sysv64" fn clock_getres(clock: i32, out: *mut GuestTimespec) -> i32 {
    // A null result pointer is allowed for clock_getres: it only checks the id.
    if out.is_null() {
        return posix(if host_clock(clock).is_some() {
            0
        } else {
            errno::EINVAL
        });
    }
    // SAFETY: the guest's contract.
    posix(unsafe { write_clock(guest_clock_res(clock), out) })
}

#[export::nid("sceKernelClockGetres")]
pub unsafe extern "sysv64" fn sce_kernel_clock_getres(clock: i32, out: *mut GuestTimespec) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { write_clock(guest_clock_res(clock), out) })
}

/// A guest `struct timeval` (FreeBSD: 64-bit seconds and microseconds).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GuestTimeval {
    /// Seconds.
    pub tv_sec: i64,
    /// Microseconds.
    pub tv_usec: i64,
}
const _: () = assert!(std::mem::size_of::<GuestTimeval>() == 16);

/// A guest `struct timezone`: always zero (UTC, no DST), as FreeBSD reports it.
#[repr(C)]
pub struct GuestTimezone {
    /// Minutes west of Greenwich.
    pub tz_minuteswest: i32,
    /// Type of DST correction.
    pub tz_dsttime: i32,
}
const _: () = assert!(std::mem::size_of::<GuestTimezone>() == 8);

fn now_timeval() -> GuestTimeval {
    let t = read_host(host_libc::CLOCK_REALTIME);
    GuestTimeval {
        tv_sec: t.tv_sec,
        tv_usec: t.tv_nsec / 1000,
    }
}

#[export::nid("gettimeofday")]
pub unsafe extern "sysv64" fn gettimeofday(tv: *mut GuestTimeval, tz: *mut GuestTimezone) -> i32 {
    // Both pointers may be null (each is then skipped), as in FreeBSD.
    if !tv.is_null() {
        // SAFETY: non-null and writable per the guest's contract.
        unsafe { tv.write_unaligned(now_timeval()) };
    }
    if !tz.is_null() {
        // SAFETY: as above.
        unsafe {
            tz.write_unaligned(GuestTimezone {
                tz_minuteswest: 0,
                tz_dsttime: 0,
            })
        };
    }
    0
}

#[export::nid("sceKernelGettimeofday")]
pub unsafe extern "sysv64" fn sce_kernel_gettimeofday(tv: *mut GuestTimeval) -> i32 {
    if tv.is_null() {
        return sce(errno::EINVAL);
    }
    // SAFETY: non-null and writable per the guest's contract.
    unsafe { tv.write_unaligned(now_timeval()) };
    0
}

/// Sleeps for a guest timespec; writes zero to `rem` (a sleep is never interrupted
/// early here: host signals are not delivered to guest threads). Errno result.
///
/// # Safety
/// `req` is null or readable, `rem` null or writable.
unsafe fn nanosleep_imp(req: *const GuestTimespec, rem: *mut GuestTimespec) -> i32 {
    if req.is_null() {
        return EFAULT;
    }
    // SAFETY: non-null per the check; readable per the contract.
    let r = unsafe { req.read_unaligned() };
    if r.tv_sec < 0 || !(0..1_000_000_000).contains(&r.tv_nsec) {
        return errno::EINVAL;
    }
    std::thread::sleep(Duration::new(r.tv_sec as u64, r.tv_nsec as u32));
    if !rem.is_null() {
        // SAFETY: non-null and writable per the contract.
        unsafe {
            rem.write_unaligned(GuestTimespec {
                tv_sec: 0,
                tv_nsec: 0,
            })
        };
    }
    0
}

#[export::nid("nanosleep")]
pub unsafe extern "sysv64" fn nanosleep(req: *const GuestTimespec, rem: *mut GuestTimespec) -> i32 {
    // SAFETY: the guest's contract.
    posix(unsafe { nanosleep_imp(req, rem) })
}

#[export::nid("_nanosleep")]
pub unsafe extern "sysv64" fn nanosleep_underscore(
    req: *const GuestTimespec,
    rem: *mut GuestTimespec,
) -> i32 {
    // SAFETY: the guest's contract.
    posix(unsafe { nanosleep_imp(req, rem) })
}

#[export::nid("sceKernelNanosleep")]
pub unsafe extern "sysv64" fn sce_kernel_nanosleep(
    req: *const GuestTimespec,
    rem: *mut GuestTimespec,
) -> i32 {
    // SAFETY: the guest's contract.
    sce(unsafe { nanosleep_imp(req, rem) })
}

#[export::nid("sceKernelUsleep")]
pub extern "sysv64" fn sce_kernel_usleep(microseconds: u32) -> i32 {
    std::thread::sleep(Duration::from_micros(microseconds as u64));
    0
}

#[export::nid("usleep")]
pub extern "sysv64" fn usleep(microseconds: u32) -> i32 {
    std::thread::sleep(Duration::from_micros(microseconds as u64));
    0
}

#[export::nid("sleep")]
pub extern "sysv64" fn sleep(seconds: u32) -> u32 {
    std::thread::sleep(Duration::from_secs(seconds as u64));
    0 // the seconds left: none, the sleep is never cut short
}

#[export::nid("sceKernelSleep")]
pub extern "sysv64" fn sce_kernel_sleep(seconds: u32) -> i32 {
    std::thread::sleep(Duration::from_secs(seconds as u64));
    0
}

static PROCESS_START: OnceLock<Instant> = OnceLock::new();

/// Records the process start (from the runtime's initializer, before any guest code).
pub fn mark_process_start() {
    PROCESS_START.get_or_init(Instant::now);
}

fn since_start() -> Duration {
    PROCESS_START.get_or_init(Instant::now).elapsed()
}

#[export::nid("sceKernelGetProcessTime")]
pub extern "sysv64" fn sce_kernel_get_process_time() -> u64 {
    since_start().as_micros() as u64
}

/// The process time counter ticks in nanoseconds.
const PROCESS_COUNTER_HZ: u64 = 1_000_000_000;

#[export::nid("sceKernelGetProcessTimeCounter")]
pub extern "sysv64" fn sce_kernel_get_process_time_counter() -> u64 {
    since_start().as_nanos() as u64
}

#[export::nid("sceKernelGetProcessTimeCounterFrequency")]
pub extern "sysv64" fn sce_kernel_get_process_time_counter_frequency() -> u64 {
    PROCESS_COUNTER_HZ
}

fn rdtsc() -> u64 {
    // SAFETY: rdtsc exists on every x86-64 CPU and has no memory effects.
    unsafe { core::arch::x86_64::_rdtsc() }
}

#[export::nid("sceKernelReadTsc")]
pub extern "sysv64" fn sce_kernel_read_tsc() -> u64 {
    rdtsc()
}

/// The TSC frequency: from CPUID leaf 0x15 (TSC/crystal ratio and crystal clock) when the
/// CPU reports it, else measured once against the monotonic clock over 20 ms, rounded
/// to 1 kHz so repeated runs agree.
pub fn tsc_frequency() -> u64 {
    static HZ: OnceLock<u64> = OnceLock::new();
    *HZ.get_or_init(|| cpuid_tsc_hz().unwrap_or_else(measure_tsc_hz))
}

fn cpuid_tsc_hz() -> Option<u64> {
    use core::arch::x86_64::__cpuid;
    // Leaf 0 gives the highest leaf.
    let max = __cpuid(0).eax;
    if max < 0x15 {
        return None;
    }
    let l = __cpuid(0x15);
    (l.eax != 0 && l.ebx != 0 && l.ecx != 0).then(|| l.ecx as u64 * l.ebx as u64 / l.eax as u64)
}

fn measure_tsc_hz() -> u64 {
    let t0 = Instant::now();
    let c0 = rdtsc();
    std::thread::sleep(Duration::from_millis(20));
    let c1 = rdtsc();
    let ns = t0.elapsed().as_nanos().max(1) as u64;
    let hz = (c1.wrapping_sub(c0) as u128 * 1_000_000_000 / ns as u128) as u64;
    (hz + 500) / 1000 * 1000
}

#[export::nid("sceKernelGetTscFrequency")]
pub extern "sysv64" fn sce_kernel_get_tsc_frequency() -> u64 {
    tsc_frequency()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_console_clock_reads_and_others_do_not() {
        for id in [0, 1, 2, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
            assert!(guest_clock(id).is_some(), "clock {id}");
            assert!(guest_clock_res(id).is_some(), "clock {id}");
        }
        for id in [3, 6, 16, -1, 256] {
            assert!(guest_clock(id).is_none(), "clock {id}");
        }
    }

    #[test]
    fn tsc_frequency_is_plausible() {
        let hz = tsc_frequency();
        assert!((100_000_000..20_000_000_000).contains(&hz), "{hz}");
    }
}
