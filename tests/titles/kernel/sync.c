/* Mutexes, condition variables, rwlocks, barriers, spinlocks, semaphores, event flags:
 * return values and error codes. */
#include <kernel.h>
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
#include <time.h>
#include "check.h"

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)

static ScePthreadMutex shared_m;
static void *try_other(void *arg) {
    (void)arg;
    return (void *)(long)scePthreadMutexTrylock(&shared_m);
}
static void *unlock_other(void *arg) {
    (void)arg;
    return (void *)(long)scePthreadMutexUnlock(&shared_m);
}
static long run(void *(*f)(void *)) {
    ScePthread t;
    void *r;
    scePthreadCreate(&t, NULL, f, NULL, "helper");
    scePthreadJoin(t, &r);
    return (long)r;
}

static void mutexes(void) {
    ScePthreadMutexattr a;
    int v = -1;
    CHECK(scePthreadMutexattrInit(&a), SCE_OK);
    CHECK(scePthreadMutexattrGettype(&a, &v), SCE_OK);
    CHECK(v, PTHREAD_MUTEX_ERRORCHECK);
    CHECK(scePthreadMutexattrSettype(&a, 99), SCE_KERNEL_ERROR_EINVAL);
    CHECK(scePthreadMutexattrSetprotocol(&a, PTHREAD_PRIO_INHERIT), SCE_OK);
    CHECK(scePthreadMutexattrGetprotocol(&a, &v), SCE_OK);
    CHECK(v, PTHREAD_PRIO_INHERIT);
    CHECK(scePthreadMutexattrSetprioceiling(&a, 300), SCE_OK);
    CHECK(scePthreadMutexattrGetprioceiling(&a, &v), SCE_OK);
    CHECK(v, 300);

    /* errorcheck (the default) */
    ScePthreadMutex m;
    CHECK(scePthreadMutexattrSettype(&a, PTHREAD_MUTEX_ERRORCHECK), SCE_OK);
    CHECK(scePthreadMutexInit(&m, &a, "ec"), SCE_OK);
    CHECK(scePthreadMutexLock(&m), SCE_OK);
    CHECK(scePthreadMutexLock(&m), SCE_KERNEL_ERROR_EDEADLK);
    CHECK(scePthreadMutexTrylock(&m), SCE_KERNEL_ERROR_EBUSY);
    CHECK(scePthreadMutexIsowned(&m), 1);
    CHECK(scePthreadMutexDestroy(&m), SCE_KERNEL_ERROR_EBUSY);
    CHECK(scePthreadMutexUnlock(&m), SCE_OK);
    CHECK(scePthreadMutexUnlock(&m), SCE_KERNEL_ERROR_EPERM);
    CHECK(scePthreadMutexDestroy(&m), SCE_OK);
    CHECK(scePthreadMutexLock(&m), SCE_KERNEL_ERROR_EINVAL);

    /* recursive */
    CHECK(scePthreadMutexattrSettype(&a, PTHREAD_MUTEX_RECURSIVE), SCE_OK);
    CHECK(scePthreadMutexInit(&m, &a, "rec"), SCE_OK);
    CHECK(scePthreadMutexLock(&m), SCE_OK);
    CHECK(scePthreadMutexLock(&m), SCE_OK);
    CHECK(scePthreadMutexTrylock(&m), SCE_OK);
    CHECK(scePthreadMutexUnlock(&m), SCE_OK);
    CHECK(scePthreadMutexUnlock(&m), SCE_OK);
    CHECK(scePthreadMutexIsowned(&m), 1);
    CHECK(scePthreadMutexUnlock(&m), SCE_OK);
    CHECK(scePthreadMutexIsowned(&m), 0);
    CHECK(scePthreadMutexUnlock(&m), SCE_KERNEL_ERROR_EPERM);
    CHECK(scePthreadMutexDestroy(&m), SCE_OK);

    /* normal: trylock on itself is EBUSY */
    CHECK(scePthreadMutexattrSettype(&a, PTHREAD_MUTEX_NORMAL), SCE_OK);
    CHECK(scePthreadMutexInit(&m, &a, "normal"), SCE_OK);
    CHECK(scePthreadMutexLock(&m), SCE_OK);
    CHECK(scePthreadMutexTrylock(&m), SCE_KERNEL_ERROR_EBUSY);
    CHECK(scePthreadMutexUnlock(&m), SCE_OK);
    CHECK(scePthreadMutexDestroy(&m), SCE_OK);

    /* adaptive */
    CHECK(scePthreadMutexattrSettype(&a, PTHREAD_MUTEX_ADAPTIVE_NP), SCE_OK);
    CHECK(scePthreadMutexInit(&m, &a, "adaptive"), SCE_OK);
    CHECK(scePthreadMutexLock(&m), SCE_OK);
    CHECK(scePthreadMutexLock(&m), SCE_KERNEL_ERROR_EDEADLK);
    CHECK(scePthreadMutexUnlock(&m), SCE_OK);
    CHECK(scePthreadMutexDestroy(&m), SCE_OK);
    CHECK(scePthreadMutexattrDestroy(&a), SCE_OK);

    /* static initializer; another thread's trylock and unlock */
    shared_m = PTHREAD_MUTEX_INITIALIZER;
    CHECK(scePthreadMutexLock(&shared_m), SCE_OK);
    CHECK(run(try_other), SCE_KERNEL_ERROR_EBUSY);
    CHECK(run(unlock_other), SCE_KERNEL_ERROR_EPERM);
    /* timed lock: relative microseconds (sce), absolute realtime (POSIX) */
    CHECK(scePthreadMutexUnlock(&shared_m), SCE_OK);
    CHECK(run(try_other), SCE_OK); /* the helper exits holding it */
    CHECK(scePthreadMutexTimedlock(&shared_m, 20 * 1000), SCE_KERNEL_ERROR_ETIMEDOUT);
    struct timespec ts;
    CHECK(clock_gettime(CLOCK_REALTIME, &ts), 0);
    ts.tv_nsec += 20 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    CHECK(pthread_mutex_timedlock(&shared_m, &ts), ETIMEDOUT);
    ts.tv_nsec = 2000000000;
    CHECK(pthread_mutex_timedlock(&shared_m, &ts), EINVAL);
    pthread_mutex_t pm = PTHREAD_MUTEX_INITIALIZER;
    CHECK(pthread_mutex_lock(&pm), 0);
    CHECK(pthread_mutex_lock(&pm), EDEADLK);
    CHECK(pthread_mutex_unlock(&pm), 0);
    CHECK(pthread_mutex_unlock(&pm), EPERM);
    CHECK(pthread_mutex_destroy(&pm), 0);
    pthread_mutex_t am = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
    CHECK(pthread_mutex_lock(&am), 0);
    CHECK(pthread_mutex_unlock(&am), 0);
    CHECK(scePthreadMutexLock(NULL), SCE_KERNEL_ERROR_EINVAL);
    printf("mutexes: ok\n");
}

