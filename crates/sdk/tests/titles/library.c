/* A module that exports a function and a thread-local variable, and has its own
 * module_start (declared exported by <kernel.h>). */
#include <kernel.h>
#include <stdio.h>

SCE_EXPORT __thread int library_counter = 7;

SCE_EXPORT int library_add(int a, int b) {
    library_counter++;
    return a + b;
}

/* Not exported: stays hidden in the module. */
int library_internal(void) { return 42; }

int module_start(size_t args, const void *argp) {
    (void)args;
    (void)argp;
    printf("library loaded\n");
    return 0;
}
