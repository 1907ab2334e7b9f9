/* Stress, bounded to seconds: 16 threads x 1,000,000 mutex lock/unlock with an exact
 * count; producer/consumer over condition variables and over semaphores with no lost
 * wakeup; an event-flag storm. Timing lines start with "time:"; the rest of stdout is exact. */
#include <kernel.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
#include "check.h"

#define THREADS 16
#define ITERS 1000000

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static ScePthreadMutex m;
static long counter;
static void *mutex_worker(void *arg) {
    (void)arg;
    for (int i = 0; i < ITERS; i++) {
        scePthreadMutexLock(&m);
        counter++;
        scePthreadMutexUnlock(&m);
    }
    return NULL;
}

static void mutex_stress(void) {
    /* uncontended first: one thread, the same loop */
    double t0 = now();
    mutex_worker(NULL);
    printf("time: uncontended lock+unlock %.1f ns\n", (now() - t0) * 1e9 / ITERS);
    counter = 0;
    ScePthread t[THREADS];
    t0 = now();
    for (int i = 0; i < THREADS; i++)
        CHECK(scePthreadCreate(&t[i], NULL, mutex_worker, NULL, "mutex"), SCE_OK);
    for (int i = 0; i < THREADS; i++)
        CHECK(scePthreadJoin(t[i], NULL), SCE_OK);
    printf("time: mutex 16x1000000 in %.3f s\n", now() - t0);
    CHECK(counter, (long)THREADS * ITERS);
    printf("mutex: %ld\n", counter);
}

/* Bounded buffer over one mutex and two condition variables. */
#define QUEUE 8
#define PRODUCERS 4
#define CONSUMERS 4
#define ITEMS 50000
static ScePthreadMutex qm;
static ScePthreadCond not_full, not_empty;
static long queue[QUEUE];
static int head, count, done_producers;
static long consumed_sum, consumed_items;

static void *cv_producer(void *arg) {
    long base = (long)arg * ITEMS;
    for (long i = 1; i <= ITEMS; i++) {
        scePthreadMutexLock(&qm);
        while (count == QUEUE)
            scePthreadCondWait(&not_full, &qm);
        queue[(head + count) % QUEUE] = base + i;
        count++;
        scePthreadCondSignal(&not_empty);
        scePthreadMutexUnlock(&qm);
    }
    scePthreadMutexLock(&qm);
    done_producers++;
    scePthreadCondBroadcast(&not_empty);
    scePthreadMutexUnlock(&qm);
    return NULL;
}
static void *cv_consumer(void *arg) {
    (void)arg;
    long sum = 0, items = 0;
    for (;;) {
        scePthreadMutexLock(&qm);
        while (count == 0 && done_producers < PRODUCERS)
            scePthreadCondWait(&not_empty, &qm);
        if (count == 0) {
            scePthreadMutexUnlock(&qm);
            break;
        }
        sum += queue[head];
        head = (head + 1) % QUEUE;
        count--;
        items++;
        scePthreadCondSignal(&not_full);
        scePthreadMutexUnlock(&qm);
    }
    scePthreadMutexLock(&qm);
    consumed_sum += sum;
    consumed_items += items;
    scePthreadMutexUnlock(&qm);
    return NULL;
}

static long expected_sum(void) {
    long s = 0;
    for (long p = 0; p < PRODUCERS; p++)
        s += p * ITEMS * ITEMS + (long)ITEMS * (ITEMS + 1) / 2;
    return s;
}

static void cond_stress(void) {
    ScePthread p[PRODUCERS], c[CONSUMERS];
    double t0 = now();
    for (int i = 0; i < CONSUMERS; i++)
        CHECK(scePthreadCreate(&c[i], NULL, cv_consumer, NULL, "consumer"), SCE_OK);
    for (long i = 0; i < PRODUCERS; i++)
        CHECK(scePthreadCreate(&p[i], NULL, cv_producer, (void *)i, "producer"), SCE_OK);
    for (int i = 0; i < PRODUCERS; i++)
        CHECK(scePthreadJoin(p[i], NULL), SCE_OK);
    for (int i = 0; i < CONSUMERS; i++)
        CHECK(scePthreadJoin(c[i], NULL), SCE_OK);
    printf("time: condvar producer/consumer %d items in %.3f s\n",
        PRODUCERS * ITEMS, now() - t0);
    CHECK(consumed_items, PRODUCERS * ITEMS);
    CHECK(consumed_sum, expected_sum());
    printf("condvar queue: %ld items\n", consumed_items);
}

/* The same queue over counting semaphores: POSIX sem_t for slots, kernel semaphores for
 * items, one spin of the index under a mutex. */
static sem_t slots;
static SceKernelSema items_sema;
static ScePthreadMutex sm;
static long ring[QUEUE];
static int in_pos, out_pos;
static long sem_sum, sem_items;

