/* native5 sdk: stdio as the console's libc exports it. FILE is opaque; the standard streams
 * are libc's exported FILE objects _Stdin, _Stdout and _Stderr. */
#ifndef _SCE_STDIO_H
#define _SCE_STDIO_H

#include <_sce_cdefs.h>
#include <stdarg.h>
#include <stddef.h>

typedef struct __sce_FILE FILE;

#define EOF (-1)
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2

__SCE_BEGIN_DECLS

extern FILE _Stdin;
extern FILE _Stdout;
extern FILE _Stderr;
#define stdin (&_Stdin)
#define stdout (&_Stdout)
#define stderr (&_Stderr)

int printf(const char *__restrict format, ...) __SCE_PRINTF(1, 2);
int fprintf(FILE *__restrict stream, const char *__restrict format, ...) __SCE_PRINTF(2, 3);
int sprintf(char *__restrict buf, const char *__restrict format, ...) __SCE_PRINTF(2, 3);
int snprintf(char *__restrict buf, size_t size, const char *__restrict format, ...)
    __SCE_PRINTF(3, 4);
int asprintf(char **out, const char *__restrict format, ...) __SCE_PRINTF(2, 3);
int vprintf(const char *__restrict format, va_list ap) __SCE_PRINTF(1, 0);
int vfprintf(FILE *__restrict stream, const char *__restrict format, va_list ap)
    __SCE_PRINTF(2, 0);
int vsprintf(char *__restrict buf, const char *__restrict format, va_list ap) __SCE_PRINTF(2, 0);
int vsnprintf(char *__restrict buf, size_t size, const char *__restrict format, va_list ap)
    __SCE_PRINTF(3, 0);
int scanf(const char *__restrict format, ...) __SCE_SCANF(1, 2);
int fscanf(FILE *__restrict stream, const char *__restrict format, ...) __SCE_SCANF(2, 3);
int sscanf(const char *__restrict str, const char *__restrict format, ...) __SCE_SCANF(2, 3);
int vsscanf(const char *__restrict str, const char *__restrict format, va_list ap)
    __SCE_SCANF(2, 0);

int puts(const char *s);
int fputs(const char *__restrict s, FILE *__restrict stream);
int putchar(int c);
int fputc(int c, FILE *stream);
int putc(int c, FILE *stream);
int getchar(void);
int fgetc(FILE *stream);
int getc(FILE *stream);
int ungetc(int c, FILE *stream);
char *fgets(char *__restrict buf, int size, FILE *__restrict stream);
size_t fread(void *__restrict ptr, size_t size, size_t count, FILE *__restrict stream);
size_t fwrite(const void *__restrict ptr, size_t size, size_t count, FILE *__restrict stream);

FILE *fopen(const char *__restrict path, const char *__restrict mode);
int fclose(FILE *stream);
int fflush(FILE *stream);
int fseek(FILE *stream, long offset, int whence);
long ftell(FILE *stream);
void rewind(FILE *stream);
int feof(FILE *stream);
int ferror(FILE *stream);
void clearerr(FILE *stream);
int setvbuf(FILE *__restrict stream, char *__restrict buf, int mode, size_t size);
void setbuf(FILE *__restrict stream, char *__restrict buf);
int remove(const char *path);
int rename(const char *from, const char *to);
void perror(const char *s);

__SCE_END_DECLS

#endif
