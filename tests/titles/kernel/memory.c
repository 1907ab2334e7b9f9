/* Direct memory, flexible memory and the virtual address space: return values, console
 * error codes, protection, two views of one physical range, and a map/unmap loop whose
 * memory use the test watches from outside (VmRSS/VmHWM in /proc/<pid>/status). */
#include <kernel.h>
#include <string.h>
#include "check.h"

#define KB(n) ((size_t)(n) << 10)
#define MB(n) ((size_t)(n) << 20)

_Static_assert(sizeof(SceKernelVirtualQueryInfo) == 72, "VirtualQueryInfo size");
_Static_assert(__builtin_offsetof(SceKernelVirtualQueryInfo, name) == 33, "name offset");

static void direct(void) {
    CHECK(sceKernelGetDirectMemorySize(), 5ull << 30);
    int64_t phys = -1;
    CHECK(sceKernelAllocateDirectMemory(0, 5ll << 30, KB(64), KB(64), SCE_KERNEL_WB_ONION, &phys), 0);
    CHECK(phys % KB(64), 0);
    CHECK(sceKernelAllocateDirectMemory(0, 5ll << 30, KB(10), 0, 0, &phys), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelAllocateDirectMemory(0, 5ll << 30, KB(64), KB(48), 0, &phys), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelAllocateDirectMemory(0, 5ll << 30, KB(64), 0, 0, NULL), SCE_KERNEL_ERROR_EINVAL);
    int64_t second = -1;
    CHECK(sceKernelAllocateDirectMemory(0, 5ll << 30, KB(16), 0, SCE_KERNEL_WC_GARLIC, &second), 0);
    CHECK(second != phys, 1);

    void *a = NULL, *b = NULL;
    CHECK(sceKernelMapDirectMemory(&a, KB(64), SCE_KERNEL_PROT_CPU_RW | SCE_KERNEL_PROT_GPU_RW, 0, phys, KB(64)), 0);
    CHECK((uintptr_t)a % KB(64), 0);
    CHECK(sceKernelMapNamedDirectMemory(&b, KB(64), SCE_KERNEL_PROT_CPU_RW, 0, phys, 0, "view-b"), 0);
    CHECK(a != b, 1);
    /* Two views of one physical range share their bytes. */
    strcpy((char *)a + 100, "shared bytes");
    CHECK(strcmp((char *)b + 100, "shared bytes"), 0);
    ((volatile int *)b)[4000] = 1234;
    CHECK(((volatile int *)a)[4000], 1234);

    SceKernelVirtualQueryInfo vq;
    memset(&vq, 0xff, sizeof vq);
    CHECK(sceKernelVirtualQuery((char *)b + 5, 0, &vq, sizeof vq), 0);
    CHECK(vq.start == b && (char *)vq.end == (char *)b + KB(64), 1);
    CHECK(vq.offset, phys);
    CHECK(vq.isDirectMemory, 1);
    CHECK(vq.isFlexibleMemory, 0);
    CHECK(vq.protection, SCE_KERNEL_PROT_CPU_RW);
    CHECK(strcmp(vq.name, "view-b"), 0);
    CHECK(sceKernelVirtualQuery(b, 0, &vq, 8), SCE_KERNEL_ERROR_EINVAL);

    SceKernelDirectMemoryQueryInfo dq;
    CHECK(sceKernelDirectMemoryQuery(phys + KB(20), 0, &dq, sizeof dq), 0);
    CHECK(dq.start == phys && dq.end == phys + (int64_t)KB(64), 1);
    CHECK(dq.memoryType, SCE_KERNEL_WB_ONION);

    /* Unallocated offsets cannot be mapped or checked-released. */
    int64_t hole = phys + (int64_t)MB(512);
    void *c = NULL;
    CHECK(sceKernelMapDirectMemory(&c, KB(16), SCE_KERNEL_PROT_CPU_RW, 0, hole, 0), SCE_KERNEL_ERROR_EACCES);
    CHECK(sceKernelMapDirectMemory(&c, KB(16), SCE_KERNEL_PROT_CPU_RW, 0, phys + 1, 0), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelDirectMemoryQuery(hole, 0, &dq, sizeof dq), SCE_KERNEL_ERROR_EACCES);
    CHECK(sceKernelCheckedReleaseDirectMemory(hole, KB(16)), SCE_KERNEL_ERROR_ENOENT);

    size_t avail = 0;
    int64_t where = -1;
    CHECK(sceKernelAvailableDirectMemorySize(0, 5ll << 30, 0, &where, &avail), 0);
    CHECK(avail >= MB(1024), 1);

    /* Releasing unmaps every view. */
    CHECK(sceKernelCheckedReleaseDirectMemory(phys, KB(64)), 0);
    CHECK(sceKernelVirtualQuery(a, 0, &vq, sizeof vq), SCE_KERNEL_ERROR_EACCES);
    CHECK(sceKernelVirtualQuery(b, 0, &vq, sizeof vq), SCE_KERNEL_ERROR_EACCES);
    CHECK(sceKernelDirectMemoryQuery(phys, 0, &dq, sizeof dq), SCE_KERNEL_ERROR_EACCES);
    CHECK(sceKernelReleaseDirectMemory(second, KB(16)), 0);

    /* MapDirectMemory2 gives the mapping a memory type. */
    CHECK(sceKernelAllocateMainDirectMemory(KB(32), 0, SCE_KERNEL_WB_ONION, &phys), 0);
    CHECK(sceKernelMapDirectMemory2(&c, KB(32), SCE_KERNEL_WB_GARLIC, SCE_KERNEL_PROT_CPU_RW, 0, phys, 0), 0);
    CHECK(sceKernelVirtualQuery(c, 0, &vq, sizeof vq), 0);
    CHECK(vq.memoryType, SCE_KERNEL_WB_GARLIC);
    CHECK(sceKernelReleaseDirectMemory(phys, KB(32)), 0);
    printf("direct: ok\n");
}

