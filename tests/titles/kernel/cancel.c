/* Thread cancellation, one rule per test (the reference architecture's contract). Pending
 * requests are set up with atomic gates, never with sleeps. Build with -DONLY=n to run
 * one rule. */
#include <kernel.h>
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
#include "check.h"

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)
#define WAIT_FOR(x) while (!LOAD(x)) scePthreadYield()

static int gate, ready, after, marker;
static char trail[16];
static int trail_len;
static void note(void *c) { trail[__atomic_fetch_add(&trail_len, 1, __ATOMIC_SEQ_CST)] = (char)(long)c; }

static void reset(void) {
    STORE(gate, 0);
    STORE(ready, 0);
    STORE(after, 0);
    STORE(marker, 0);
    memset(trail, 0, sizeof trail);
    STORE(trail_len, 0);
}

static void *join_result(ScePthread t) {
    void *r = (void *)0x5555;
    CHECK(scePthreadJoin(t, &r), SCE_OK);
    return r;
}

/* 1. New threads start with cancellation enabled and deferred. */
static void *defaults_worker(void *arg) {
    (void)arg;
    int st = -1, ty = -1;
    CHECK(scePthreadSetcancelstate(PTHREAD_CANCEL_ENABLE, &st), SCE_OK);
    CHECK(scePthreadSetcanceltype(PTHREAD_CANCEL_DEFERRED, &ty), SCE_OK);
    CHECK(st, PTHREAD_CANCEL_ENABLE);
    CHECK(ty, PTHREAD_CANCEL_DEFERRED);
    CHECK(scePthreadSetcancelstate(7, NULL), SCE_KERNEL_ERROR_EINVAL);
    CHECK(scePthreadSetcanceltype(7, NULL), SCE_KERNEL_ERROR_EINVAL);
    return NULL;
}
static void rule_defaults(void) {
    ScePthread t;
    CHECK(scePthreadCreate(&t, NULL, defaults_worker, NULL, "c1"), SCE_OK);
    CHECK(join_result(t) == NULL, 1);
    printf("defaults enabled+deferred: ok\n");
}

/* 2. A request never interrupts a running frame: the target runs on until a
 * cancellation point, then exits with PTHREAD_CANCELED (1). */
static void *running_worker(void *arg) {
    (void)arg;
    STORE(ready, 1);
    WAIT_FOR(gate); /* no cancellation point in here */
    STORE(after, 1);
    scePthreadTestcancel();
    STORE(marker, 1); /* not reached */
    return NULL;
}
static void rule_no_injection(void) {
    reset();
    ScePthread t;
    CHECK(scePthreadCreate(&t, NULL, running_worker, NULL, "c2"), SCE_OK);
    WAIT_FOR(ready);
    CHECK(scePthreadCancel(t), SCE_OK);
    STORE(gate, 1);
    CHECK(join_result(t) == PTHREAD_CANCELED, 1);
    CHECK(LOAD(after), 1);
    CHECK(LOAD(marker), 0);
    printf("deferred, no injection, result 1: ok\n");
}

/* 3. A disabled request stays pending; enabling deferred cancellation returns, and the
 * next cancellation point acts on it. */
static void *disabled_worker(void *arg) {
    (void)arg;
    CHECK(scePthreadSetcancelstate(PTHREAD_CANCEL_DISABLE, NULL), SCE_OK);
    STORE(ready, 1);
    WAIT_FOR(gate);
    scePthreadTestcancel(); /* disabled: no effect */
    STORE(after, 1);
    int old = -1;
    CHECK(scePthreadSetcancelstate(PTHREAD_CANCEL_ENABLE, &old), SCE_OK);
    CHECK(old, PTHREAD_CANCEL_DISABLE);
    STORE(after, 2); /* enabling returned */
    scePthreadTestcancel();
    STORE(marker, 1);
    return NULL;
}
static void rule_disabled_pending(void) {
    reset();
    ScePthread t;
    CHECK(scePthreadCreate(&t, NULL, disabled_worker, NULL, "c3"), SCE_OK);
    WAIT_FOR(ready);
    CHECK(scePthreadCancel(t), SCE_OK);
    STORE(gate, 1);
    CHECK(join_result(t) == PTHREAD_CANCELED, 1);
    CHECK(LOAD(after), 2);
    CHECK(LOAD(marker), 0);
    printf("disabled request stays pending: ok\n");
}

