/* native5 sdk: BSD strings.h. */
#ifndef _SCE_STRINGS_H
#define _SCE_STRINGS_H

#include <_sce_cdefs.h>
#include <stddef.h>

__SCE_BEGIN_DECLS
int strcasecmp(const char *a, const char *b);
int strncasecmp(const char *a, const char *b, size_t n);
__SCE_END_DECLS

#endif
