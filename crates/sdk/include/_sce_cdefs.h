/* native5 sdk: shared macros of the PS5-ABI headers. Written for native5; not a copy of
 * any console or third-party header. */
#ifndef _SCE_CDEFS_H
#define _SCE_CDEFS_H

#ifdef __cplusplus
#define __SCE_BEGIN_DECLS extern "C" {
#define __SCE_END_DECLS }
#else
#define __SCE_BEGIN_DECLS
#define __SCE_END_DECLS
#endif

/* The PS5 target compiles with -fvisibility=hidden: anything a module (.prx) exports must
 * say so. Works on functions and on (thread-local) variables. */
#define SCE_EXPORT __attribute__((__visibility__("default")))

#define __SCE_NORETURN __attribute__((__noreturn__))
#define __SCE_PRINTF(fmt, args) __attribute__((__format__(__printf__, fmt, args)))
#define __SCE_SCANF(fmt, args) __attribute__((__format__(__scanf__, fmt, args)))

#endif
