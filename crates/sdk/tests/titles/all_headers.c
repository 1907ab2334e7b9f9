/* Includes every sdk header, so the tests can check they compile as C and as C++. */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <kernel.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(long) == 8, "long is 64-bit on the PS5");
_Static_assert(sizeof(void *) == 8, "pointers are 64-bit");
_Static_assert(sizeof(ScePthread) == sizeof(void *), "ScePthread is a pointer-sized handle");
_Static_assert(sizeof(pthread_mutex_t) == sizeof(void *), "mutexes are handles");
_Static_assert(sizeof(off_t) == 8 && sizeof(time_t) == 8, "64-bit off_t and time_t");
_Static_assert(sizeof(struct timespec) == 16, "timespec");
_Static_assert(sizeof(SceKernelTimespec) == 16, "SceKernelTimespec");
#ifndef __cplusplus
_Static_assert(sizeof(__WCHAR_TYPE__) == 2, "wchar_t is 16-bit on the PS5");
#endif
#ifndef __PROSPERO__
#error "not compiled for the PS5 target"
#endif

int main(void) {
    assert(strlen("abc") == 3);
    printf("%" PRId64 " %d\n", (int64_t)1, isdigit('1'));
    return errno;
}
