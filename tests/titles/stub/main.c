/* Calls a function the runtime exports as a known-unimplemented stub: it returns an
 * error code (and the runtime says so once on stderr) instead of pretending to work. */
#include <stdio.h>

/* Declared here rather than from <kernel.h>, whose event-queue types may change. */
int sceKernelCreateEqueue(void **queue, const char *name);
int sceVideoOutAddVblankEvent(void *queue, int handle, void *udata);

int main(void) {
    void *q = 0;
    sceKernelCreateEqueue(&q, "q");
    int a = sceVideoOutAddVblankEvent(q, 1, 0);
    int b = sceVideoOutAddVblankEvent(q, 1, 0);
    printf("%#x %#x\n", a, b);
    return 0;
}
