/* Files, folders, mounts and devices. The test puts Data/Hello.txt in the title folder
 * (/app0), points NATIVE5_DATA_DIR at a fresh folder, and adds symlinks that lead out of
 * the mounts: /temp0/out -> /etc, /app0/link -> /etc/hostname, /temp0/dangling -> a
 * missing host path. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <kernel.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"

#define E(x) SCE_KERNEL_ERROR_##x

static int failures_at_start;
static void area(const char *name) {
    printf("%s: %s\n", name, failures == failures_at_start ? "ok" : "FAILED");
    failures_at_start = failures;
}

static void read_write(void) {
    char buf[64];
    int fd = sceKernelOpen("/savedata0/a.txt", SCE_KERNEL_O_WRONLY | SCE_KERNEL_O_CREAT | SCE_KERNEL_O_TRUNC, 0666);
    CHECK(fd >= 3, 1);
    CHECK(sceKernelWrite(fd, "hello world", 11), 11);
    CHECK(sceKernelRead(fd, buf, 4), E(EBADF)); /* write-only */
    CHECK(sceKernelClose(fd), SCE_OK);
    fd = sceKernelOpen("/savedata0/a.txt", SCE_KERNEL_O_RDWR, 0);
    CHECK(fd >= 3, 1);
    memset(buf, 0, sizeof buf);
    CHECK(sceKernelRead(fd, buf, sizeof buf), 11);
    CHECK(strcmp(buf, "hello world"), 0);
    CHECK(sceKernelRead(fd, buf, sizeof buf), 0); /* end of file */
    CHECK(sceKernelLseek(fd, 6, SCE_KERNEL_SEEK_SET), 6);
    memset(buf, 0, sizeof buf);
    CHECK(sceKernelRead(fd, buf, 5), 5);
    CHECK(strcmp(buf, "world"), 0);
    CHECK(sceKernelLseek(fd, -5, SCE_KERNEL_SEEK_CUR), 6);
    CHECK(sceKernelLseek(fd, 0, SCE_KERNEL_SEEK_END), 11);
    CHECK(sceKernelLseek(fd, -20, SCE_KERNEL_SEEK_CUR), E(EINVAL));
    CHECK(sceKernelLseek(fd, 0, 9), E(EINVAL));
    CHECK(sceKernelPwrite(fd, "HELLO", 5, 0), 5);
    memset(buf, 0, sizeof buf);
    CHECK(sceKernelPread(fd, buf, 5, 0), 5);
    CHECK(strcmp(buf, "HELLO"), 0);
    CHECK(sceKernelPread(fd, buf, 5, -1), E(EINVAL));
    CHECK(sceKernelLseek(fd, 0, SCE_KERNEL_SEEK_CUR), 11); /* pread/pwrite keep the offset */
    SceKernelStat st;
    CHECK(sceKernelFstat(fd, &st), SCE_OK);
    CHECK(st.st_size, 11);
    CHECK(S_ISREG(st.st_mode), 1);
    CHECK(sceKernelFstat(fd, NULL), E(EFAULT));
    CHECK(sceKernelClose(fd), SCE_OK);
    CHECK(sceKernelClose(fd), E(EBADF));
    /* O_APPEND writes at the end whatever the offset. */
    fd = sceKernelOpen("/savedata0/a.txt", SCE_KERNEL_O_WRONLY | SCE_KERNEL_O_APPEND, 0);
    CHECK(sceKernelLseek(fd, 0, SCE_KERNEL_SEEK_SET), 0);
    CHECK(sceKernelWrite(fd, "!", 1), 1);
    CHECK(sceKernelClose(fd), SCE_OK);
    CHECK(sceKernelStat("/savedata0/a.txt", &st), SCE_OK);
    CHECK(st.st_size, 12);
    CHECK(st.st_mtim.tv_sec > 1600000000, 1);
    CHECK(sceKernelStat("/savedata0/a.txt", NULL), E(EFAULT));
    /* POSIX names: -1 and errno. */
    fd = open("/savedata0/b.txt", O_RDWR | O_CREAT | O_EXCL, 0644);
    CHECK(fd >= 3, 1);
    CHECK(write(fd, "xyz", 3), 3);
    CHECK(lseek(fd, 1, SEEK_SET), 1);
    CHECK(read(fd, buf, 2), 2);
    CHECK(memcmp(buf, "yz", 2), 0);
    CHECK(pwrite(fd, "Q", 1, 2), 1);
    CHECK(pread(fd, buf, 3, 0), 3);
    CHECK(memcmp(buf, "xyQ", 3), 0);
    struct stat pst;
    CHECK(fstat(fd, &pst), 0);
    CHECK(pst.st_size, 3);
    CHECK(close(fd), 0);
    CHECK(stat("/savedata0/b.txt", &pst), 0);
    CHECK(unlink("/savedata0/b.txt"), 0);
    area("open/read/write");
}

