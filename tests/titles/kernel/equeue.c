/* Event queues: user events (level and edge), timers, HR timers, getters, deletion. */
#include <kernel.h>
#include "check.h"

int main(void) {
    SceKernelEqueue eq;
    SceKernelEvent ev[4];
    int n = -1;
    SceKernelUseconds tmo = 0;
    CHECK(sceKernelCreateEqueue(&eq, "q"), 0);
    CHECK(sceKernelCreateEqueue(NULL, "q"), SCE_KERNEL_ERROR_EINVAL);

    /* A level user event stays triggered; an edge one resets after a wait. */
    CHECK(sceKernelAddUserEvent(eq, 1), 0);
    CHECK(sceKernelAddUserEventEdge(eq, 2), 0);
    CHECK(sceKernelTriggerUserEvent(eq, 9, NULL), SCE_KERNEL_ERROR_ENOENT);
    tmo = 1000;
    CHECK(sceKernelWaitEqueue(eq, ev, 4, &n, &tmo), SCE_KERNEL_ERROR_ETIMEDOUT);
    CHECK(sceKernelTriggerUserEvent(eq, 1, (void *)0x11), 0);
    CHECK(sceKernelTriggerUserEvent(eq, 2, (void *)0x22), 0);
    CHECK(sceKernelWaitEqueue(eq, ev, 4, &n, NULL), 0);
    CHECK(n, 2);
    CHECK(sceKernelGetEventId(&ev[0]), 1);
    CHECK(sceKernelGetEventFilter(&ev[0]), SCE_KERNEL_EVFILT_USER);
    CHECK((uintptr_t)sceKernelGetEventUserData(&ev[0]), 0x11);
    CHECK((uintptr_t)sceKernelGetEventUserData(&ev[1]), 0x22);
    tmo = 1000;
    CHECK(sceKernelWaitEqueue(eq, ev, 4, &n, &tmo), 0);
    CHECK(n, 1);
    CHECK(sceKernelGetEventId(&ev[0]), 1);
    CHECK(sceKernelDeleteUserEvent(eq, 1), 0);
    CHECK(sceKernelDeleteUserEvent(eq, 1), SCE_KERNEL_ERROR_ENOENT);
    CHECK(sceKernelDeleteUserEvent(eq, 2), 0);
    printf("user events: ok\n");

    /* A 2 ms periodic timer: a wait returns it with the number of expirations. */
    CHECK(sceKernelAddTimerEvent(eq, 5, 2000, (void *)0x55), 0);
    CHECK(sceKernelWaitEqueue(eq, ev, 4, &n, NULL), 0);
    CHECK(n, 1);
    CHECK(sceKernelGetEventFilter(&ev[0]), SCE_KERNEL_EVFILT_TIMER);
    CHECK(sceKernelGetEventData(&ev[0]) >= 1, 1);
    sceKernelUsleep(10000);
    CHECK(sceKernelWaitEqueue(eq, ev, 4, &n, NULL), 0);
    CHECK(sceKernelGetEventData(&ev[0]) >= 3, 1);
    CHECK(sceKernelDeleteTimerEvent(eq, 5), 0);
    CHECK(sceKernelDeleteTimerEvent(eq, 5), SCE_KERNEL_ERROR_ENOENT);
    /* A one-shot HR timer fires once. */
    SceKernelTimespec ts = {0, 1000000};
    CHECK(sceKernelAddHRTimerEvent(eq, 6, &ts, NULL), 0);
    CHECK(sceKernelWaitEqueue(eq, ev, 4, &n, NULL), 0);
    CHECK(sceKernelGetEventFilter(&ev[0]), SCE_KERNEL_EVFILT_HRTIMER);
    tmo = 5000;
    CHECK(sceKernelWaitEqueue(eq, ev, 4, &n, &tmo), SCE_KERNEL_ERROR_ETIMEDOUT);
    printf("timers: ok\n");

    CHECK(sceKernelWaitEqueue(eq, NULL, 4, &n, NULL), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelDeleteEqueue(eq), 0);
    CHECK(sceKernelDeleteEqueue(eq), SCE_KERNEL_ERROR_EBADF);
    CHECK(sceKernelAddUserEvent(eq, 1), SCE_KERNEL_ERROR_EBADF);
    CHECK(sceKernelWaitEqueue(eq, ev, 4, &n, NULL), SCE_KERNEL_ERROR_EBADF);
    printf("delete: ok\n");
    printf("equeue: %d failures\n", failures);
    return failures;
}