static ScePthreadMutex cm;
static ScePthreadCond cv;
static int flag_value, woken;
static void *cond_waiter(void *arg) {
    (void)arg;
    scePthreadMutexLock(&cm);
    while (!flag_value)
        scePthreadCondWait(&cv, &cm);
    woken++;
    scePthreadMutexUnlock(&cm);
    return NULL;
}

static void conds(void) {
    /* errors: the mutex must be held */
    CHECK(scePthreadCondWait(&cv, &cm), SCE_KERNEL_ERROR_EPERM);
    CHECK(scePthreadCondSignal(NULL), SCE_KERNEL_ERROR_EINVAL);
    /* signal wakes one at a time; broadcast wakes all */
    ScePthread t[4];
    for (int i = 0; i < 4; i++)
        CHECK(scePthreadCreate(&t[i], NULL, cond_waiter, NULL, "waiter"), SCE_OK);
    scePthreadMutexLock(&cm);
    flag_value = 1;
    CHECK(scePthreadCondSignal(&cv), SCE_OK);
    CHECK(scePthreadCondBroadcast(&cv), SCE_OK);
    scePthreadMutexUnlock(&cm);
    for (int i = 0; i < 4; i++)
        CHECK(scePthreadJoin(t[i], NULL), SCE_OK);
    CHECK(woken, 4);
    /* timed waits: relative (sce), absolute realtime and monotonic (POSIX) */
    scePthreadMutexLock(&cm);
    CHECK(scePthreadCondTimedwait(&cv, &cm, 10 * 1000), SCE_KERNEL_ERROR_ETIMEDOUT);
    CHECK(scePthreadMutexIsowned(&cm), 1);
    scePthreadMutexUnlock(&cm);

    for (int clock = 0; clock < 2; clock++) {
        pthread_condattr_t ca;
        pthread_cond_t pc;
        pthread_mutex_t pm = NULL;
        clockid_t id = clock ? CLOCK_MONOTONIC : CLOCK_REALTIME, got = -1;
        CHECK(pthread_condattr_init(&ca), 0);
        CHECK(pthread_condattr_setclock(&ca, id), 0);
        CHECK(pthread_condattr_getclock(&ca, &got), 0);
        CHECK(got, id);
        CHECK(pthread_condattr_setclock(&ca, 99), EINVAL);
        CHECK(pthread_cond_init(&pc, &ca), 0);
        CHECK(pthread_condattr_destroy(&ca), 0);
        struct timespec start, ts, end;
        clock_gettime(id, &start);
        ts = start;
        ts.tv_nsec += 30 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        CHECK(pthread_mutex_lock(&pm), 0);
        int rc;
        do
            rc = pthread_cond_timedwait(&pc, &pm, &ts);
        while (rc == 0);
        CHECK(rc, ETIMEDOUT);
        clock_gettime(id, &end);
        long long waited = (end.tv_sec - start.tv_sec) * 1000000000LL + (end.tv_nsec - start.tv_nsec);
        CHECK(waited >= 30 * 1000 * 1000, 1);
        ts.tv_nsec = -1;
        CHECK(pthread_cond_timedwait(&pc, &pm, &ts), EINVAL);
        CHECK(pthread_mutex_unlock(&pm), 0);
        CHECK(pthread_cond_destroy(&pc), 0);
        CHECK(pthread_mutex_destroy(&pm), 0);
    }
    printf("condition variables: ok\n");
}