static void errors(void) {
    errno = 0;
    CHECK(sceKernelOpen("/savedata0/missing", SCE_KERNEL_O_RDONLY, 0), E(ENOENT));
    CHECK(sceKernelOpen("/savedata0/a.txt", SCE_KERNEL_O_CREAT | SCE_KERNEL_O_EXCL | SCE_KERNEL_O_RDWR, 0666), E(EEXIST));
    CHECK(sceKernelOpen(NULL, SCE_KERNEL_O_RDONLY, 0), E(EFAULT));
    CHECK(sceKernelOpen("/savedata0/a.txt", 3, 0), E(EINVAL));
    CHECK(sceKernelOpen("/savedata0", SCE_KERNEL_O_WRONLY, 0), E(EISDIR));
    CHECK(sceKernelOpen("/savedata0/a.txt", SCE_KERNEL_O_DIRECTORY, 0), E(ENOTDIR));
    CHECK(sceKernelOpen("/savedata0/a.txt/x", SCE_KERNEL_O_RDONLY, 0), E(ENOTDIR));
    CHECK(sceKernelClose(-1), E(EBADF));
    CHECK(sceKernelClose(999), E(EBADF));
    char buf[8];
    CHECK(sceKernelRead(999, buf, 1), E(EBADF));
    CHECK(sceKernelWrite(-3, buf, 1), E(EBADF));
    CHECK(sceKernelLseek(1, 0, SCE_KERNEL_SEEK_SET), E(ESPIPE));
    CHECK(sceKernelStat("/savedata0/missing", &(SceKernelStat){0}), E(ENOENT));
    CHECK(open("/savedata0/missing", O_RDONLY), -1);
    CHECK(errno, ENOENT);
    CHECK(read(999, buf, 1), -1);
    CHECK(errno, EBADF);
    CHECK(close(77), -1);
    CHECK(errno, EBADF);
    CHECK(mkdir("/savedata0", 0777), -1);
    CHECK(errno, EEXIST);
    area("errors");
}

/* Lists a folder with getdents into "name/type name/type …". */
static void list(int fd, char *out, int getdirentries_too) {
    char buf[512];
    out[0] = 0;
    for (;;) {
        long base = -1;
        int n = getdirentries_too ? sceKernelGetdirentries(fd, buf, sizeof buf, &base) : sceKernelGetdents(fd, buf, sizeof buf);
        if (n <= 0) {
            CHECK(n, 0);
            break;
        }
        if (getdirentries_too)
            CHECK(base >= 0, 1);
        for (int off = 0; off < n;) {
            struct dirent *d = (struct dirent *)(buf + off);
            CHECK(d->d_reclen % 4, 0);
            CHECK((int)strlen(d->d_name), d->d_namlen);
            size_t len = strlen(out);
            snprintf(out + len, 1024 - len, "%s%s/%d", len ? " " : "", d->d_name, d->d_type);
            off += d->d_reclen;
        }
    }
}

