/* A title that prints, allocates and starts a thread: the sdk's basic import test. */
#include <kernel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int constructed;

__attribute__((constructor)) static void setup(void) { constructed = 1; }

static void *worker(void *arg) {
    char line[64]; /* a local buffer: the stack protector guards this function */
    snprintf(line, sizeof line, "worker got %s", (const char *)arg);
    puts(line);
    return NULL;
}

int main(int argc, char **argv) {
    (void)argv;
    char *msg = malloc(16);
    if (!msg)
        return 1;
    strcpy(msg, "hello");
    ScePthread thread;
    int ret = scePthreadCreate(&thread, NULL, worker, msg, "worker");
    if (ret != SCE_OK)
        return 2;
    scePthreadJoin(thread, NULL);
    printf("argc=%d constructed=%d errno=%d\n", argc, constructed, errno);
    free(msg);
    return 0;
}