/* 4. A cancelled condition waiter reacquires its mutex before its cleanup handlers run;
 * the mutex and condition variable work afterwards. */
static ScePthreadMutex cm;
static ScePthreadCond cc;
static int unlock_rc = -1;
static void unlock_in_cleanup(void *arg) {
    (void)arg;
    unlock_rc = scePthreadMutexUnlock(&cm); /* errorcheck: EPERM unless we hold it */
}
static void *cond_worker(void *arg) {
    long timed = (long)arg;
    CHECK(scePthreadMutexLock(&cm), SCE_OK);
    pthread_cleanup_push(unlock_in_cleanup, NULL);
    STORE(ready, 1);
    for (;;) {
        if (timed)
            scePthreadCondTimedwait(&cc, &cm, 60u * 1000 * 1000);
        else
            scePthreadCondWait(&cc, &cm);
    }
    pthread_cleanup_pop(0);
    return NULL;
}
static void rule_cond(long timed) {
    reset();
    unlock_rc = -1;
    ScePthread t;
    CHECK(scePthreadCreate(&t, NULL, cond_worker, (void *)timed, "c4"), SCE_OK);
    WAIT_FOR(ready);
    /* Getting the mutex proves the worker released it inside the wait. */
    CHECK(scePthreadMutexLock(&cm), SCE_OK);
    CHECK(scePthreadCancel(t), SCE_OK);
    CHECK(scePthreadMutexUnlock(&cm), SCE_OK);
    CHECK(join_result(t) == PTHREAD_CANCELED, 1);
    CHECK(unlock_rc, SCE_OK);
    /* reuse */
    CHECK(scePthreadMutexLock(&cm), SCE_OK);
    CHECK(scePthreadCondTimedwait(&cc, &cm, 1000), SCE_KERNEL_ERROR_ETIMEDOUT);
    CHECK(scePthreadMutexUnlock(&cm), SCE_OK);
    printf("%s condition waiter reacquires its mutex: ok\n", timed ? "timed" : "untimed");
}

/* 5. Cancellation disabled during a timed condition wait: the request does not end the
 * wait (it times out), and acts at the next cancellation point once enabled. */
static void *disabled_cond_worker(void *arg) {
    (void)arg;
    CHECK(scePthreadSetcancelstate(PTHREAD_CANCEL_DISABLE, NULL), SCE_OK);
    CHECK(scePthreadMutexLock(&cm), SCE_OK);
    STORE(ready, 1);
    int rc;
    do
        rc = scePthreadCondTimedwait(&cc, &cm, 300 * 1000);
    while (rc == SCE_OK);
    CHECK(rc, SCE_KERNEL_ERROR_ETIMEDOUT);
    CHECK(scePthreadMutexUnlock(&cm), SCE_OK);
    STORE(after, 1);
    CHECK(scePthreadSetcancelstate(PTHREAD_CANCEL_ENABLE, NULL), SCE_OK);
    scePthreadTestcancel();
    STORE(marker, 1);
    return NULL;
}
static void rule_disabled_cond(void) {
    reset();
    ScePthread t;
    CHECK(scePthreadCreate(&t, NULL, disabled_cond_worker, NULL, "c5"), SCE_OK);
    WAIT_FOR(ready);
    CHECK(scePthreadMutexLock(&cm), SCE_OK);
    CHECK(scePthreadCancel(t), SCE_OK);
    CHECK(scePthreadMutexUnlock(&cm), SCE_OK);
    CHECK(join_result(t) == PTHREAD_CANCELED, 1);
    CHECK(LOAD(after), 1);
    CHECK(LOAD(marker), 0);
    printf("disabled timed condition wait times out: ok\n");
}

