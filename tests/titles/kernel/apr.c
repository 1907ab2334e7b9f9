/* APR and AMM command buffers: building, inline completion, a wait satisfied after the
 * submit returns (order kept behind it), the AMM queue not held up by a waiting APR
 * buffer, counters, event-queue completions and AMM mapping. */
#include <ampr.h>
#include <kernel.h>
#include <string.h>
#include "check.h"

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)

static uint64_t mem_a[64], mem_b[64], mem_c[64], mem_d[64];
static volatile uint64_t flag, out1, out2, seq, amm_done, counter_seen;

static void builder(void) {
    SceAmprCommandBuffer cb;
    CHECK(sizeof cb, 0x18);
    CHECK(sceAmprAprCommandBufferConstructor(&cb), 0);
    CHECK(sceAmprCommandBufferGetType(&cb), 1);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&cb, &out1, 1), SCE_KERNEL_ERROR_ENOSPC);
    CHECK(sceAmprCommandBufferSetBuffer(&cb, mem_a, 48), 0);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&cb, &out1, 1), 0);
    CHECK(sceAmprCommandBufferGetCurrentOffset(&cb), sceAmprMeasureCommandSizeWriteAddressOnCompletion());
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&cb, &out1, 2), 0);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&cb, &out1, 3), SCE_KERNEL_ERROR_ENOSPC);
    CHECK(sceAmprCommandBufferGetNumCommands(&cb), 2);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&cb, (volatile uint64_t *)((char *)&out1 + 1), 1), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceAmprCommandBufferWaitOnCounter(&cb, 200, 0, 0, 0), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceAmprCommandBufferWaitOnAddress(&cb, &flag, 0, 9, 0), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceAmprCommandBufferGetBufferBaseAddress(&cb) == mem_a, 1);
    CHECK(sceAmprCommandBufferReset(&cb), 0);
    CHECK(sceAmprCommandBufferGetCurrentOffset(&cb), 0);
    CHECK(sceAmprCommandBufferClearBuffer(&cb) == mem_a, 1);
    CHECK(sceAmprCommandBufferGetSize(&cb), 0);
    CHECK(sceAmprAprCommandBufferDestructor(&cb), 0);
    CHECK(sceKernelAprWaitCommandBuffer(12345), SCE_KERNEL_ERROR_ESRCH);
    printf("builder: ok\n");
}

static void inline_run(void) {
    SceAmprCommandBuffer cb;
    sceAmprAprCommandBufferConstructor(&cb);
    sceAmprCommandBufferSetBuffer(&cb, mem_a, sizeof mem_a);
    CHECK(sceAmprCommandBufferPushMarker(&cb, "inline"), 0);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&cb, &out1, 11), 0);
    CHECK(sceAmprCommandBufferPopMarker(&cb), 0);
    uint32_t id = 0;
    CHECK(sceKernelAprSubmitCommandBufferAndGetId(&cb, 0, &id), 0);
    /* No wait in it: done before the submit returns. */
    CHECK(LOAD(out1), 11);
    CHECK(sceKernelAprWaitCommandBuffer(id), 0);
    CHECK(sceKernelAprSubmitCommandBuffer(&cb, 3), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelAprSubmitCommandBuffer(NULL, 0), SCE_KERNEL_ERROR_EINVAL);
    printf("inline: ok\n");
}