static ScePthreadRwlock rw;
static void *try_write(void *arg) {
    (void)arg;
    return (void *)(long)scePthreadRwlockTrywrlock(&rw);
}
static void *try_read(void *arg) {
    (void)arg;
    long r = scePthreadRwlockTryrdlock(&rw);
    if (r == 0)
        scePthreadRwlockUnlock(&rw);
    return (void *)r;
}

static void rwlocks(void) {
    CHECK(scePthreadRwlockInit(&rw, NULL, "rw"), SCE_OK);
    CHECK(scePthreadRwlockRdlock(&rw), SCE_OK);
    CHECK(scePthreadRwlockRdlock(&rw), SCE_OK);
    CHECK(run(try_write), SCE_KERNEL_ERROR_EBUSY);
    CHECK(run(try_read), SCE_OK);
    CHECK(scePthreadRwlockTimedwrlock(&rw, 10 * 1000), SCE_KERNEL_ERROR_ETIMEDOUT);
    CHECK(scePthreadRwlockUnlock(&rw), SCE_OK);
    CHECK(scePthreadRwlockUnlock(&rw), SCE_OK);
    CHECK(scePthreadRwlockUnlock(&rw), SCE_KERNEL_ERROR_EPERM);
    CHECK(scePthreadRwlockWrlock(&rw), SCE_OK);
    CHECK(scePthreadRwlockWrlock(&rw), SCE_KERNEL_ERROR_EDEADLK);
    CHECK(scePthreadRwlockRdlock(&rw), SCE_KERNEL_ERROR_EDEADLK);
    CHECK(run(try_read), SCE_KERNEL_ERROR_EBUSY);
    CHECK(scePthreadRwlockDestroy(&rw), SCE_KERNEL_ERROR_EBUSY);
    CHECK(scePthreadRwlockUnlock(&rw), SCE_OK);
    CHECK(scePthreadRwlockDestroy(&rw), SCE_OK);
    pthread_rwlock_t prw = PTHREAD_RWLOCK_INITIALIZER;
    CHECK(pthread_rwlock_wrlock(&prw), 0);
    CHECK(pthread_rwlock_trywrlock(&prw), EDEADLK);
    CHECK(pthread_rwlock_unlock(&prw), 0);
    CHECK(pthread_rwlock_destroy(&prw), 0);
    printf("rwlocks: ok\n");
}

