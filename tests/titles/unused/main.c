/* Imports used only by a function nothing calls: sceKernelGetProcessTime through the GOT
 * (its address is taken) and sceKernelUsleep through the PLT. --unused-filter=1 drops
 * the first, =2 both; 0 keeps them. */
#include <kernel.h>
#include <stdio.h>

void *never_called_address(void) { return (void *)&sceKernelGetProcessTime; }
void never_called_sleep(void) { sceKernelUsleep(1); }

int main(void) {
    printf("ok\n");
    return 0;
}