static void flexible(void) {
    size_t before = 0, during = 0, after = 0;
    CHECK(sceKernelAvailableFlexibleMemorySize(&before), 0);
    CHECK(sceKernelAvailableFlexibleMemorySize(NULL), SCE_KERNEL_ERROR_EINVAL);
    void *p = NULL;
    CHECK(sceKernelMapNamedFlexibleMemory(&p, KB(32), SCE_KERNEL_PROT_CPU_RW, 0, "flex"), 0);
    memset(p, 7, KB(32));
    CHECK(sceKernelAvailableFlexibleMemorySize(&during), 0);
    CHECK(before - during, KB(32));
    CHECK(sceKernelMapFlexibleMemory(&p, KB(10), SCE_KERNEL_PROT_CPU_RW, 0), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelMapFlexibleMemory(&p, MB(4096), SCE_KERNEL_PROT_CPU_RW, 0), SCE_KERNEL_ERROR_ENOMEM);

    SceKernelVirtualQueryInfo vq;
    CHECK(sceKernelVirtualQuery(p, 0, &vq, sizeof vq), 0);
    CHECK(vq.isFlexibleMemory, 1);
    CHECK(strcmp(vq.name, "flex"), 0);

    /* Protection of part of the range: the query reports each part. */
    void *s, *e;
    int prot = -1;
    CHECK(sceKernelMprotect((char *)p + KB(16), KB(16), SCE_KERNEL_PROT_CPU_READ), 0);
    CHECK(sceKernelQueryMemoryProtection((char *)p + KB(20), &s, &e, &prot), 0);
    CHECK(prot, SCE_KERNEL_PROT_CPU_READ);
    CHECK((char *)s - (char *)p, KB(16));
    CHECK((char *)e - (char *)p, KB(32));
    CHECK(sceKernelQueryMemoryProtection(p, &s, &e, &prot), 0);
    CHECK(prot, SCE_KERNEL_PROT_CPU_RW);
    CHECK(((volatile char *)p)[KB(20)], 7);
    CHECK(sceKernelMprotect((char *)p + MB(64) * 16, KB(16), 1), SCE_KERNEL_ERROR_ENOMEM);

    CHECK(sceKernelReleaseFlexibleMemory(p, KB(32)), 0);
    CHECK(sceKernelAvailableFlexibleMemorySize(&after), 0);
    CHECK(after, before);
    CHECK(sceKernelQueryMemoryProtection(p, &s, &e, &prot), SCE_KERNEL_ERROR_EACCES);
    printf("flexible: ok\n");
}