/* 6. A request pending on entry to a semaphore wait is acted on before an available
 * token is taken (POSIX and kernel semaphores). */
static sem_t psem;
static SceKernelSema ksem;
static void *sem_entry_worker(void *arg) {
    long kernel = (long)arg;
    STORE(ready, 1);
    WAIT_FOR(gate);
    if (kernel)
        sceKernelWaitSema(ksem, 1, NULL);
    else
        sem_wait(&psem);
    STORE(marker, 1);
    return NULL;
}
static void rule_sem_entry(void) {
    reset();
    CHECK(sem_init(&psem, 0, 1), 0);
    CHECK(sceKernelCreateSema(&ksem, "k", SCE_KERNEL_SEMA_ATTR_TH_FIFO, 1, 4, NULL), SCE_OK);
    for (long kernel = 0; kernel < 2; kernel++) {
        reset();
        ScePthread t;
        CHECK(scePthreadCreate(&t, NULL, sem_entry_worker, (void *)kernel, "c6"), SCE_OK);
        WAIT_FOR(ready);
        CHECK(scePthreadCancel(t), SCE_OK);
        STORE(gate, 1);
        CHECK(join_result(t) == PTHREAD_CANCELED, 1);
        CHECK(LOAD(marker), 0);
    }
    int v = -1;
    CHECK(sem_getvalue(&psem, &v), 0);
    CHECK(v, 1);
    CHECK(sceKernelPollSema(ksem, 1), SCE_OK);
    printf("pending request beats an available token: ok\n");
}

/* 7. A blocked semaphore waiter is woken by the request and exits; the semaphore's
 * internal lock is released, so it works afterwards. */
static void *sem_block_worker(void *arg) {
    long kernel = (long)arg;
    STORE(ready, 1);
    if (kernel)
        sceKernelWaitSema(ksem, 1, NULL);
    else
        sem_wait(&psem);
    STORE(marker, 1);
    return NULL;
}
static void rule_sem_blocked(void) {
    CHECK(sem_init(&psem, 0, 0), 0);
    CHECK(sceKernelCreateSema(&ksem, "k2", SCE_KERNEL_SEMA_ATTR_TH_FIFO, 0, 4, NULL), SCE_OK);
    for (long kernel = 0; kernel < 2; kernel++) {
        reset();
        ScePthread t;
        CHECK(scePthreadCreate(&t, NULL, sem_block_worker, (void *)kernel, "c7"), SCE_OK);
        WAIT_FOR(ready);
        CHECK(scePthreadCancel(t), SCE_OK);
        CHECK(join_result(t) == PTHREAD_CANCELED, 1);
        CHECK(LOAD(marker), 0);
    }
    CHECK(sem_post(&psem), 0);
    CHECK(sem_wait(&psem), 0);
    CHECK(sceKernelSignalSema(ksem, 2), SCE_OK);
    SceKernelUseconds us = 1000;
    CHECK(sceKernelWaitSema(ksem, 2, &us), SCE_OK);
    CHECK(sceKernelDeleteSema(ksem), SCE_OK);
    CHECK(sem_destroy(&psem), 0);
    printf("blocked semaphore waiter exits, semaphore reusable: ok\n");
}

/* 8. A cancelled join leaves its target joinable and its result output untouched. */
static ScePthread target;
static void *target_worker(void *arg) {
    (void)arg;
    WAIT_FOR(gate);
    return (void *)77;
}
static void *res_slot;
static void *joiner_worker(void *arg) {
    (void)arg;
    STORE(ready, 1);
    scePthreadJoin(target, &res_slot);
    STORE(marker, 1);
    return NULL;
}
static void rule_join(void) {
    reset();
    res_slot = (void *)0x1234;
    ScePthread j;
    CHECK(scePthreadCreate(&target, NULL, target_worker, NULL, "target"), SCE_OK);
    CHECK(scePthreadCreate(&j, NULL, joiner_worker, NULL, "joiner"), SCE_OK);
    WAIT_FOR(ready);
    CHECK(scePthreadCancel(j), SCE_OK);
    CHECK(join_result(j) == PTHREAD_CANCELED, 1);
    CHECK(LOAD(marker), 0);
    CHECK(res_slot == (void *)0x1234, 1);
    STORE(gate, 1);
    CHECK(join_result(target) == (void *)77, 1);
    printf("cancelled join leaves target joinable: ok\n");
}

