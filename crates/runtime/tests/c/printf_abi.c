/* Calls the runtime's printf exports from code a real C compiler built: its variadic
 * calls (long double on the stack, al set for doubles) and its own va_lists, handed to
 * the v-forms after part of them was consumed. Usage:
 *   printf_abi RUNTIME.so SNPRINTF_NID VSNPRINTF_NID VASPRINTF_NID
 * Prints one line per check; the Rust test compares them. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>

typedef int (*snprintf_fn)(char *, size_t, const char *, ...);
typedef int (*vsnprintf_fn)(char *, size_t, const char *, va_list);
typedef int (*vasprintf_fn)(char **, const char *, va_list);

static vsnprintf_fn our_vsnprintf;
static vasprintf_fn our_vasprintf;

/* Skips the first variadic int, then passes the rest of the list on. */
static int skip_one(char *buf, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    (void)va_arg(ap, int);
    int r = our_vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

static int as_string(char **out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = our_vasprintf(out, fmt, ap);
    va_end(ap);
    return r;
}

int main(int argc, char **argv) {
    if (argc != 5) return 2;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) { puts(dlerror()); return 1; }
    snprintf_fn our_snprintf = (snprintf_fn)dlvsym(h, argv[2], "libc");
    our_vsnprintf = (vsnprintf_fn)dlsym(h, argv[3]);
    our_vasprintf = (vasprintf_fn)dlsym(h, argv[4]);
    if (!our_snprintf || !our_vsnprintf || !our_vasprintf) { puts("missing symbol"); return 1; }

    char buf[512], ref[512];
    long double third = 1.0L / 3.0L;
    const char *f = "%d %Lf %d %.25Lg %e %d %d %d %d %s %d %Lg %.3Le|%5.1f";
#define ARGS 1, third, 2, third, 2.5, 3, 4, 5, 6, "x", 7, -1e4000L, 6e-4000L, 9.25
    int n = our_snprintf(buf, sizeof buf, f, ARGS);
    snprintf(ref, sizeof ref, f, ARGS);
    printf("%d %s\n%s\n", n, buf, ref);

    n = skip_one(buf, sizeof buf, "%d %g %Lf %d %d %d %d %d %d %g", 99, 1, 1.25, 0.5L, 2, 3, 4,
                 5, 6, 7, 8.5);
    printf("%d %s\n", n, buf);

    char *s = 0;
    n = as_string(&s, "%s-%05.1f-%lld-%La", "as", 3.14159, -5LL, 3.0L);
    printf("%d %s\n", n, s);
    return 0;
}
