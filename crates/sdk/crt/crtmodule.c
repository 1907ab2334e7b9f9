/* native5 sdk crt: the defaults and parameters of a module (.prx).
 *
 * The loader never calls a module's e_entry; it calls the exported module_start after
 * DT_INIT (constructors, see crtbegin.c) and module_stop before unloading. These weak
 * defaults do nothing and return 0; a module that defines its own wins at link time. Its
 * definition must be exported too (declare it through <kernel.h> or mark it SCE_EXPORT):
 * the PS5 target hides everything else, and the sdk refuses a module whose module_start
 * ended up hidden. */

typedef unsigned long __sce_size_t;

__attribute__((weak, visibility("default"))) int module_start(__sce_size_t args, const void *argp) {
    (void)args;
    (void)argp;
    return 0;
}

__attribute__((weak, visibility("default"))) int module_stop(__sce_size_t args, const void *argp) {
    (void)args;
    (void)argp;
    return 0;
}

/* The module parameters: the sce writer fills in the header (size 0x18, magic 0x3c13f4bf,
 * entry count 1, SDK version). */
__attribute__((visibility("hidden"), section(".sce_module_param"), used, aligned(8)))
unsigned char __sce_module_param[0x18];