static void *sem_producer(void *arg) {
    long base = (long)arg * ITEMS;
    for (long i = 1; i <= ITEMS; i++) {
        sem_wait(&slots);
        scePthreadMutexLock(&sm);
        ring[in_pos] = base + i;
        in_pos = (in_pos + 1) % QUEUE;
        scePthreadMutexUnlock(&sm);
        sceKernelSignalSema(items_sema, 1);
    }
    return NULL;
}
static void *sem_consumer(void *arg) {
    long n = (long)arg, sum = 0;
    for (long i = 0; i < n; i++) {
        sceKernelWaitSema(items_sema, 1, NULL);
        scePthreadMutexLock(&sm);
        sum += ring[out_pos];
        out_pos = (out_pos + 1) % QUEUE;
        scePthreadMutexUnlock(&sm);
        sem_post(&slots);
    }
    scePthreadMutexLock(&sm);
    sem_sum += sum;
    sem_items += n;
    scePthreadMutexUnlock(&sm);
    return NULL;
}

static void sem_stress(void) {
    CHECK(sem_init(&slots, 0, QUEUE), 0);
    CHECK(sceKernelCreateSema(&items_sema, "items", SCE_KERNEL_SEMA_ATTR_TH_FIFO, 0, QUEUE, NULL), SCE_OK);
    ScePthread p[PRODUCERS], c[CONSUMERS];
    double t0 = now();
    for (int i = 0; i < CONSUMERS; i++)
        CHECK(scePthreadCreate(&c[i], NULL, sem_consumer, (void *)(long)ITEMS, "consumer"), SCE_OK);
    for (long i = 0; i < PRODUCERS; i++)
        CHECK(scePthreadCreate(&p[i], NULL, sem_producer, (void *)i, "producer"), SCE_OK);
    for (int i = 0; i < PRODUCERS; i++)
        CHECK(scePthreadJoin(p[i], NULL), SCE_OK);
    for (int i = 0; i < CONSUMERS; i++)
        CHECK(scePthreadJoin(c[i], NULL), SCE_OK);
    printf("time: semaphore producer/consumer %d items in %.3f s\n",
        PRODUCERS * ITEMS, now() - t0);
    CHECK(sem_items, PRODUCERS * ITEMS);
    CHECK(sem_sum, expected_sum());
    int v = -1;
    CHECK(sem_getvalue(&slots, &v), 0);
    CHECK(v, QUEUE);
    CHECK(sceKernelPollSema(items_sema, 1), SCE_KERNEL_ERROR_EBUSY);
    printf("semaphore queue: %ld items\n", sem_items);
}

/* Event-flag storm: a ring of 8 threads passes a token bit by bit (each waits for its own
 * bit with CLEAR_PAT, then sets the next), while 4 noise threads set and clear bits no
 * ring member waits on. */
#define RING 8
#define LAPS 5000
static SceKernelEventFlag storm;
static long passes;
static int noise_stop;
static void *ring_member(void *arg) {
    long i = (long)arg;
    uint64_t mine = 1ull << i, next = 1ull << ((i + 1) % RING);
    for (int lap = 0; lap < LAPS; lap++) {
        uint64_t res = 0;
        if (sceKernelWaitEventFlag(storm, mine, SCE_KERNEL_EVF_WAITMODE_OR | SCE_KERNEL_EVF_WAITMODE_CLEAR_PAT, &res, NULL) != SCE_OK)
            failures++;
        if (!(res & mine))
            failures++;
        __atomic_fetch_add(&passes, 1, __ATOMIC_SEQ_CST);
        sceKernelSetEventFlag(storm, next);
    }
    return NULL;
}
static void *noise(void *arg) {
    uint64_t bit = 1ull << (32 + (long)arg);
    while (!__atomic_load_n(&noise_stop, __ATOMIC_SEQ_CST)) {
        sceKernelSetEventFlag(storm, bit);
        sceKernelClearEventFlag(storm, ~bit);
        /* on a host with fewer cores than threads, leave the ring some time */
        scePthreadYield();
    }
    return NULL;
}
static void event_storm(void) {
    CHECK(sceKernelCreateEventFlag(&storm, "storm", SCE_KERNEL_EVF_ATTR_MULTI, 0, NULL), SCE_OK);
    ScePthread r[RING], n[4];
    double t0 = now();
    for (long i = 0; i < RING; i++)
        CHECK(scePthreadCreate(&r[i], NULL, ring_member, (void *)i, "ring"), SCE_OK);
    for (long i = 0; i < 4; i++)
        CHECK(scePthreadCreate(&n[i], NULL, noise, (void *)i, "noise"), SCE_OK);
    CHECK(sceKernelSetEventFlag(storm, 1), SCE_OK);
    for (int i = 0; i < RING; i++)
        CHECK(scePthreadJoin(r[i], NULL), SCE_OK);
    __atomic_store_n(&noise_stop, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 4; i++)
        CHECK(scePthreadJoin(n[i], NULL), SCE_OK);
    printf("time: event-flag ring %d passes in %.3f s\n", RING * LAPS, now() - t0);
    CHECK(passes, RING * LAPS);
    uint64_t res = 0;
    /* the token ends back at bit 0 */
    CHECK(sceKernelPollEventFlag(storm, 1, SCE_KERNEL_EVF_WAITMODE_OR, &res), SCE_OK);
    CHECK(sceKernelDeleteEventFlag(storm), SCE_OK);
    printf("event-flag storm: %ld passes\n", passes);
}

int main(void) {
    mutex_stress();
    cond_stress();
    sem_stress();
    event_storm();
    printf("stress: %d failures\n", failures);
    return failures;
}
