/* native5 sdk: scheduling (FreeBSD policy numbers). */
#ifndef _SCE_SCHED_H
#define _SCE_SCHED_H

#include <_sce_cdefs.h>

#define SCHED_FIFO 1
#define SCHED_OTHER 2
#define SCHED_RR 3

struct sched_param {
    int sched_priority;
};

__SCE_BEGIN_DECLS
int sched_yield(void);
__SCE_END_DECLS

#endif