static pthread_barrier_t barrier;
static int serial_count, phase_errors, phase;
static void *barrier_worker(void *arg) {
    (void)arg;
    for (int round = 0; round < 50; round++) {
        int r = pthread_barrier_wait(&barrier);
        if (r == PTHREAD_BARRIER_SERIAL_THREAD) {
            __atomic_fetch_add(&serial_count, 1, __ATOMIC_SEQ_CST);
            STORE(phase, round + 1);
        } else if (r != 0) {
            __atomic_fetch_add(&phase_errors, 1, __ATOMIC_SEQ_CST);
        }
        pthread_barrier_wait(&barrier);
        if (LOAD(phase) != round + 1)
            __atomic_fetch_add(&phase_errors, 1, __ATOMIC_SEQ_CST);
    }
    return NULL;
}

static pthread_spinlock_t spin;
static long spin_counter;
static void *spin_worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 20000; i++) {
        pthread_spin_lock(&spin);
        spin_counter++;
        pthread_spin_unlock(&spin);
    }
    return NULL;
}

static void barriers_and_spinlocks(void) {
    CHECK(pthread_barrier_init(&barrier, NULL, 0), EINVAL);
    CHECK(pthread_barrier_init(&barrier, NULL, 4), 0);
    ScePthread t[4];
    for (int i = 0; i < 4; i++)
        CHECK(scePthreadCreate(&t[i], NULL, barrier_worker, NULL, "barrier"), SCE_OK);
    for (int i = 0; i < 4; i++)
        CHECK(scePthreadJoin(t[i], NULL), SCE_OK);
    CHECK(serial_count, 50);
    CHECK(phase_errors, 0);
    CHECK(pthread_barrier_destroy(&barrier), 0);
    ScePthreadBarrier sb;
    CHECK(scePthreadBarrierInit(&sb, NULL, 1, "one"), SCE_OK);
    CHECK(scePthreadBarrierWait(&sb), PTHREAD_BARRIER_SERIAL_THREAD);
    CHECK(scePthreadBarrierDestroy(&sb), SCE_OK);

    CHECK(pthread_spin_init(&spin, 0), 0);
    CHECK(pthread_spin_lock(&spin), 0);
    CHECK(pthread_spin_trylock(&spin), EBUSY);
    CHECK(pthread_spin_destroy(&spin), EBUSY);
    CHECK(pthread_spin_unlock(&spin), 0);
    CHECK(pthread_spin_unlock(&spin), EPERM);
    for (int i = 0; i < 4; i++)
        CHECK(scePthreadCreate(&t[i], NULL, spin_worker, NULL, "spin"), SCE_OK);
    for (int i = 0; i < 4; i++)
        CHECK(scePthreadJoin(t[i], NULL), SCE_OK);
    CHECK(spin_counter, 80000);
    CHECK(pthread_spin_destroy(&spin), 0);
    printf("barriers and spinlocks: ok\n");
}

static SceKernelSema ks;
static int sema_result;
static void *sema_waiter(void *arg) {
    (void)arg;
    STORE(sema_result, 1);
    int r = sceKernelWaitSema(ks, 2, NULL);
    STORE(sema_result, r);
    return NULL;
}

