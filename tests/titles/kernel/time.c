/* Clocks, process time, the TSC and sleeping: monotonicity and plausible ranges only. */
#include <errno.h>
#include <kernel.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

static int failures_at_start;
static void area(const char *name) {
    printf("%s: %s\n", name, failures == failures_at_start ? "ok" : "FAILED");
    failures_at_start = failures;
}

static int64_t ns(struct timespec t) { return t.tv_sec * 1000000000LL + t.tv_nsec; }

static void clocks(void) {
    static const int ids[] = {CLOCK_REALTIME, CLOCK_VIRTUAL, CLOCK_PROF, CLOCK_MONOTONIC,
        CLOCK_UPTIME, CLOCK_UPTIME_PRECISE, CLOCK_UPTIME_FAST, CLOCK_REALTIME_PRECISE,
        CLOCK_REALTIME_FAST, CLOCK_MONOTONIC_PRECISE, CLOCK_MONOTONIC_FAST, CLOCK_SECOND,
        CLOCK_THREAD_CPUTIME_ID, CLOCK_PROCESS_CPUTIME_ID};
    for (unsigned i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        struct timespec t = {-1, -1}, r = {-1, -1};
        CHECK(clock_gettime(ids[i], &t), 0);
        CHECK(t.tv_sec >= 0 && t.tv_nsec >= 0 && t.tv_nsec < 1000000000, 1);
        CHECK(clock_getres(ids[i], &r), 0);
        CHECK(ns(r) > 0 && ns(r) <= 1000000000, 1);
        SceKernelTimespec k;
        CHECK(sceKernelClockGettime(ids[i], &k), SCE_OK);
        CHECK(sceKernelClockGetres(ids[i], &k), SCE_OK);
    }
    struct timespec t;
    CHECK(clock_gettime(3, &t), -1);
    CHECK(errno, EINVAL);
    CHECK(clock_gettime(CLOCK_MONOTONIC, NULL), -1);
    CHECK(errno, EFAULT);
    CHECK(sceKernelClockGettime(99, (SceKernelTimespec *)&t), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelClockGetres(-1, (SceKernelTimespec *)&t), SCE_KERNEL_ERROR_EINVAL);
    CHECK(clock_gettime(CLOCK_SECOND, &t), 0);
    CHECK(t.tv_nsec, 0);
    area("clocks");
}

static void monotonic(void) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int backwards = 0;
    for (int i = 0; i < 1000; i++) {
        clock_gettime(CLOCK_MONOTONIC, &b);
        backwards |= ns(b) < ns(a);
        a = b;
    }
    CHECK(backwards, 0);
    CHECK(usleep(20000), 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    int64_t d = ns(b) - ns(a);
    CHECK(d >= 19000000 && d < 5000000000LL, 1);
    /* CPU time grows while the process works. */
    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    volatile unsigned long x = 0;
    for (unsigned long i = 0; i < 20000000; i++)
        x += i;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    CHECK(ns(c1) > ns(c0), 1);
    area("monotonic");
}

static void realtime(void) {
    struct timespec t;
    CHECK(clock_gettime(CLOCK_REALTIME, &t), 0);
    CHECK(t.tv_sec > 1600000000, 1);
    struct timeval tv;
    struct timezone tz = {99, 99};
    CHECK(gettimeofday(&tv, &tz), 0);
    CHECK(tv.tv_usec >= 0 && tv.tv_usec < 1000000, 1);
    CHECK(tv.tv_sec - t.tv_sec >= 0 && tv.tv_sec - t.tv_sec < 5, 1);
    CHECK(tz.tz_minuteswest, 0);
    CHECK(gettimeofday(NULL, NULL), 0);
    SceKernelTimeval kt;
    CHECK(sceKernelGettimeofday(&kt), SCE_OK);
    CHECK(kt.tv_sec - t.tv_sec >= 0 && kt.tv_sec - t.tv_sec < 5, 1);
    CHECK(sceKernelGettimeofday(NULL), SCE_KERNEL_ERROR_EINVAL);
    area("realtime");
}

static void process_time(void) {
    uint64_t p0 = sceKernelGetProcessTime();
    CHECK(p0 > 0 && p0 < 60000000, 1); /* µs since the process started: under a minute */
    uint64_t f = sceKernelGetProcessTimeCounterFrequency();
    CHECK(f >= 1000000, 1);
    uint64_t c0 = sceKernelGetProcessTimeCounter();
    sceKernelUsleep(10000);
    uint64_t c1 = sceKernelGetProcessTimeCounter();
    uint64_t p1 = sceKernelGetProcessTime();
    CHECK(p1 - p0 >= 9000, 1);
    CHECK(c1 - c0 >= f / 1000 * 9 && c1 - c0 < f * 5, 1);
    area("process time");
}

static void tsc(void) {
    uint64_t f = sceKernelGetTscFrequency();
    CHECK(f >= 100000000ULL && f <= 20000000000ULL, 1);
    CHECK(sceKernelGetTscFrequency(), f); /* stable */
    uint64_t t0 = sceKernelReadTsc();
    sceKernelUsleep(20000);
    uint64_t t1 = sceKernelReadTsc();
    CHECK(t1 > t0, 1);
    /* 20 ms of ticks, within a wide margin for a loaded machine. */
    CHECK(t1 - t0 >= f / 100 && t1 - t0 <= f * 5, 1);
    area("tsc");
}

static void sleeping(void) {
    struct timespec a, b, req = {0, 10000000}, rem = {7, 7};
    clock_gettime(CLOCK_MONOTONIC, &a);
    CHECK(nanosleep(&req, &rem), 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    CHECK(ns(b) - ns(a) >= 9000000, 1);
    CHECK(rem.tv_sec == 0 && rem.tv_nsec == 0, 1);
    CHECK(nanosleep(&req, NULL), 0);
    struct timespec bad = {0, 1000000000};
    CHECK(nanosleep(&bad, NULL), -1);
    CHECK(errno, EINVAL);
    bad.tv_sec = -1;
    bad.tv_nsec = 0;
    CHECK(nanosleep(&bad, NULL), -1);
    CHECK(errno, EINVAL);
    SceKernelTimespec kreq = {0, 1000000};
    CHECK(sceKernelNanosleep(&kreq, NULL), SCE_OK);
    kreq.tv_nsec = -1;
    CHECK(sceKernelNanosleep(&kreq, NULL), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelNanosleep(NULL, NULL), SCE_KERNEL_ERROR_EFAULT);
    CHECK(sleep(0), 0);
    CHECK(sceKernelSleep(0), SCE_OK);
    CHECK(usleep(1000), 0);
    CHECK(sceKernelUsleep(1000), SCE_OK);
    clock_gettime(CLOCK_MONOTONIC, &a);
    CHECK(sleep(1), 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    CHECK(ns(b) - ns(a) >= 990000000, 1);
    area("sleep");
}

int main(void) {
    clocks();
    monotonic();
    realtime();
    process_time();
    tsc();
    sleeping();
    printf("time: %d failures\n", failures);
    return failures;
}