static void deferred(void) {
    STORE(flag, 0);
    STORE(out1, 0);
    STORE(out2, 0);
    STORE(seq, 0);
    /* Buffer 1 waits for flag == 1, then writes. */
    SceAmprCommandBuffer b1, b2, amm;
    sceAmprAprCommandBufferConstructor(&b1);
    sceAmprCommandBufferSetBuffer(&b1, mem_a, sizeof mem_a);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&b1, &seq, 1), 0);
    CHECK(sceAmprCommandBufferWaitOnAddress(&b1, &flag, 1, SCE_AMPR_WAIT_COMPARE_EQUAL, 0), 0);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&b1, &out1, 1), 0);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&b1, &seq, 2), 0);
    uint32_t id1 = 0, id2 = 0;
    CHECK(sceKernelAprSubmitCommandBufferAndGetId(&b1, 0, &id1), 0);
    /* The part before the wait ran inline; the rest waits. */
    CHECK(LOAD(seq), 1);
    CHECK(LOAD(out1), 0);

    /* Buffer 2 has no wait but must run after buffer 1. */
    sceAmprAprCommandBufferConstructor(&b2);
    sceAmprCommandBufferSetBuffer(&b2, mem_b, sizeof mem_b);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&b2, &out2, 2), 0);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&b2, &seq, 3), 0);
    CHECK(sceKernelAprSubmitCommandBufferAndGetId(&b2, 0, &id2), 0);
    CHECK(id2 == id1 + 1, 1);
    sceKernelUsleep(20000);
    CHECK(LOAD(out2), 0);

    /* The AMM queue is not held up: its buffer completes, and its write releases APR. */
    sceAmprAmmCommandBufferConstructor(&amm);
    sceAmprCommandBufferSetBuffer(&amm, mem_c, sizeof mem_c);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&amm, &amm_done, 7), 0);
    uint32_t aid = 0;
    SceAmprAmmSubmitResult res = {-1, 1};
    CHECK(sceAmprAmmSubmitCommandBuffer2(sceAmprCommandBufferGetBufferBaseAddress(&amm),
              sceAmprCommandBufferGetCurrentOffset(&amm), 0, &res, &aid), 0);
    CHECK(sceAmprAmmWaitCommandBufferCompletion(aid), 0);
    CHECK(LOAD(amm_done), 7);
    CHECK(res.result, 0);
    CHECK(LOAD(out1), 0);

    sceAmprCommandBufferReset(&amm);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&amm, &flag, 1), 0);
    CHECK(sceAmprAmmSubmitCommandBuffer(sceAmprCommandBufferGetBufferBaseAddress(&amm),
              sceAmprCommandBufferGetCurrentOffset(&amm), 0), 0);
    CHECK(sceKernelAprWaitCommandBuffer(id2), 0);
    CHECK(LOAD(out1), 1);
    CHECK(LOAD(out2), 2);
    CHECK(LOAD(seq), 3);
    CHECK(sceKernelAprWaitCommandBuffer(id1), 0);
    printf("deferred: ok\n");
}

static void counters_and_events(void) {
    SceKernelEqueue eq;
    CHECK(sceKernelCreateEqueue(&eq, "apr"), 0);
    SceAmprCommandBuffer b, a;
    sceAmprAprCommandBufferConstructor(&b);
    sceAmprCommandBufferSetBuffer(&b, mem_a, sizeof mem_a);
    CHECK(sceAmprCommandBufferWaitOnCounter(&b, 5, 3, SCE_AMPR_WAIT_COMPARE_EQUAL, 0), 0);
    CHECK(sceAmprCommandBufferWriteAddressOnCompletion(&b, &counter_seen, 1), 0);
    CHECK(sceAmprCommandBufferWriteKernelEventQueueOnCompletion(&b, eq, 42, 0x1234), 0);
    uint32_t id = 0;
    CHECK(sceKernelAprSubmitCommandBufferAndGetId(&b, 1, &id), 0);
    CHECK(LOAD(counter_seen), 0);
    SceKernelEvent ev;
    int n = -1;
    SceKernelUseconds tmo = 1000;
    CHECK(sceKernelWaitEqueue(eq, &ev, 1, &n, &tmo), SCE_KERNEL_ERROR_ETIMEDOUT);

    sceAmprAmmCommandBufferConstructor(&a);
    sceAmprCommandBufferSetBuffer(&a, mem_c, sizeof mem_c);
    CHECK(sceAmprCommandBufferWriteCounterOnCompletion(&a, 5, 3), 0);
    CHECK(sceAmprAmmSubmitCommandBuffer(mem_c, sceAmprCommandBufferGetCurrentOffset(&a), 0), 0);
    CHECK(sceKernelWaitEqueue(eq, &ev, 1, &n, NULL), 0);
    CHECK(n, 1);
    CHECK(sceKernelGetEventFilter(&ev), SCE_KERNEL_EVFILT_AMPR);
    CHECK(sceKernelGetEventId(&ev), 42);
    CHECK(sceKernelGetEventData(&ev), 0x1234);
    CHECK(sceKernelAprWaitCommandBuffer(id), 0);
    CHECK(LOAD(counter_seen), 1);
    CHECK(sceKernelDeleteEqueue(eq), 0);
    printf("counters/equeue: ok\n");
}

