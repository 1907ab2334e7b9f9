/* native5 sdk crt: the 0 words that end the constructor and destructor lists (see
 * crtbegin.c). Linked last, under the file name crtend.o. */

typedef void (*__sce_fn)(void);

__attribute__((visibility("hidden"), section(".ctors"), used, aligned(8)))
__sce_fn __CTOR_END__[1] = { (__sce_fn)0 };
__attribute__((visibility("hidden"), section(".dtors"), used, aligned(8)))
__sce_fn __DTOR_END__[1] = { (__sce_fn)0 };
