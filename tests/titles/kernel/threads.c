/* Thread creation, attributes, join/detach/exit, names, priorities, affinity, once. */
#include <kernel.h>
#include <pthread.h>
#include <string.h>
#include "check.h"

static void *ret_arg(void *arg) { return arg; }

static void *exits_early(void *arg) {
    scePthreadExit((void *)((long)arg + 1));
    return NULL; /* not reached */
}

static volatile int detached_ran;
static void *detached_entry(void *arg) {
    (void)arg;
    __atomic_store_n(&detached_ran, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

static void *reports_self(void *arg) {
    ScePthread *out = arg;
    *out = scePthreadSelf();
    char name[32];
    scePthreadGetname(scePthreadSelf(), name);
    return (void *)(long)(strcmp(name, "worker-7") == 0);
}

static void *reports_prio(void *arg) {
    (void)arg;
    int prio = 0;
    scePthreadGetprio(scePthreadSelf(), &prio);
    return (void *)(long)prio;
}

static int once_count;
static ScePthreadOnce once = PTHREAD_ONCE_INIT;
static void once_fn(void) { once_count++; }
static void *calls_once(void *arg) {
    (void)arg;
    scePthreadOnce(&once, once_fn);
    return NULL;
}

static void *posix_entry(void *arg) { return (void *)((long)arg * 2); }

int main(void) {
    ScePthread t;
    void *res = NULL;

    /* create + join with a result; join again is ESRCH (the thread is gone) */
    CHECK(scePthreadCreate(&t, NULL, ret_arg, (void *)42, "ret"), SCE_OK);
    CHECK(scePthreadJoin(t, &res), SCE_OK);
    CHECK((long)res, 42);
    CHECK(scePthreadJoin(t, &res), SCE_KERNEL_ERROR_ESRCH);
    printf("create/join: ok\n");

    /* scePthreadExit from a nested frame */
    CHECK(scePthreadCreate(&t, NULL, exits_early, (void *)9, "exit"), SCE_OK);
    CHECK(scePthreadJoin(t, &res), SCE_OK);
    CHECK((long)res, 10);
    printf("exit: ok\n");

    /* argument errors */
    CHECK(scePthreadCreate(&t, NULL, NULL, NULL, "x"), SCE_KERNEL_ERROR_EINVAL);
    CHECK(scePthreadCreate(NULL, NULL, ret_arg, NULL, "x"), SCE_KERNEL_ERROR_EINVAL);
    CHECK(scePthreadJoin(scePthreadSelf(), &res), SCE_KERNEL_ERROR_EDEADLK);
    printf("errors: ok\n");

    /* attributes: round trips and validation */
    ScePthreadAttr attr;
    size_t size = 0;
    int v = -1;
    SceKernelSchedParam sp;
    SceKernelCpumask mask = 0;
    CHECK(scePthreadAttrInit(&attr), SCE_OK);
    CHECK(scePthreadAttrGetstacksize(&attr, &size), SCE_OK);
    CHECK(size > 0, 1);
    CHECK(scePthreadAttrSetstacksize(&attr, 1024), SCE_KERNEL_ERROR_EINVAL);
    CHECK(scePthreadAttrSetstacksize(&attr, 256 * 1024), SCE_OK);
    CHECK(scePthreadAttrGetstacksize(&attr, &size), SCE_OK);
    CHECK(size, 256 * 1024);
    CHECK(scePthreadAttrGetdetachstate(&attr, &v), SCE_OK);
    CHECK(v, PTHREAD_CREATE_JOINABLE);
    CHECK(scePthreadAttrSetdetachstate(&attr, 7), SCE_KERNEL_ERROR_EINVAL);
    CHECK(scePthreadAttrSetguardsize(&attr, 8192), SCE_OK);
    CHECK(scePthreadAttrGetguardsize(&attr, &size), SCE_OK);
    CHECK(size, 8192);
    CHECK(scePthreadAttrGetinheritsched(&attr, &v), SCE_OK);
    CHECK(v, PTHREAD_INHERIT_SCHED);
    CHECK(scePthreadAttrSetinheritsched(&attr, PTHREAD_EXPLICIT_SCHED), SCE_OK);
    sp.sched_priority = 100;
    CHECK(scePthreadAttrSetschedparam(&attr, &sp), SCE_KERNEL_ERROR_EINVAL);
    sp.sched_priority = 300;
    CHECK(scePthreadAttrSetschedparam(&attr, &sp), SCE_OK);
    sp.sched_priority = 0;
    CHECK(scePthreadAttrGetschedparam(&attr, &sp), SCE_OK);
    CHECK(sp.sched_priority, 300);
    CHECK(scePthreadAttrSetschedpolicy(&attr, SCHED_FIFO), SCE_OK);
    CHECK(scePthreadAttrGetschedpolicy(&attr, &v), SCE_OK);
    CHECK(v, SCHED_FIFO);
    CHECK(scePthreadAttrSetaffinity(&attr, 0), SCE_KERNEL_ERROR_EINVAL);
    CHECK(scePthreadAttrSetaffinity(&attr, 0x5), SCE_OK);
    CHECK(scePthreadAttrGetaffinity(&attr, &mask), SCE_OK);
    CHECK(mask, 0x5);
    /* a thread created with these attributes runs at the explicit priority */
    CHECK(scePthreadCreate(&t, &attr, reports_prio, NULL, "prio"), SCE_OK);
    CHECK(scePthreadJoin(t, &res), SCE_OK);
    CHECK((long)res, 300);
    CHECK(scePthreadAttrDestroy(&attr), SCE_OK);
    CHECK(scePthreadAttrDestroy(NULL), SCE_KERNEL_ERROR_EINVAL);
    printf("attributes: ok\n");

    /* a caller-provided stack */
    static char stack[512 * 1024] __attribute__((aligned(64)));
    void *addr = NULL;
    CHECK(scePthreadAttrInit(&attr), SCE_OK);
    CHECK(scePthreadAttrSetstack(&attr, stack, sizeof stack), SCE_OK);
    CHECK(scePthreadAttrGetstack(&attr, &addr, &size), SCE_OK);
    CHECK(addr == (void *)stack && size == sizeof stack, 1);
    CHECK(scePthreadCreate(&t, &attr, ret_arg, (void *)5, "stack"), SCE_OK);
    CHECK(scePthreadJoin(t, &res), SCE_OK);
    CHECK((long)res, 5);
    scePthreadAttrDestroy(&attr);
    printf("stack: ok\n");

    /* detached through attributes: join is EINVAL; it still runs */
    CHECK(scePthreadAttrInit(&attr), SCE_OK);
    CHECK(scePthreadAttrSetdetachstate(&attr, PTHREAD_CREATE_DETACHED), SCE_OK);
    CHECK(scePthreadCreate(&t, &attr, detached_entry, NULL, "detached"), SCE_OK);
    int r = scePthreadJoin(t, &res);
    CHECK(r == SCE_KERNEL_ERROR_EINVAL || r == SCE_KERNEL_ERROR_ESRCH, 1);
    scePthreadAttrDestroy(&attr);
    while (!__atomic_load_n(&detached_ran, __ATOMIC_SEQ_CST))
        scePthreadYield();
    /* detached later: a second detach is EINVAL */
    CHECK(scePthreadCreate(&t, NULL, ret_arg, NULL, "later"), SCE_OK);
    CHECK(scePthreadDetach(t), SCE_OK);
    r = scePthreadDetach(t);
    CHECK(r == SCE_KERNEL_ERROR_EINVAL || r == SCE_KERNEL_ERROR_ESRCH, 1);
    printf("detach: ok\n");

    /* self, equal, names */
    ScePthread seen = NULL;
    CHECK(scePthreadCreate(&t, NULL, reports_self, &seen, "worker-7"), SCE_OK);
    ScePthread created = t;
    CHECK(scePthreadJoin(t, &res), SCE_OK);
    CHECK((long)res, 1);
    CHECK(scePthreadEqual(seen, created) != 0, 1);
    CHECK(scePthreadEqual(scePthreadSelf(), created), 0);
    CHECK(scePthreadEqual(scePthreadSelf(), scePthreadSelf()) != 0, 1);
    char name[32];
    CHECK(scePthreadRename(scePthreadSelf(), "main-renamed"), SCE_OK);
    CHECK(scePthreadGetname(scePthreadSelf(), name), SCE_OK);
    CHECK(strcmp(name, "main-renamed"), 0);
    CHECK(scePthreadRename(scePthreadSelf(), NULL), SCE_KERNEL_ERROR_EINVAL);
    printf("self/equal/names: ok\n");

    /* priorities 256..767 and affinity */
    int prio = 0;
    CHECK(scePthreadGetprio(scePthreadSelf(), &prio), SCE_OK);
    CHECK(prio, SCE_KERNEL_PRIO_FIFO_DEFAULT);
    CHECK(scePthreadSetprio(scePthreadSelf(), 255), SCE_KERNEL_ERROR_EINVAL);
    CHECK(scePthreadSetprio(scePthreadSelf(), 768), SCE_KERNEL_ERROR_EINVAL);
    CHECK(scePthreadSetprio(scePthreadSelf(), 256), SCE_OK);
    CHECK(scePthreadGetprio(scePthreadSelf(), &prio), SCE_OK);
    CHECK(prio, 256);
    CHECK(scePthreadSetprio(scePthreadSelf(), 767), SCE_OK);
    /* inherited by a new thread (default attributes inherit) */
    CHECK(scePthreadCreate(&t, NULL, reports_prio, NULL, "inherit"), SCE_OK);
    CHECK(scePthreadJoin(t, &res), SCE_OK);
    CHECK((long)res, 767);
    int policy = 0;
    sp.sched_priority = 400;
    CHECK(scePthreadSetschedparam(scePthreadSelf(), SCHED_RR, &sp), SCE_OK);
    sp.sched_priority = 0;
    CHECK(scePthreadGetschedparam(scePthreadSelf(), &policy, &sp), SCE_OK);
    CHECK(policy, SCHED_RR);
    CHECK(sp.sched_priority, 400);
    CHECK(scePthreadSetaffinity(scePthreadSelf(), 0), SCE_KERNEL_ERROR_EINVAL);
    CHECK(scePthreadSetaffinity(scePthreadSelf(), 0x3), SCE_OK);
    CHECK(scePthreadGetaffinity(scePthreadSelf(), &mask), SCE_OK);
    CHECK(mask, 0x3);
    CHECK(scePthreadGetprio(created, &prio), SCE_KERNEL_ERROR_ESRCH);
    printf("priority/affinity: ok\n");

    /* once: eight threads, one call */
    ScePthread ts[8];
    for (int i = 0; i < 8; i++)
        CHECK(scePthreadCreate(&ts[i], NULL, calls_once, NULL, "once"), SCE_OK);
    for (int i = 0; i < 8; i++)
        CHECK(scePthreadJoin(ts[i], NULL), SCE_OK);
    CHECK(scePthreadOnce(&once, once_fn), SCE_OK);
    CHECK(once_count, 1);
    printf("once: ok\n");

    /* the POSIX names return errno values */
    pthread_t p;
    CHECK(pthread_create(&p, NULL, posix_entry, (void *)21), 0);
    CHECK(pthread_join(p, &res), 0);
    CHECK((long)res, 42);
    CHECK(pthread_join(p, &res), ESRCH);
    CHECK(pthread_join(pthread_self(), &res), EDEADLK);
    CHECK(pthread_equal(pthread_self(), (pthread_t)scePthreadSelf()) != 0, 1);
    CHECK(pthread_setprio(pthread_self(), 10), EINVAL);
    pthread_attr_t pa;
    CHECK(pthread_attr_init(&pa), 0);
    CHECK(pthread_attr_setstacksize(&pa, 1), EINVAL);
    CHECK(pthread_attr_destroy(&pa), 0);
    CHECK(pthread_yield(), 0);
    CHECK(pthread_getthreadid_np() > 0, 1);
    printf("posix: ok\n");

    printf("threads: %d failures\n", failures);
    return failures;
}