static void folders(void) {
    char names[1024];
    CHECK(sceKernelMkdir("/savedata0/dir", 0777), SCE_OK);
    CHECK(sceKernelMkdir("/savedata0/dir", 0777), E(EEXIST));
    CHECK(sceKernelMkdir("/savedata0/no/such", 0777), E(ENOENT));
    int fd = sceKernelOpen("/savedata0/dir/b", SCE_KERNEL_O_WRONLY | SCE_KERNEL_O_CREAT, 0666);
    CHECK(sceKernelClose(fd), SCE_OK);
    fd = sceKernelOpen("/savedata0/dir/a", SCE_KERNEL_O_WRONLY | SCE_KERNEL_O_CREAT, 0666);
    CHECK(sceKernelClose(fd), SCE_OK);
    CHECK(sceKernelMkdir("/savedata0/dir/sub", 0777), SCE_OK);
    int dfd = sceKernelOpen("/savedata0/dir", SCE_KERNEL_O_RDONLY | SCE_KERNEL_O_DIRECTORY, 0);
    CHECK(dfd >= 3, 1);
    list(dfd, names, 0);
    printf("listing: %s\n", names);
    char buf[16];
    CHECK(sceKernelGetdents(dfd, buf, 4), 0); /* at the end: nothing more */
    CHECK(sceKernelLseek(dfd, 0, SCE_KERNEL_SEEK_SET), 0);
    CHECK(sceKernelGetdents(dfd, buf, 4), E(EINVAL)); /* too small for one record */
    list(dfd, names, 1);
    printf("listing again: %s\n", names);
    CHECK(sceKernelRead(dfd, buf, 4), E(EISDIR));
    SceKernelStat st;
    CHECK(sceKernelFstat(dfd, &st), SCE_OK);
    CHECK(S_ISDIR(st.st_mode), 1);
    CHECK(sceKernelClose(dfd), SCE_OK);
    CHECK(sceKernelGetdents(0, buf, sizeof buf), E(EINVAL)); /* not a folder */
    fd = open("/savedata0/dir", O_RDONLY);
    CHECK(getdents(fd, buf, 4), -1);
    CHECK(errno, EINVAL);
    CHECK(close(fd), 0);
    CHECK(sceKernelRename("/savedata0/dir/a", "/savedata0/dir/c"), SCE_OK);
    CHECK(sceKernelStat("/savedata0/dir/a", &st), E(ENOENT));
    CHECK(sceKernelStat("/savedata0/dir/c", &st), SCE_OK);
    CHECK(sceKernelRename("/savedata0/dir/missing", "/savedata0/dir/d"), E(ENOENT));
    CHECK(sceKernelRename("/savedata0/dir/c", "/temp0/c"), E(EXDEV));
    CHECK(sceKernelRmdir("/savedata0/dir"), E(ENOTEMPTY));
    CHECK(sceKernelRmdir("/savedata0/dir/b"), E(ENOTDIR));
    CHECK(sceKernelUnlink("/savedata0/dir/sub"), E(EPERM));
    CHECK(sceKernelUnlink("/savedata0/dir/missing"), E(ENOENT));
    CHECK(sceKernelUnlink("/savedata0/dir/b"), SCE_OK);
    CHECK(unlink("/savedata0/dir/c"), 0);
    CHECK(rmdir("/savedata0/dir/sub"), 0);
    CHECK(rename("/savedata0/dir", "/savedata0/dir2"), 0);
    CHECK(sceKernelRmdir("/savedata0/dir2"), SCE_OK);
    CHECK(sceKernelRmdir("/savedata0/dir2"), E(ENOENT));
    CHECK(sceKernelRmdir("/savedata0"), E(EBUSY));
    CHECK(sceKernelRename("/savedata0", "/savedata0/x"), E(EBUSY));
    /* The writable mounts all work. */
    fd = sceKernelOpen("/temp0/t", SCE_KERNEL_O_RDWR | SCE_KERNEL_O_CREAT, 0666);
    CHECK(fd >= 3, 1);
    CHECK(sceKernelClose(fd), SCE_OK);
    fd = sceKernelOpen("/download0/t", SCE_KERNEL_O_RDWR | SCE_KERNEL_O_CREAT, 0666);
    CHECK(fd >= 3, 1);
    CHECK(sceKernelClose(fd), SCE_OK);
    area("folders");
}

static void app0(void) {
    char buf[64] = {0};
    int fd = sceKernelOpen("/app0/Data/Hello.txt", SCE_KERNEL_O_RDONLY, 0);
    CHECK(fd >= 3, 1);
    CHECK(sceKernelRead(fd, buf, sizeof buf), 9);
    CHECK(strcmp(buf, "from app0"), 0);
    CHECK(sceKernelWrite(fd, "x", 1), E(EBADF));
    CHECK(sceKernelClose(fd), SCE_OK);
    /* The title's spelling may differ in case from the files on disk. */
    fd = sceKernelOpen("/app0/data/HELLO.TXT", SCE_KERNEL_O_RDONLY, 0);
    CHECK(fd >= 3, 1);
    CHECK(sceKernelClose(fd), SCE_OK);
    SceKernelStat st;
    CHECK(sceKernelStat("/app0/DATA/hello.txt", &st), SCE_OK);
    CHECK(st.st_size, 9);
    CHECK(st.st_mode & 0222, 0); /* read-only mount: no write bits */
    CHECK(sceKernelOpen("/app0/Data/Hello.txt", SCE_KERNEL_O_RDWR, 0), E(EROFS));
    CHECK(sceKernelOpen("/app0/Data/Hello.txt", SCE_KERNEL_O_RDONLY | SCE_KERNEL_O_TRUNC, 0), E(EROFS));
    CHECK(sceKernelOpen("/app0/new.txt", SCE_KERNEL_O_WRONLY | SCE_KERNEL_O_CREAT, 0666), E(EROFS));
    CHECK(sceKernelMkdir("/app0/newdir", 0777), E(EROFS));
    CHECK(sceKernelUnlink("/app0/Data/Hello.txt"), E(EROFS));
    CHECK(sceKernelRmdir("/app0/Data"), E(EROFS));
    CHECK(sceKernelRename("/app0/Data/Hello.txt", "/app0/x"), E(EROFS));
    CHECK(sceKernelRename("/app0/Data/Hello.txt", "/savedata0/x"), E(EROFS));
    CHECK(open("/app0/Data/Hello.txt", O_WRONLY), -1);
    CHECK(errno, EROFS);
    fd = sceKernelOpen("/app0", SCE_KERNEL_O_RDONLY, 0);
    CHECK(fd >= 3, 1);
    CHECK(sceKernelClose(fd), SCE_OK);
    area("app0");
}

