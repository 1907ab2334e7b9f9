/* Imports a function from its module in sce_module/ (loaded and started before main),
 * then loads the same module again with sceKernelLoadStartModule, finds the function and
 * the TLS variable with sceKernelDlsym, and calls it. */
#include <kernel.h>
#include <stdio.h>

/* Imported directly: bound when the title loads, to the module in sce_module/. */
int module_add(int a, int b);

int main(void) {
    printf("direct module_add(1, 2) = %d\n", module_add(1, 2));
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
