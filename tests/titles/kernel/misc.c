/* Platform queries: PS5 (not a PS4 Pro), the compiled SDK version, pid, current CPU. */
#include <kernel.h>
#include <unistd.h>
#include "check.h"

int main(void) {
    CHECK(sceKernelIsNeoMode(), 0);
    CHECK(sceKernelIsProspero(), 1);
    printf("platform: %s\n", failures ? "FAILED" : "ok");
    int v = 0;
    CHECK(sceKernelGetCompiledSdkVersion(&v), SCE_OK);
    CHECK(sceKernelGetCompiledSdkVersion(NULL), SCE_KERNEL_ERROR_EINVAL);
    printf("sdk version: %#x\n", v);
    CHECK(getpid() > 0, 1);
    CHECK(getpid(), getpid());
    int cpu = sceKernelGetCurrentCpu();
    CHECK(cpu >= 0 && cpu < 1024, 1);
    printf("pid/cpu: %s\n", failures ? "FAILED" : "ok");
    printf("misc: %d failures\n", failures);
    return failures;
}
