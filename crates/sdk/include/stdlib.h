/* native5 sdk: stdlib as the console's libc exports it. */
#ifndef _SCE_STDLIB_H
#define _SCE_STDLIB_H

#include <_sce_cdefs.h>
#include <stddef.h>

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1

typedef struct {
    int quot;
    int rem;
} div_t;

__SCE_BEGIN_DECLS

void *malloc(size_t size);
void *calloc(size_t count, size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);
void *memalign(size_t alignment, size_t size);
void *aligned_alloc(size_t alignment, size_t size);
int posix_memalign(void **out, size_t alignment, size_t size);

void exit(int status) __SCE_NORETURN;
void _Exit(int status) __SCE_NORETURN;
void abort(void) __SCE_NORETURN;
int atexit(void (*fn)(void));
char *getenv(const char *name);

int atoi(const char *s);
long atol(const char *s);
long long atoll(const char *s);
double atof(const char *s);
long strtol(const char *__restrict s, char **__restrict end, int base);
unsigned long strtoul(const char *__restrict s, char **__restrict end, int base);
long long strtoll(const char *__restrict s, char **__restrict end, int base);
unsigned long long strtoull(const char *__restrict s, char **__restrict end, int base);
double strtod(const char *__restrict s, char **__restrict end);
float strtof(const char *__restrict s, char **__restrict end);

int abs(int v);
long labs(long v);
long long llabs(long long v);
div_t div(int num, int den);
int rand(void);
void srand(unsigned seed);
void qsort(void *base, size_t count, size_t size, int (*cmp)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t count, size_t size,
    int (*cmp)(const void *, const void *));

__SCE_END_DECLS

#endif