static void ranges(void) {
    void *r = NULL;
    CHECK(sceKernelReserveVirtualRange(&r, MB(2), 0, MB(1)), 0);
    CHECK((uintptr_t)r % MB(1), 0);
    SceKernelVirtualQueryInfo vq;
    CHECK(sceKernelVirtualQuery(r, 0, &vq, sizeof vq), 0);
    CHECK(vq.isCommitted, 0);
    /* A fixed mapping inside the reservation replaces that part of it. */
    int64_t phys;
    CHECK(sceKernelAllocateDirectMemory(0, 5ll << 30, KB(64), 0, 0, &phys), 0);
    void *at = (char *)r + MB(1);
    void *want = at;
    CHECK(sceKernelMapDirectMemory(&at, KB(64), SCE_KERNEL_PROT_CPU_RW, SCE_KERNEL_MAP_FIXED, phys, 0), 0);
    CHECK(at == want, 1);
    ((volatile int *)at)[10] = 99;
    CHECK(sceKernelVirtualQuery(at, 0, &vq, sizeof vq), 0);
    CHECK(vq.isDirectMemory && vq.start == want, 1);
    /* NO_OVERWRITE refuses a range that is in use. */
    void *again = want;
    CHECK(sceKernelMapDirectMemory(&again, KB(64), SCE_KERNEL_PROT_CPU_RW,
              SCE_KERNEL_MAP_FIXED | SCE_KERNEL_MAP_NO_OVERWRITE, phys, 0), SCE_KERNEL_ERROR_ENOMEM);
    /* Find-next from the reservation's start reaches it, then the mapping. */
    CHECK(sceKernelVirtualQuery((char *)r + MB(1) - 1, 0, &vq, sizeof vq), 0);
    CHECK(vq.isDirectMemory, 0);
    CHECK(sceKernelMunmap(r, MB(2)), 0);
    CHECK(sceKernelVirtualQuery(want, 0, &vq, sizeof vq), SCE_KERNEL_ERROR_EACCES);
    CHECK(sceKernelReleaseDirectMemory(phys, KB(64)), 0);

    void *m = NULL;
    CHECK(sceKernelMmap(NULL, KB(40), SCE_KERNEL_PROT_CPU_RW, SCE_KERNEL_MAP_ANON | 2, -1, 0, &m), 0);
    memset(m, 1, KB(40));
    CHECK(sceKernelMmap(NULL, KB(40), SCE_KERNEL_PROT_CPU_RW, 0, -1, 0, NULL), SCE_KERNEL_ERROR_EINVAL);
    CHECK(sceKernelMunmap(m, KB(48)), 0);
    CHECK(sceKernelMunmap((char *)m + 1, KB(16)), SCE_KERNEL_ERROR_EINVAL);
    printf("ranges: ok\n");
}

static void stress(void) {
    int64_t phys;
    CHECK(sceKernelAllocateDirectMemory(0, 5ll << 30, KB(256), 0, 0, &phys), 0);
    for (int i = 0; i < 10000; i++) {
        void *p = NULL;
        if (sceKernelMapFlexibleMemory(&p, KB(64), SCE_KERNEL_PROT_CPU_RW, 0) != 0) {
            CHECK(i, -1);
            break;
        }
        memset(p, i, KB(64));
        CHECK(sceKernelReleaseFlexibleMemory(p, KB(64)), 0);
        void *d = NULL;
        CHECK(sceKernelMapDirectMemory(&d, KB(256), SCE_KERNEL_PROT_CPU_RW, 0, phys, 0), 0);
        memset(d, i, KB(256));
        CHECK(sceKernelMunmap(d, KB(256)), 0);
        if (i % 100 == 99) {
            /* Releasing gives the touched direct pages back; allocate them again. */
            CHECK(sceKernelReleaseDirectMemory(phys, KB(256)), 0);
            CHECK(sceKernelAllocateDirectMemory(0, 5ll << 30, KB(256), 0, 0, &phys), 0);
        }
    }
    printf("map/unmap x10000: ok\n");
}

int main(void) {
    direct();
    flexible();
    ranges();
    stress();
    printf("memory: %d failures\n", failures);
    /* Stay alive briefly so the test can read this process's final memory use. */
    sceKernelUsleep(400000);
    return failures;
}