static void amm_mapping(void) {
    int64_t phys;
    CHECK(sceKernelAllocateDirectMemory(0, 5ll << 30, 64 << 10, 0, 0, &phys), 0);
    void *r = NULL;
    CHECK(sceKernelReserveVirtualRange(&r, 1 << 20, 0, 0), 0);
    uint64_t va = (uint64_t)r, vb = (uint64_t)r + (512 << 10);
    SceAmprCommandBuffer a;
    sceAmprAmmCommandBufferConstructor(&a);
    CHECK(sceAmprAmmCommandBufferUnmap(&a, va, 16384), SCE_KERNEL_ERROR_EPERM);
    sceAmprCommandBufferSetBuffer(&a, mem_d, sizeof mem_d);
    CHECK(sceAmprAmmCommandBufferMapDirect(&a, va, phys, 64 << 10, 0, SCE_KERNEL_PROT_CPU_RW), 0);
    CHECK(sceAmprAmmCommandBufferMapDirect(&a, vb, phys, 64 << 10, 0, SCE_KERNEL_PROT_CPU_RW), 0);
    CHECK(sceAmprAmmCommandBufferMapDirect(&a, va + 1, phys, 64 << 10, 0, 3), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceAmprAmmMeasureAmmCommandSizeUnmap(va, 1), SCE_KERNEL_ERROR_EINVAL);
    uint32_t id = 0;
    CHECK(sceAmprAmmSubmitCommandBuffer2(mem_d, sceAmprCommandBufferGetCurrentOffset(&a), 0, NULL, &id), 0);
    CHECK(sceAmprAmmWaitCommandBufferCompletion(id), 0);
    strcpy((char *)va, "one page, two places");
    CHECK(strcmp((char *)vb, "one page, two places"), 0);
    sceAmprCommandBufferReset(&a);
    CHECK(sceAmprAmmCommandBufferModifyProtect(&a, vb, 64 << 10, SCE_KERNEL_PROT_CPU_READ, 0x3), 0);
    CHECK(sceAmprAmmCommandBufferUnmap(&a, va, 64 << 10), 0);
    CHECK(sceAmprAmmSubmitCommandBuffer(mem_d, sceAmprCommandBufferGetCurrentOffset(&a), 0), 0);
    int prot = -1;
    CHECK(sceKernelQueryMemoryProtection((void *)vb, NULL, NULL, &prot), 0);
    CHECK(prot, SCE_KERNEL_PROT_CPU_READ);
    CHECK(sceKernelQueryMemoryProtection((void *)va, NULL, NULL, &prot), SCE_KERNEL_ERROR_EACCES);
    CHECK(sceKernelMunmap(r, 1 << 20), 0);
    CHECK(sceKernelReleaseDirectMemory(phys, 64 << 10), 0);
    printf("amm mapping: ok\n");
}

int main(void) {
    builder();
    inline_run();
    deferred();
    counters_and_events();
    amm_mapping();
    printf("apr: %d failures\n", failures);
    return failures;
}
