/* native5 sdk: FreeBSD/PS5 basic system types (x86-64: long and pointers are 64-bit). */
#ifndef _SCE_SYS_TYPES_H
#define _SCE_SYS_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef long ssize_t;
typedef int64_t off_t;
typedef int32_t pid_t;
typedef uint32_t uid_t;
typedef uint32_t gid_t;
typedef uint16_t mode_t;
typedef int64_t time_t;
typedef int64_t suseconds_t;
typedef uint32_t useconds_t;
typedef int32_t clockid_t;
typedef uint64_t ino_t;
typedef uint64_t dev_t;
typedef int64_t blkcnt_t;
typedef int32_t blksize_t;
typedef uint64_t nlink_t;

#endif
