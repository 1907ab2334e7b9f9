/* Carries the bytes of `syscall`, `sysenter` and `int 0x80` where they are never run:
 * after a `ret` in the code segment, and in constant data. The relinker must accept it. */
#include <stdio.h>

__attribute__((naked, noinline)) int after_ret(void) {
    __asm__(
        "mov $7, %eax\n"
        "ret\n"
        ".byte 0x0f, 0x05, 0x0f, 0x34, 0xcd, 0x80\n");
}

static const unsigned char table[] = {0x0f, 0x05, 0xcd, 0x80, 0x0f, 0x34};

int main(void) {
    printf("%d %d\n", after_ret(), table[0] + table[1]);
    return 0;
}
