//! libkernel threads and synchronization: SDK-built C titles (tests/titles/kernel/), relinked
//! and run natively. Each title checks return values and SCE error codes itself and prints
//! one line per area; the test compares the whole output and the exit code.

mod common;

use common::{build_title_with, relink, run};
use std::time::{Duration, Instant};

/// Builds `tests/titles/kernel/<source>` with the sdk (extra `cflags`), relinks it and runs
/// it for at most `limit`; `None` (skip) without clang-19. Returns (exit code, stdout,
/// stderr, run time).
fn run_title(
    test: &str,
    source: &str,
    cflags: &[&str],
    limit: Duration,
) -> Option<(Option<i32>, String, String, Duration)> {
    let dir = tempfile::tempdir().unwrap();
    let eboot = build_title_with(test, dir.path(), "kernel", &[source], &[], cflags)?;
    let out = dir.path().join("out");
    relink(&eboot, &out);
    let start = Instant::now();
    let (code, stdout, stderr) = run(&out, limit);
    Some((code, stdout, stderr, start.elapsed()))
}

/// Runs a title and asserts exit code 0 and exactly `expected` on stdout.
fn expect(test: &str, source: &str, cflags: &[&str], limit_s: u64, expected: &str) {
    let Some((code, stdout, stderr, took)) =
        run_title(test, source, cflags, Duration::from_secs(limit_s))
    else {
        return;
    };
    eprintln!("{test}: ran in {took:?}");
    assert_eq!(code, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(stdout, expected, "stderr:\n{stderr}");
}

#[test]
fn threads_create_join_attributes_names_priorities() {
    expect(
        "kernel_threads",
        "threads.c",
        &[],
        30,
        "create/join: ok\nexit: ok\nerrors: ok\nattributes: ok\nstack: ok\ndetach: ok\n\
         self/equal/names: ok\npriority/affinity: ok\nonce: ok\nposix: ok\nthreads: 0 failures\n",
    );
}

#[test]
fn thread_specific_data_and_cleanup_handlers() {
    expect(
        "kernel_tsd",
        "tsd.c",
        &[],
        30,
        "keys: ok\nkey delete: ok\ncleanup: c-ayx\ntsd: 0 failures\n",
    );
}

/// One test per cancellation rule: `cancel.c` built with `-DONLY=<rule>`.
macro_rules! cancel_rule {
    ($name:ident, $n:literal, $line:literal) => {
        #[test]
        fn $name() {
            expect(
                concat!("cancel_", stringify!($name)),
                "cancel.c",
                &[concat!("-DONLY=", $n)],
                30,
                concat!($line, "\ncancel: 0 failures\n"),
            );
        }
    };
}

cancel_rule!(
    cancel_defaults_enabled_deferred,
    0,
    "defaults enabled+deferred: ok"
);
cancel_rule!(
    cancel_never_injected_result_is_1,
    1,
    "deferred, no injection, result 1: ok"
);
cancel_rule!(
    cancel_disabled_request_stays_pending,
    2,
    "disabled request stays pending: ok"
);
cancel_rule!(
    cancel_cond_waiter_reacquires_mutex,
    3,
    "untimed condition waiter reacquires its mutex: ok"
);
cancel_rule!(
    cancel_timed_cond_waiter_reacquires_mutex,
    4,
    "timed condition waiter reacquires its mutex: ok"
);
cancel_rule!(
    cancel_disabled_timed_cond_wait_times_out,
    5,
    "disabled timed condition wait times out: ok"
);
cancel_rule!(
    cancel_pending_on_sem_entry_beats_token,
    6,
    "pending request beats an available token: ok"
);
cancel_rule!(
    cancel_blocked_sem_waiter_exits,
    7,
    "blocked semaphore waiter exits, semaphore reusable: ok"
);
cancel_rule!(
    cancel_join_leaves_target_joinable,
    8,
    "cancelled join leaves target joinable: ok"
);
cancel_rule!(
    cancel_cleanup_reverse_order_before_tsd,
    9,
    "cleanup order: CBAD"
);
cancel_rule!(
    cancel_repeated_requests_one_cleanup,
    10,
    "repeated requests: R"
);
cancel_rule!(
    cancel_points_in_cleanup_do_not_reenter,
    11,
    "cancellation points in cleanup: 120"
);
cancel_rule!(
    cancel_async_type_not_injected,
    12,
    "asynchronous type acts only at calls: ok"
);
cancel_rule!(
    cancel_exited_thread_and_posix_errors,
    13,
    "cancel of an exited thread: ok"
);

#[test]
fn sync_objects_return_console_error_codes() {
    expect(
        "kernel_sync",
        "sync.c",
        &[],
        60,
        "mutexes: ok\ncondition variables: ok\nrwlocks: ok\nbarriers and spinlocks: ok\n\
         semaphores: ok\nevent flags: ok\nsync: 0 failures\n",
    );
}

/// Bounded stress: about 3 s in all with the runtime in a debug build on 2 shared cores (the
/// 16 × 1,000,000 mutex loop about 2 s), so the title keeps the sdk's default flags and the
/// full counts. Timing lines (`time: …`) are printed with `--nocapture`.
#[test]
fn stress_mutex_condvar_semaphore_event_flag() {
    let Some((code, stdout, stderr, took)) =
        run_title("kernel_stress", "stress.c", &[], Duration::from_secs(120))
    else {
        return;
    };
    let (timings, results): (Vec<&str>, Vec<&str>) =
        stdout.lines().partition(|l| l.starts_with("time: "));
    eprintln!("stress ran in {took:?}\n{}", timings.join("\n"));
    assert_eq!(code, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(
        results.iter().map(|l| format!("{l}\n")).collect::<String>(),
        "mutex: 16000000\ncondvar queue: 200000 items\nsemaphore queue: 200000 items\n\
         event-flag storm: 40000 passes\nstress: 0 failures\n",
        "stderr:\n{stderr}"
    );
}
cancel_rule!(
    cancel_in_once_routine_resets_once,
    14,
    "cancelled once routine can run again: ok"
);
