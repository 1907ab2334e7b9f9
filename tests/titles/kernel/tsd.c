/* Thread-specific data with destructors, and FreeBSD cleanup push/pop. */
#include <kernel.h>
#include <pthread.h>
#include <string.h>
#include "check.h"

static ScePthreadKey key_a, key_b;
static int destructed_a, destructed_b;
static int again_rounds;

static void dtor_a(void *v) { destructed_a += (int)(long)v; }
static void dtor_b(void *v) {
    destructed_b++;
    /* A destructor that sets a value again gets another round (at most 4 in all). */
    if (++again_rounds < 10)
        scePthreadSetspecific(key_b, v);
}

static void *tsd_worker(void *arg) {
    CHECK(scePthreadGetspecific(key_a) == NULL, 1);
    CHECK(scePthreadSetspecific(key_a, arg), SCE_OK);
    CHECK(scePthreadGetspecific(key_a) == arg, 1);
    CHECK(scePthreadSetspecific(key_b, (void *)1), SCE_OK);
    return NULL;
}

static char log_buf[32];
static int log_len;
static void note(void *c) { log_buf[log_len++] = (char)(long)c; }

static void *cleanup_worker(void *arg) {
    (void)arg;
    pthread_cleanup_push(note, (void *)'a');
    pthread_cleanup_push(note, (void *)'b');
    pthread_cleanup_push(note, (void *)'c');
    pthread_cleanup_pop(1); /* runs c */
    pthread_cleanup_pop(0); /* drops b */
    note((void *)'-');
    pthread_cleanup_pop(1); /* runs a */
    pthread_cleanup_push(note, (void *)'x');
    pthread_cleanup_push(note, (void *)'y');
    /* exit runs the rest newest first */
    scePthreadExit((void *)7);
    pthread_cleanup_pop(0);
    pthread_cleanup_pop(0);
    return NULL;
}

int main(void) {
    CHECK(scePthreadKeyCreate(&key_a, dtor_a), SCE_OK);
    CHECK(scePthreadKeyCreate(&key_b, dtor_b), SCE_OK);
    CHECK(key_a != key_b, 1);
    CHECK(scePthreadKeyCreate(NULL, dtor_a), SCE_KERNEL_ERROR_EINVAL);

    /* main's values are its own */
    CHECK(scePthreadSetspecific(key_a, (void *)100), SCE_OK);
    ScePthread t[4];
    /* one at a time, so the destructor counts below are exact */
    for (int i = 0; i < 4; i++) {
        CHECK(scePthreadCreate(&t[i], NULL, tsd_worker, (void *)(long)(i + 1), "tsd"), SCE_OK);
        CHECK(scePthreadJoin(t[i], NULL), SCE_OK);
    }
    CHECK((long)scePthreadGetspecific(key_a), 100);
    CHECK(destructed_a, 1 + 2 + 3 + 4);
    /* dtor_b re-sets its value until it has run 10 times in all; each thread gets at most
     * PTHREAD_DESTRUCTOR_ITERATIONS (4) rounds: 4 + 4 + 2 (stops re-setting) + 1 */
    CHECK(destructed_b, 11);
    printf("keys: ok\n");

    /* deleting a key: values read as NULL, set is EINVAL, a new key starts empty */
    CHECK(scePthreadKeyDelete(key_a), SCE_OK);
    CHECK(scePthreadKeyDelete(key_a), SCE_KERNEL_ERROR_EINVAL);
    CHECK(scePthreadGetspecific(key_a) == NULL, 1);
    CHECK(scePthreadSetspecific(key_a, (void *)1), SCE_KERNEL_ERROR_EINVAL);
    ScePthreadKey k2;
    CHECK(scePthreadKeyCreate(&k2, NULL), SCE_OK);
    CHECK(scePthreadGetspecific(k2) == NULL, 1);
    CHECK(scePthreadGetspecific(12345) == NULL, 1);
    CHECK(scePthreadSetspecific(-1, NULL), SCE_KERNEL_ERROR_EINVAL);
    /* the POSIX names */
    pthread_key_t pk;
    CHECK(pthread_key_create(&pk, NULL), 0);
    CHECK(pthread_setspecific(pk, (void *)5), 0);
    CHECK((long)pthread_getspecific(pk), 5);
    CHECK(pthread_key_delete(pk), 0);
    CHECK(pthread_key_delete(pk), EINVAL);
    printf("key delete: ok\n");

    /* cleanup handlers */
    void *res;
    CHECK(scePthreadCreate(&t[0], NULL, cleanup_worker, NULL, "cleanup"), SCE_OK);
    CHECK(scePthreadJoin(t[0], &res), SCE_OK);
    CHECK((long)res, 7);
    log_buf[log_len] = 0;
    printf("cleanup: %s\n", log_buf);

    printf("tsd: %d failures\n", failures);
    return failures;
}
