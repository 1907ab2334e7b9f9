/* Calls a console function the runtime does not implement (libSceNet's sceNetInit):
 * the title loads and runs up to that call, which reports the NID and name and aborts. */
#include <stdio.h>

int sceNetInit(void);

int main(void) {
    printf("before the call\n");
    sceNetInit();
    printf("after the call\n");
    return 0;
}
