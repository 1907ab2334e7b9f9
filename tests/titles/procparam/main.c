/* Reads its own process parameters through sceKernelGetProcParam. */
#include <kernel.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    const unsigned char *p = sceKernelGetProcParam();
    if (!p)
        return 1;
    unsigned long size;
    unsigned int magic, sdk;
    memcpy(&size, p, 8);
    memcpy(&magic, p + 8, 4);
    memcpy(&sdk, p + 16, 4);
    printf("size %#lx magic %.4s sdk %#x\n", size, (const char *)&magic, sdk);
    return 0;
}