/* 9. Cleanup handlers run newest first, before thread-specific destructors. */
static ScePthreadKey key;
static void key_dtor(void *v) { note(v); }
static void *order_worker(void *arg) {
    (void)arg;
    scePthreadSetspecific(key, (void *)'D');
    pthread_cleanup_push(note, (void *)'A');
    pthread_cleanup_push(note, (void *)'B');
    pthread_cleanup_push(note, (void *)'C');
    STORE(ready, 1);
    WAIT_FOR(gate);
    scePthreadTestcancel();
    pthread_cleanup_pop(0);
    pthread_cleanup_pop(0);
    pthread_cleanup_pop(0);
    return NULL;
}
static void rule_order(void) {
    reset();
    CHECK(scePthreadKeyCreate(&key, key_dtor), SCE_OK);
    ScePthread t;
    CHECK(scePthreadCreate(&t, NULL, order_worker, NULL, "c9"), SCE_OK);
    WAIT_FOR(ready);
    CHECK(scePthreadCancel(t), SCE_OK);
    STORE(gate, 1);
    CHECK(join_result(t) == PTHREAD_CANCELED, 1);
    printf("cleanup order: %s\n", trail);
}

/* 10. Repeated requests do not add cleanup invocations. */
static void *repeat_worker(void *arg) {
    (void)arg;
    pthread_cleanup_push(note, (void *)'R');
    STORE(ready, 1);
    WAIT_FOR(gate);
    scePthreadTestcancel();
    pthread_cleanup_pop(0);
    return NULL;
}
static void rule_repeat(void) {
    reset();
    ScePthread t;
    CHECK(scePthreadCreate(&t, NULL, repeat_worker, NULL, "c10"), SCE_OK);
    WAIT_FOR(ready);
    for (int i = 0; i < 3; i++)
        CHECK(scePthreadCancel(t), SCE_OK);
    STORE(gate, 1);
    CHECK(join_result(t) == PTHREAD_CANCELED, 1);
    CHECK(scePthreadCancel(t), SCE_KERNEL_ERROR_ESRCH); /* joined: gone */
    printf("repeated requests: %s\n", trail);
}

/* 11. Cancellation points inside a cleanup handler do not start another exit. */
static void reentrant(void *arg) {
    (void)arg;
    note((void *)'1');
    scePthreadTestcancel();
    CHECK(scePthreadMutexLock(&cm), SCE_OK);
    CHECK(scePthreadCondTimedwait(&cc, &cm, 1000), SCE_KERNEL_ERROR_ETIMEDOUT);
    CHECK(scePthreadMutexUnlock(&cm), SCE_OK);
    note((void *)'2');
}
static void *reentry_worker(void *arg) {
    (void)arg;
    pthread_cleanup_push(note, (void *)'0');
    pthread_cleanup_push(reentrant, NULL);
    STORE(ready, 1);
    WAIT_FOR(gate);
    scePthreadTestcancel();
    pthread_cleanup_pop(0);
    pthread_cleanup_pop(0);
    return NULL;
}
static void rule_reentry(void) {
    reset();
    ScePthread t;
    CHECK(scePthreadCreate(&t, NULL, reentry_worker, NULL, "c11"), SCE_OK);
    WAIT_FOR(ready);
    CHECK(scePthreadCancel(t), SCE_OK);
    STORE(gate, 1);
    CHECK(join_result(t) == PTHREAD_CANCELED, 1);
    printf("cancellation points in cleanup: %s\n", trail);
}

/* 12. Asynchronous type does not inject either: the request acts at the next
 * cancellation point (or when the thread itself switches to asynchronous type). */
