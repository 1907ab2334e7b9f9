/* native5 sdk: directory entries as getdents/getdirentries return them (FreeBSD 9:
 * 32-bit d_fileno, 8-bit d_namlen, records padded to 4 bytes). */
#ifndef _SCE_DIRENT_H
#define _SCE_DIRENT_H

#include <_sce_cdefs.h>
#include <sys/types.h>

struct dirent {
    uint32_t d_fileno;
    uint16_t d_reclen;
    uint8_t d_type;
    uint8_t d_namlen;
    char d_name[256];
};

#define DT_UNKNOWN 0
#define DT_FIFO 1
#define DT_CHR 2
#define DT_DIR 4
#define DT_BLK 6
#define DT_REG 8
#define DT_LNK 10
#define DT_SOCK 12

__SCE_BEGIN_DECLS
int getdents(int fd, char *buf, int size);
int getdirentries(int fd, char *buf, int size, long *base);
__SCE_END_DECLS

#endif
