/* native5 sdk: time functions (FreeBSD layout: 64-bit time_t, CLOCK_MONOTONIC = 4). */
#ifndef _SCE_TIME_H
#define _SCE_TIME_H

#include <_sce_cdefs.h>
#include <sys/types.h>

/* FreeBSD clock ids. */
#define CLOCK_REALTIME 0
#define CLOCK_VIRTUAL 1
#define CLOCK_PROF 2
#define CLOCK_MONOTONIC 4
#define CLOCK_UPTIME 5
#define CLOCK_UPTIME_PRECISE 7
#define CLOCK_UPTIME_FAST 8
#define CLOCK_REALTIME_PRECISE 9
#define CLOCK_REALTIME_FAST 10
#define CLOCK_MONOTONIC_PRECISE 11
#define CLOCK_MONOTONIC_FAST 12
#define CLOCK_SECOND 13
#define CLOCK_THREAD_CPUTIME_ID 14
#define CLOCK_PROCESS_CPUTIME_ID 15

struct timespec {
    time_t tv_sec;
    long tv_nsec;
};

struct tm {
    int tm_sec;
    int tm_min;
    int tm_hour;
    int tm_mday;
    int tm_mon;
    int tm_year;
    int tm_wday;
    int tm_yday;
    int tm_isdst;
    long tm_gmtoff;
    char *tm_zone;
};

__SCE_BEGIN_DECLS
time_t time(time_t *out);
double difftime(time_t end, time_t start);
time_t mktime(struct tm *tm);
struct tm *gmtime(const time_t *t);
struct tm *localtime(const time_t *t);
size_t strftime(char *__restrict buf, size_t size, const char *__restrict format,
    const struct tm *__restrict tm);
int nanosleep(const struct timespec *req, struct timespec *rem);
int clock_gettime(clockid_t clock, struct timespec *out);
int clock_getres(clockid_t clock, struct timespec *out);
__SCE_END_DECLS

#endif
