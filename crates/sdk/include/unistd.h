/* native5 sdk: the POSIX calls libkernel exports. */
#ifndef _SCE_UNISTD_H
#define _SCE_UNISTD_H

#include <_sce_cdefs.h>
#include <sys/types.h>

#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

__SCE_BEGIN_DECLS
ssize_t read(int fd, void *buf, size_t size);
ssize_t write(int fd, const void *buf, size_t size);
int close(int fd);
off_t lseek(int fd, off_t offset, int whence);
ssize_t pread(int fd, void *buf, size_t size, off_t offset);
ssize_t pwrite(int fd, const void *buf, size_t size, off_t offset);
int rmdir(const char *path);
int unlink(const char *path);
int usleep(useconds_t usec);
unsigned int sleep(unsigned int seconds);
pid_t getpid(void);
void _exit(int status) __SCE_NORETURN;
__SCE_END_DECLS

#endif
