/* native5 sdk: struct stat as the console lays it out (FreeBSD 9 amd64: 32-bit st_dev
 * and st_ino, 16-bit st_mode and st_nlink; 0x78 bytes). */
#ifndef _SCE_SYS_STAT_H
#define _SCE_SYS_STAT_H

#include <_sce_cdefs.h>
#include <sys/types.h>
#include <time.h>

struct stat {
    uint32_t st_dev;
    uint32_t st_ino;
    mode_t st_mode;
    uint16_t st_nlink;
    uid_t st_uid;
    gid_t st_gid;
    uint32_t st_rdev;
    struct timespec st_atim;
    struct timespec st_mtim;
    struct timespec st_ctim;
    off_t st_size;
    blkcnt_t st_blocks;
    uint32_t st_blksize;
    uint32_t st_flags;
    uint32_t st_gen;
    int32_t st_lspare;
    struct timespec st_birthtim;
};
typedef char __sce_stat_size_check[sizeof(struct stat) == 0x78 ? 1 : -1];

#define S_IFMT 0170000
#define S_IFIFO 0010000
#define S_IFCHR 0020000
#define S_IFDIR 0040000
#define S_IFBLK 0060000
#define S_IFREG 0100000
#define S_IFLNK 0120000
#define S_IFSOCK 0140000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISCHR(m) (((m) & S_IFMT) == S_IFCHR)
#define S_IRWXU 0000700
#define S_IRUSR 0000400
#define S_IWUSR 0000200
#define S_IXUSR 0000100

__SCE_BEGIN_DECLS
int stat(const char *__restrict path, struct stat *__restrict st);
int fstat(int fd, struct stat *st);
int mkdir(const char *path, mode_t mode);
__SCE_END_DECLS

#endif
