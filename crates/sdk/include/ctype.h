/* native5 sdk: character classes, called as libc functions (no inline table lookups, so
 * titles do not depend on the layout of libc's tables). */
#ifndef _SCE_CTYPE_H
#define _SCE_CTYPE_H

#include <_sce_cdefs.h>

__SCE_BEGIN_DECLS
int isalnum(int c);
int isalpha(int c);
int isdigit(int c);
int isxdigit(int c);
int isspace(int c);
int isupper(int c);
int islower(int c);
int isprint(int c);
int ispunct(int c);
int iscntrl(int c);
int isgraph(int c);
int toupper(int c);
int tolower(int c);
__SCE_END_DECLS

#endif
