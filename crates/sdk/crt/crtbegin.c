/* native5 sdk crt: the start of the constructor and destructor lists, and DT_INIT/DT_FINI.
 *
 * clang-19 for x86_64-sie-ps5 always puts constructors in .ctors (it passes
 * -fno-use-init-array and refuses -fuse-init-array), as the console's own compiler does. So
 * the sdk does what the console's crt does: _init, which the linker records as DT_INIT,
 * walks .ctors; _fini (DT_FINI) walks .dtors. The loader calls them: ld.so for modules,
 * and for the executable whoever starts it (the console's loader; native5's entry stub).
 *
 * This object must be linked first and crtend.o last, under those file names: ld.lld then
 * keeps this file's .ctors/.dtors words at the start of the output sections and crtend's at
 * the end, and sorts prioritised .ctors.NNNNN sections in between. */

typedef void (*__sce_fn)(void);

#define __SCE_HIDDEN __attribute__((visibility("hidden")))

/* The first word of each list is a -1 marker (the traditional layout), the last word,
 * in crtend.o, is 0. */
__SCE_HIDDEN __attribute__((section(".ctors"), used, aligned(8)))
__sce_fn __CTOR_LIST__[1] = { (__sce_fn)-1 };
__SCE_HIDDEN __attribute__((section(".dtors"), used, aligned(8)))
__sce_fn __DTOR_LIST__[1] = { (__sce_fn)-1 };

extern __SCE_HIDDEN __sce_fn __CTOR_END__[];
extern __SCE_HIDDEN __sce_fn __DTOR_END__[];

/* Each module has its own handle for __cxa_atexit, so its C++ destructors run when it is
 * unloaded, not when some other module is. */
__SCE_HIDDEN void *__dso_handle = &__dso_handle;

/* The lists span several objects; the empty asm statements stop the compiler from
 * reasoning about the bounds of the one-element arrays above. */
static __sce_fn *__sce_opaque(__sce_fn *p) {
    __asm__("" : "+r"(p));
    return p;
}

/* .ctors runs from the end backwards: the linker puts lower priority numbers (which must
 * run first) at higher addresses. */
__SCE_HIDDEN void _init(void) {
    __sce_fn *begin = __sce_opaque(__CTOR_LIST__);
    for (__sce_fn *p = __sce_opaque(__CTOR_END__); --p > begin;) {
        if (*p != (__sce_fn)0 && *p != (__sce_fn)-1)
            (*p)();
    }
}

/* .dtors runs from the start forwards, the reverse of construction. */
__SCE_HIDDEN void _fini(void) {
    __sce_fn *end = __sce_opaque(__DTOR_END__);
    for (__sce_fn *p = __sce_opaque(__DTOR_LIST__) + 1; p < end; ++p) {
        if (*p != (__sce_fn)0 && *p != (__sce_fn)-1)
            (*p)();
    }
}