static void *async_worker(void *arg) {
    (void)arg;
    CHECK(scePthreadSetcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL), SCE_OK);
    STORE(ready, 1);
    WAIT_FOR(gate);
    STORE(after, 1);
    scePthreadTestcancel();
    STORE(marker, 1);
    return NULL;
}
static void *async_switch_worker(void *arg) {
    (void)arg;
    STORE(ready, 1);
    WAIT_FOR(gate);
    STORE(after, 1);
    scePthreadSetcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL); /* acts here */
    STORE(marker, 1);
    return NULL;
}
static void rule_async(void) {
    void *(*workers[2])(void *) = {async_worker, async_switch_worker};
    for (int i = 0; i < 2; i++) {
        reset();
        ScePthread t;
        CHECK(scePthreadCreate(&t, NULL, workers[i], NULL, "c12"), SCE_OK);
        WAIT_FOR(ready);
        CHECK(scePthreadCancel(t), SCE_OK);
        STORE(gate, 1);
        CHECK(join_result(t) == PTHREAD_CANCELED, 1);
        CHECK(LOAD(after), 1);
        CHECK(LOAD(marker), 0);
    }
    printf("asynchronous type acts only at calls: ok\n");
}

/* 13. Cancelling a thread that has already exited (and was never joined) succeeds;
 * an unknown handle is ESRCH. The POSIX names return errno values. */
static void *quick(void *arg) { return arg; }
static void rule_exited(void) {
    ScePthread t;
    CHECK(scePthreadCreate(&t, NULL, quick, (void *)3, "c13"), SCE_OK);
    CHECK(join_result(t) == (void *)3, 1);
    CHECK(scePthreadCreate(&t, NULL, quick, (void *)4, "c13b"), SCE_OK);
    CHECK(pthread_cancel((pthread_t)t), 0);
    void *r = join_result(t);
    CHECK(r == (void *)4 || r == PTHREAD_CANCELED, 1);
    CHECK(pthread_cancel((pthread_t)t), ESRCH);
    CHECK(pthread_setcancelstate(9, NULL), EINVAL);
    printf("cancel of an exited thread: ok\n");
}

/* 14. A once routine cancelled at a cancellation point leaves the once object untried:
 * the next caller runs its routine. */
static ScePthreadOnce once_obj = PTHREAD_ONCE_INIT;
static int once_runs;
static void once_cancelled_init(void) {
    STORE(ready, 1);
    WAIT_FOR(gate);
    scePthreadTestcancel();
    STORE(marker, 1);
}
static void once_second_init(void) { once_runs++; }
static void *once_worker(void *arg) {
    (void)arg;
    scePthreadOnce(&once_obj, once_cancelled_init);
    STORE(marker, 2);
    return NULL;
}
static void rule_once(void) {
    reset();
    ScePthread t;
    CHECK(scePthreadCreate(&t, NULL, once_worker, NULL, "c14"), SCE_OK);
    WAIT_FOR(ready);
    CHECK(scePthreadCancel(t), SCE_OK);
    STORE(gate, 1);
    CHECK(join_result(t) == PTHREAD_CANCELED, 1);
    CHECK(LOAD(marker), 0);
    CHECK(scePthreadOnce(&once_obj, once_second_init), SCE_OK);
    CHECK(scePthreadOnce(&once_obj, once_second_init), SCE_OK);
    CHECK(once_runs, 1);
    printf("cancelled once routine can run again: ok\n");
}

int main(void) {
    void (*rules[])(void) = {
        rule_defaults, rule_no_injection, rule_disabled_pending, NULL, NULL,
        rule_disabled_cond, rule_sem_entry, rule_sem_blocked, rule_join, rule_order,
        rule_repeat, rule_reentry, rule_async, rule_exited, rule_once,
    };
    int n = (int)(sizeof rules / sizeof rules[0]);
    for (int i = 0; i < n; i++) {
#ifdef ONLY
        if (i != ONLY)
            continue;
#endif
        if (i == 3)
            rule_cond(0);
        else if (i == 4)
            rule_cond(1);
        else
            rules[i]();
    }
    printf("cancel: %d failures\n", failures);
    return failures;
}
