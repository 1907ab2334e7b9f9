/* native5 sdk: the common libm functions libc exports. */
#ifndef _SCE_MATH_H
#define _SCE_MATH_H

#include <_sce_cdefs.h>

#define M_PI 3.14159265358979323846
#define HUGE_VAL (__builtin_huge_val())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))

__SCE_BEGIN_DECLS
double sqrt(double x);
double sin(double x);
double cos(double x);
double tan(double x);
double atan(double x);
double atan2(double y, double x);
double exp(double x);
double log(double x);
double log10(double x);
double pow(double x, double y);
double fabs(double x);
double floor(double x);
double ceil(double x);
double round(double x);
double fmod(double x, double y);
float sqrtf(float x);
float sinf(float x);
float cosf(float x);
float tanf(float x);
float atan2f(float y, float x);
float expf(float x);
float logf(float x);
float powf(float x, float y);
float fabsf(float x);
float floorf(float x);
float ceilf(float x);
float roundf(float x);
float fmodf(float x, float y);
__SCE_END_DECLS

#endif
