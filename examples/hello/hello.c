/* The built-in example title: what `native5 relink` + `native5 run` show on a fresh
 * machine. It prints, allocates, runs a static constructor, keeps a thread_local
 * counter in two threads, and returns 42 from main. */
#include <kernel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int constructed;
__attribute__((constructor)) static void construct(void) { constructed = 1; }

static _Thread_local int counter = 100;

static void *worker(void *arg) {
    int add = (int)(long)arg;
    for (int i = 0; i < add; i++)
        counter++;
    return (void *)(long)counter;
}

int main(int argc, char **argv) {
    printf("hello from a PS5 title (argc=%d)\n", argc);
    printf("static constructor ran: %s\n", constructed ? "yes" : "no");

    char *buf = malloc(64);
    strcpy(buf, "heap");
    printf("malloc: %s at %s\n", buf, buf ? "a valid address" : "NULL");
    free(buf);

    ScePthread t;
    if (scePthreadCreate(&t, NULL, worker, (void *)5L, "worker") != 0)
        return 1;
    void *result = NULL;
    scePthreadJoin(t, &result);
    worker((void *)2L);
    printf("thread_local: worker saw %ld, main sees %d\n", (long)result, counter);
    return 42;
}
