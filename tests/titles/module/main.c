/* Loads its module at start (sce_module/) and again with sceKernelLoadStartModule, finds
 * the function and the TLS variable with sceKernelDlsym, and calls them. */
#include <kernel.h>
#include <stdio.h>

int main(void) {
    int result = -1;
    SceKernelModule m = sceKernelLoadStartModule("/app0/sce_module/libmodule.prx", 0, NULL, 0, NULL, &result);
    if (m < 0) {
        printf("load failed: %#x\n", m);
        return 1;
    }
    printf("loaded: start result %d\n", result);
    int (*add)(int, int) = NULL;
    int *tls = NULL;
    if (sceKernelDlsym(m, "module_add", (void **)&add) != 0 || !add) {
        printf("dlsym module_add failed\n");
        return 2;
    }
    if (sceKernelDlsym(m, "module_tls", (void **)&tls) != 0 || !tls) {
        printf("dlsym module_tls failed\n");
        return 3;
    }
    *tls = 30;
    printf("module_add(1, 2) = %d\n", add(1, 2));
    if (sceKernelDlsym(m, "no_such_function", (void **)&add) == 0) {
        printf("dlsym of a missing name succeeded\n");
        return 4;
    }
    return 0;
}
