/* A module shipped in sce_module/: exports a function and a TLS variable. */
#include <kernel.h>
#include <stdio.h>

SCE_EXPORT _Thread_local int module_tls = 7;
static int started;

SCE_EXPORT int module_add(int a, int b) { return a + b + started * 1000 + module_tls; }

SCE_EXPORT int module_start(size_t args, const void *argp) {
    started++;
    printf("module_start ran (%d)\n", started);
    return 0;
}
