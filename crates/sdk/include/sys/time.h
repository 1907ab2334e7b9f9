/* native5 sdk: gettimeofday (FreeBSD layout: 64-bit seconds and microseconds). */
#ifndef _SCE_SYS_TIME_H
#define _SCE_SYS_TIME_H

#include <_sce_cdefs.h>
#include <sys/types.h>

struct timeval {
    time_t tv_sec;
    suseconds_t tv_usec;
};

struct timezone {
    int tz_minuteswest;
    int tz_dsttime;
};

__SCE_BEGIN_DECLS
int gettimeofday(struct timeval *__restrict tv, struct timezone *__restrict tz);
__SCE_END_DECLS

#endif
