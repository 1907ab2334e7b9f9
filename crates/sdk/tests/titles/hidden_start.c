/* A module that defines module_start without exporting it: the sdk must refuse it. */
#include <stddef.h>

int module_start(size_t args, const void *argp) {
    (void)args;
    (void)argp;
    return 0;
}