static void escapes(void) {
    SceKernelStat st;
    static const char *const escapes[] = {
        "/app0/..",
        "/app0/../savedata0/a.txt",
        "/app0/Data/../../etc/passwd",
        "/savedata0/../../../../etc/passwd",
        "/etc/passwd",
        "/",
        "etc/passwd",
        "app0/Data/Hello.txt",
        "/proc/self/environ",
        "/temp0/out/passwd",
        "/temp0/out",
        "/temp0/dangling",
        "/app0/link",
        "/dev/../etc/passwd",
    };
    for (unsigned i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
        const char *p = escapes[i];
        int r = sceKernelOpen(p, SCE_KERNEL_O_RDONLY, 0);
        if (r != E(EACCES)) {
            printf("FAIL escape open %s = %#x\n", p, r);
            failures++;
        }
        r = sceKernelStat(p, &st);
        if (r != E(EACCES)) {
            printf("FAIL escape stat %s = %#x\n", p, r);
            failures++;
        }
    }
    CHECK(sceKernelOpen("/temp0/out/evil", SCE_KERNEL_O_WRONLY | SCE_KERNEL_O_CREAT, 0666), E(EACCES));
    CHECK(sceKernelMkdir("/temp0/out/evil", 0777), E(EACCES));
    CHECK(sceKernelMkdir("/savedata0/../evil", 0777), E(EACCES));
    CHECK(sceKernelRename("/savedata0/a.txt", "/savedata0/../a.txt"), E(EACCES));
    CHECK(sceKernelRename("/savedata0/a.txt", "/temp0/out/a.txt"), E(EACCES));
    CHECK(sceKernelUnlink("/temp0/out/hostname"), E(EACCES));
    CHECK(open("/etc/passwd", O_RDONLY), -1);
    CHECK(errno, EACCES);
    /* The link itself is inside the mount: removing it is allowed. */
    CHECK(sceKernelUnlink("/temp0/dangling"), SCE_OK);
    area("escapes");
}

static void devices(void) {
    char buf[16];
    int fd = sceKernelOpen("/dev/zero", SCE_KERNEL_O_RDONLY, 0);
    memset(buf, 7, sizeof buf);
    CHECK(sceKernelRead(fd, buf, sizeof buf), 16);
    int zeros = 1;
    for (int i = 0; i < 16; i++)
        zeros &= buf[i] == 0;
    CHECK(zeros, 1);
    CHECK(sceKernelClose(fd), SCE_OK);
    fd = sceKernelOpen("/dev/null", SCE_KERNEL_O_RDWR, 0);
    CHECK(sceKernelRead(fd, buf, sizeof buf), 0);
    CHECK(sceKernelWrite(fd, buf, sizeof buf), 16);
    CHECK(sceKernelClose(fd), SCE_OK);
    fd = sceKernelOpen("/dev/urandom", SCE_KERNEL_O_RDONLY, 0);
    memset(buf, 0, sizeof buf);
    CHECK(sceKernelRead(fd, buf, sizeof buf), 16);
    int nonzero = 0;
    for (int i = 0; i < 16; i++)
        nonzero |= buf[i];
    CHECK(nonzero != 0, 1);
    CHECK(sceKernelClose(fd), SCE_OK);
    fd = sceKernelOpen("/dev/random", SCE_KERNEL_O_RDONLY, 0);
    CHECK(sceKernelRead(fd, buf, 4), 4);
    CHECK(sceKernelClose(fd), SCE_OK);
    SceKernelStat st;
    CHECK(sceKernelStat("/dev/null", &st), SCE_OK);
    CHECK(S_ISCHR(st.st_mode), 1);
    CHECK(sceKernelOpen("/dev/sda", SCE_KERNEL_O_RDONLY, 0), E(ENOENT));
    CHECK(sceKernelUnlink("/dev/null"), E(EPERM));
    area("devices");
}

int main(void) {
    read_write();
    errors();
    folders();
    app0();
    escapes();
    devices();
    /* fds 1 and 2 are the guest streams, in order with printf. */
    CHECK(write(1, "stdio via write\n", 16), 16);
    CHECK(sceKernelWrite(STDOUT_FILENO, "stdio via sceKernelWrite\n", 25), 25);
    printf("files: %d failures\n", failures);
    return failures;
}
