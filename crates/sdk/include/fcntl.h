/* native5 sdk: open(2) and its flags (FreeBSD values, as the console uses them). */
#ifndef _SCE_FCNTL_H
#define _SCE_FCNTL_H

#include <_sce_cdefs.h>
#include <sys/types.h>

#define O_RDONLY 0x0000
#define O_WRONLY 0x0001
#define O_RDWR 0x0002
#define O_ACCMODE 0x0003
#define O_NONBLOCK 0x0004
#define O_APPEND 0x0008
#define O_FSYNC 0x0080
#define O_SYNC 0x0080
#define O_NOFOLLOW 0x0100
#define O_CREAT 0x0200
#define O_TRUNC 0x0400
#define O_EXCL 0x0800
#define O_DIRECT 0x00010000
#define O_DIRECTORY 0x00020000

__SCE_BEGIN_DECLS
int open(const char *path, int flags, ...);
__SCE_END_DECLS

#endif
