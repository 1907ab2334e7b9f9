/* native5 sdk: POSIX semaphores as libkernel exports them (sem_t is a handle to a
 * kernel-side object; the calls return -1 and set errno on failure). */
#ifndef _SCE_SEMAPHORE_H
#define _SCE_SEMAPHORE_H

#include <_sce_cdefs.h>
#include <time.h>

typedef struct sem *sem_t;

__SCE_BEGIN_DECLS
int sem_init(sem_t *sem, int pshared, unsigned value);
int sem_destroy(sem_t *sem);
int sem_wait(sem_t *sem);
int sem_trywait(sem_t *sem);
int sem_timedwait(sem_t *__restrict sem, const struct timespec *__restrict abstime);
int sem_post(sem_t *sem);
int sem_getvalue(sem_t *__restrict sem, int *__restrict value);
__SCE_END_DECLS

#endif
