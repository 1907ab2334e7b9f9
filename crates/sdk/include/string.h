/* native5 sdk: string functions as the console's libc exports them. */
#ifndef _SCE_STRING_H
#define _SCE_STRING_H

#include <_sce_cdefs.h>
#include <stddef.h>

__SCE_BEGIN_DECLS

void *memset(void *dst, int c, size_t n);
void *memcpy(void *__restrict dst, const void *__restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
void *memrchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
int strcoll(const char *a, const char *b);
char *strcpy(char *__restrict dst, const char *__restrict src);
char *strncpy(char *__restrict dst, const char *__restrict src, size_t n);
size_t strlcpy(char *__restrict dst, const char *__restrict src, size_t size);
char *strcat(char *__restrict dst, const char *__restrict src);
char *strncat(char *__restrict dst, const char *__restrict src, size_t n);
size_t strlcat(char *__restrict dst, const char *__restrict src, size_t size);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
char *strpbrk(const char *s, const char *set);
size_t strspn(const char *s, const char *set);
size_t strcspn(const char *s, const char *set);
char *strtok(char *__restrict s, const char *__restrict sep);
char *strtok_r(char *__restrict s, const char *__restrict sep, char **__restrict state);
char *strdup(const char *s);
char *strndup(const char *s, size_t n);
char *strerror(int errnum);
size_t strxfrm(char *__restrict dst, const char *__restrict src, size_t n);

__SCE_END_DECLS

#endif