static void semaphores(void) {
    CHECK(sceKernelCreateSema(&ks, "s", 0x4, 0, 4, NULL), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelCreateSema(&ks, "s", 1, 5, 4, NULL), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelCreateSema(&ks, NULL, 1, 0, 4, NULL), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelCreateSema(&ks, "a-name-that-is-much-too-long-for-it", 1, 0, 4, NULL),
        SCE_KERNEL_ERROR_ENAMETOOLONG);
    CHECK(sceKernelCreateSema(&ks, "s", SCE_KERNEL_SEMA_ATTR_TH_FIFO, 1, 4, NULL), SCE_OK);
    CHECK(sceKernelPollSema(ks, 2), SCE_KERNEL_ERROR_EBUSY);
    CHECK(sceKernelPollSema(ks, 1), SCE_OK);
    CHECK(sceKernelPollSema(ks, 5), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelPollSema(ks, 0), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelSignalSema(ks, 5), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelSignalSema(ks, 4), SCE_OK);
    CHECK(sceKernelSignalSema(ks, 1), SCE_KERNEL_ERROR_EINVAL);
    SceKernelUseconds us = 5000;
    CHECK(sceKernelWaitSema(ks, 4, &us), SCE_OK);
    CHECK(us > 0 && us <= 5000, 1);
    us = 10 * 1000;
    CHECK(sceKernelWaitSema(ks, 1, &us), SCE_KERNEL_ERROR_ETIMEDOUT);
    CHECK(us, 0);
    /* a waiter needing 2 wakes on the second signal */
    ScePthread t;
    CHECK(scePthreadCreate(&t, NULL, sema_waiter, NULL, "sema"), SCE_OK);
    CHECK(sceKernelSignalSema(ks, 1), SCE_OK);
    CHECK(sceKernelSignalSema(ks, 1), SCE_OK);
    CHECK(scePthreadJoin(t, NULL), SCE_OK);
    CHECK(sema_result, SCE_OK);
    /* cancel: the waiter gets ECANCELED; the count is set */
    CHECK(scePthreadCreate(&t, NULL, sema_waiter, NULL, "sema"), SCE_OK);
    int waiters = -1;
    /* (the count stays 0 until the waiter is blocked, so it cannot take tokens instead) */
    do {
        scePthreadYield();
        CHECK(sceKernelCancelSema(ks, 0, &waiters), SCE_OK);
    } while (waiters == 0);
    CHECK(waiters, 1);
    CHECK(scePthreadJoin(t, NULL), SCE_OK);
    CHECK(sema_result, SCE_KERNEL_ERROR_ECANCELED);
    CHECK(sceKernelCancelSema(ks, 3, &waiters), SCE_OK);
    CHECK(waiters, 0);
    CHECK(sceKernelPollSema(ks, 3), SCE_OK);
    /* delete: a waiter gets EACCES; the id is then unknown */
    STORE(sema_result, 0);
    CHECK(scePthreadCreate(&t, NULL, sema_waiter, NULL, "sema"), SCE_OK);
    while (!LOAD(sema_result))
        scePthreadYield();
    CHECK(sceKernelDeleteSema(ks), SCE_OK);
    CHECK(scePthreadJoin(t, NULL), SCE_OK);
    int r = LOAD(sema_result);
    CHECK(r == SCE_KERNEL_ERROR_EACCES || r == SCE_KERNEL_ERROR_ESRCH, 1);
    CHECK(sceKernelSignalSema(ks, 1), SCE_KERNEL_ERROR_ESRCH);
    CHECK(sceKernelDeleteSema(ks), SCE_KERNEL_ERROR_ESRCH);

    /* POSIX: -1 and errno */
    sem_t s;
    int v = -1;
    CHECK(sem_init(&s, 0, 2), 0);
    CHECK(sem_trywait(&s), 0);
    CHECK(sem_wait(&s), 0);
    CHECK(sem_trywait(&s), -1);
    CHECK(errno, EAGAIN);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 10 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    CHECK(sem_timedwait(&s, &ts), -1);
    CHECK(errno, ETIMEDOUT);
    CHECK(sem_post(&s), 0);
    CHECK(sem_getvalue(&s, &v), 0);
    CHECK(v, 1);
    CHECK(sem_destroy(&s), 0);
    CHECK(sem_wait(&s), -1);
    CHECK(errno, EINVAL);
    CHECK(sem_init(&s, 0, 0x80000000u), -1);
    CHECK(errno, EINVAL);
    printf("semaphores: ok\n");
}

