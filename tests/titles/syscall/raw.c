/* Issues a raw FreeBSD system call (getpid, 20) itself: the relinker must refuse it. */
#include <stdio.h>

static long raw_getpid(void) {
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(20L) : "rcx", "r11", "memory");
    return ret;
}

int main(void) {
    printf("%ld\n", raw_getpid());
    return 0;
}
