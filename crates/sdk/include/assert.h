/* native5 sdk: assert. Deliberately re-includable, as the C standard wants (NDEBUG may
 * change between inclusions). A failed assertion prints through printf and aborts, so it
 * needs nothing beyond what every title imports anyway. */
#include <_sce_cdefs.h>

#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __sce_assert_fail(#e, __FILE__, __LINE__))
#endif

#ifndef _SCE_ASSERT_H
#define _SCE_ASSERT_H
__SCE_BEGIN_DECLS
int printf(const char *__restrict format, ...);
void abort(void) __SCE_NORETURN;
static inline __SCE_NORETURN void __sce_assert_fail(const char *expr, const char *file, int line) {
    printf("%s:%d: assertion failed: %s\n", file, line, expr);
    abort();
}
__SCE_END_DECLS
#endif