static SceKernelEventFlag ef;
static uint64_t ef_result;
static int ef_rc;
static void *ef_waiter(void *arg) {
    uint32_t mode = (uint32_t)(long)arg;
    STORE(ef_rc, 1);
    int r = sceKernelWaitEventFlag(ef, 0x3, mode, &ef_result, NULL);
    STORE(ef_rc, r);
    return NULL;
}

static void event_flags(void) {
    uint64_t res = 0;
    CHECK(sceKernelCreateEventFlag(&ef, "ef", 0x4, 0, NULL), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelCreateEventFlag(&ef, "ef", SCE_KERNEL_EVF_ATTR_TH_FIFO | SCE_KERNEL_EVF_ATTR_SINGLE,
        0x10, NULL), SCE_OK);
    /* AND / OR, clear modes */
    CHECK(sceKernelPollEventFlag(ef, 0x3, SCE_KERNEL_EVF_WAITMODE_OR, &res), SCE_KERNEL_ERROR_EBUSY);
    CHECK(sceKernelSetEventFlag(ef, 0x1), SCE_OK);
    CHECK(sceKernelPollEventFlag(ef, 0x3, SCE_KERNEL_EVF_WAITMODE_AND, &res), SCE_KERNEL_ERROR_EBUSY);
    CHECK(sceKernelPollEventFlag(ef, 0x3, SCE_KERNEL_EVF_WAITMODE_OR, &res), SCE_OK);
    CHECK(res, 0x11);
    CHECK(sceKernelSetEventFlag(ef, 0x2), SCE_OK);
    CHECK(sceKernelPollEventFlag(ef, 0x3, SCE_KERNEL_EVF_WAITMODE_AND | SCE_KERNEL_EVF_WAITMODE_CLEAR_PAT, &res), SCE_OK);
    CHECK(res, 0x13);
    CHECK(sceKernelPollEventFlag(ef, 0x10, SCE_KERNEL_EVF_WAITMODE_AND | SCE_KERNEL_EVF_WAITMODE_CLEAR_ALL, &res), SCE_OK);
    CHECK(res, 0x10);
    CHECK(sceKernelPollEventFlag(ef, 0xff, SCE_KERNEL_EVF_WAITMODE_OR, &res), SCE_KERNEL_ERROR_EBUSY);
    CHECK(res, 0);
    CHECK(sceKernelSetEventFlag(ef, 0xf0), SCE_OK);
    CHECK(sceKernelClearEventFlag(ef, 0x30), SCE_OK); /* keeps 0x30 */
    CHECK(sceKernelPollEventFlag(ef, 0xff, SCE_KERNEL_EVF_WAITMODE_OR, &res), SCE_OK);
    CHECK(res, 0x30);
    CHECK(sceKernelClearEventFlag(ef, 0), SCE_OK);
    /* bad arguments */
    CHECK(sceKernelPollEventFlag(ef, 0, SCE_KERNEL_EVF_WAITMODE_OR, &res), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelPollEventFlag(ef, 1, 0, &res), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelPollEventFlag(ef, 1, 3, &res), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelPollEventFlag(ef, 1, 0x31, &res), SCE_KERNEL_ERROR_EINVAL);
    /* timeout: in/out microseconds */
    SceKernelUseconds us = 10 * 1000;
    CHECK(sceKernelWaitEventFlag(ef, 1, SCE_KERNEL_EVF_WAITMODE_OR, &res, &us), SCE_KERNEL_ERROR_ETIMEDOUT);
    CHECK(us, 0);
    /* a blocked waiter, released by Set; a second waiter on a single flag is EPERM */
    ScePthread t;
    STORE(ef_rc, 0);
    CHECK(scePthreadCreate(&t, NULL, ef_waiter, (void *)(long)(SCE_KERNEL_EVF_WAITMODE_AND | SCE_KERNEL_EVF_WAITMODE_CLEAR_ALL), "ef"), SCE_OK);
    while (!LOAD(ef_rc))
        scePthreadYield();
    int r;
    do {
        us = 0;
        r = sceKernelWaitEventFlag(ef, 0x100, SCE_KERNEL_EVF_WAITMODE_OR, &res, &us);
        if (r == SCE_KERNEL_ERROR_ETIMEDOUT)
            scePthreadYield();
    } while (r == SCE_KERNEL_ERROR_ETIMEDOUT);
    CHECK(r, SCE_KERNEL_ERROR_EPERM);
    CHECK(sceKernelSetEventFlag(ef, 0x1), SCE_OK);
    CHECK(sceKernelSetEventFlag(ef, 0x2), SCE_OK);
    CHECK(scePthreadJoin(t, NULL), SCE_OK);
    CHECK(ef_rc, SCE_OK);
    CHECK(ef_result, 0x3);
    CHECK(sceKernelPollEventFlag(ef, 0x3, SCE_KERNEL_EVF_WAITMODE_OR, &res), SCE_KERNEL_ERROR_EBUSY);
    /* cancel: ECANCELED, the pattern set, the number of waiters reported */
    STORE(ef_rc, 0);
    CHECK(scePthreadCreate(&t, NULL, ef_waiter, (void *)(long)SCE_KERNEL_EVF_WAITMODE_AND, "ef"), SCE_OK);
    int waiters = 0;
    do {
        scePthreadYield();
        CHECK(sceKernelCancelEventFlag(ef, 0x40, &waiters), SCE_OK);
    } while (waiters == 0);
    CHECK(waiters, 1);
    CHECK(scePthreadJoin(t, NULL), SCE_OK);
    CHECK(ef_rc, SCE_KERNEL_ERROR_ECANCELED);
    CHECK(ef_result, 0x40);
    /* delete: a waiter gets EACCES; later calls ESRCH */
    STORE(ef_rc, 0);
    CHECK(scePthreadCreate(&t, NULL, ef_waiter, (void *)(long)SCE_KERNEL_EVF_WAITMODE_AND, "ef"), SCE_OK);
    while (!LOAD(ef_rc))
        scePthreadYield();
    CHECK(sceKernelDeleteEventFlag(ef), SCE_OK);
    CHECK(scePthreadJoin(t, NULL), SCE_OK);
    r = LOAD(ef_rc);
    CHECK(r == SCE_KERNEL_ERROR_EACCES || r == SCE_KERNEL_ERROR_ESRCH, 1);
    CHECK(sceKernelSetEventFlag(ef, 1), SCE_KERNEL_ERROR_ESRCH);
    CHECK(sceKernelDeleteEventFlag(ef), SCE_KERNEL_ERROR_ESRCH);
    /* multi-waiter flag: waiters are satisfied in order, each after earlier clears */
    CHECK(sceKernelCreateEventFlag(&ef, "multi", SCE_KERNEL_EVF_ATTR_MULTI, 0, NULL), SCE_OK);
    CHECK(sceKernelSetEventFlag(ef, 0x3), SCE_OK);
    CHECK(sceKernelWaitEventFlag(ef, 0x1, SCE_KERNEL_EVF_WAITMODE_OR | SCE_KERNEL_EVF_WAITMODE_CLEAR_PAT, &res, NULL), SCE_OK);
    CHECK(res, 0x3);
    CHECK(sceKernelPollEventFlag(ef, 0x3, SCE_KERNEL_EVF_WAITMODE_AND, &res), SCE_KERNEL_ERROR_EBUSY);
    CHECK(res, 0x2);
    CHECK(sceKernelDeleteEventFlag(ef), SCE_OK);
    printf("event flags: ok\n");
}

int main(void) {
    mutexes();
    conds();
    rwlocks();
    barriers_and_spinlocks();
    semaphores();
    event_flags();
    printf("sync: %d failures\n", failures);
    return failures;
}
