/* Shared by the kernel test titles: CHECK compares a return value with the one the console
 * gives, and counts failures; main returns the count. */
#include <stdio.h>

static int failures;

#define CHECK(expr, want)                                                                   \
    do {                                                                                    \
        long long got_ = (long long)(expr);                                                 \
        long long want_ = (long long)(want);                                                \
        if (got_ != want_) {                                                                \
            printf("FAIL line %d: %s = %#llx, want %#llx\n", __LINE__, #expr, got_, want_);  \
            failures++;                                                                     \
        }                                                                                   \
    } while (0)
