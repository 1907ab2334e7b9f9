/* native5 sdk: the libkernel API of the console (threads, sleeping, time, modules).
 *
 * The scePthread* objects are the same kernel-side objects as the POSIX ones in
 * <pthread.h> (libkernel implements both on one thread library); the sce* calls return
 * SCE error codes (SCE_KERNEL_ERROR_*) where the POSIX ones return errno values. */
#ifndef _SCE_KERNEL_H
#define _SCE_KERNEL_H

#include <_sce_cdefs.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define SCE_OK 0

/* An SCE kernel error is 0x80020000 plus the FreeBSD errno value. */
#define SCE_KERNEL_ERROR_UNKNOWN ((int)0x80020000)
#define SCE_KERNEL_ERROR_EPERM ((int)0x80020001)
#define SCE_KERNEL_ERROR_ENOENT ((int)0x80020002)
#define SCE_KERNEL_ERROR_ESRCH ((int)0x80020003)
#define SCE_KERNEL_ERROR_EINTR ((int)0x80020004)
#define SCE_KERNEL_ERROR_EIO ((int)0x80020005)
#define SCE_KERNEL_ERROR_EBADF ((int)0x80020009)
#define SCE_KERNEL_ERROR_EDEADLK ((int)0x8002000b)
#define SCE_KERNEL_ERROR_ENOMEM ((int)0x8002000c)
#define SCE_KERNEL_ERROR_EACCES ((int)0x8002000d)
#define SCE_KERNEL_ERROR_EFAULT ((int)0x8002000e)
#define SCE_KERNEL_ERROR_EBUSY ((int)0x80020010)
#define SCE_KERNEL_ERROR_EEXIST ((int)0x80020011)
#define SCE_KERNEL_ERROR_EINVAL ((int)0x80020016)
#define SCE_KERNEL_ERROR_EAGAIN ((int)0x80020023)
#define SCE_KERNEL_ERROR_ETIMEDOUT ((int)0x8002003c)
#define SCE_KERNEL_ERROR_ENOSYS ((int)0x8002004e)

typedef pthread_t ScePthread;
typedef pthread_attr_t ScePthreadAttr;
typedef pthread_mutex_t ScePthreadMutex;
typedef pthread_mutexattr_t ScePthreadMutexattr;
typedef pthread_cond_t ScePthreadCond;
typedef pthread_condattr_t ScePthreadCondattr;
typedef pthread_key_t ScePthreadKey;
typedef pthread_once_t ScePthreadOnce;

typedef int32_t SceKernelModule;
typedef uint32_t SceKernelUseconds;
typedef int32_t SceKernelClockid;
typedef struct SceKernelTimespec {
    int64_t tv_sec;
    int64_t tv_nsec;
} SceKernelTimespec;

/* Options of the module calls; the layouts are not needed by titles, which pass NULL. */
typedef struct SceKernelLoadModuleOpt SceKernelLoadModuleOpt;
typedef struct SceKernelUnloadModuleOpt SceKernelUnloadModuleOpt;

__SCE_BEGIN_DECLS

int scePthreadCreate(ScePthread *thread, const ScePthreadAttr *attr, void *(*entry)(void *),
    void *arg, const char *name);
int scePthreadJoin(ScePthread thread, void **value);
int scePthreadDetach(ScePthread thread);
int scePthreadCancel(ScePthread thread);
ScePthread scePthreadSelf(void);
void scePthreadExit(void *value) __SCE_NORETURN;
void scePthreadYield(void);
int scePthreadEqual(ScePthread a, ScePthread b);
int scePthreadRename(ScePthread thread, const char *name);
int scePthreadSetprio(ScePthread thread, int prio);
int scePthreadGetprio(ScePthread thread, int *prio);
int scePthreadOnce(ScePthreadOnce *once, void (*fn)(void));
int scePthreadKeyCreate(ScePthreadKey *key, void (*destructor)(void *));
void *scePthreadGetspecific(ScePthreadKey key);
int scePthreadSetspecific(ScePthreadKey key, const void *value);

int scePthreadAttrInit(ScePthreadAttr *attr);
int scePthreadAttrDestroy(ScePthreadAttr *attr);
int scePthreadAttrSetstacksize(ScePthreadAttr *attr, size_t size);
int scePthreadAttrSetdetachstate(ScePthreadAttr *attr, int state);

int scePthreadMutexInit(ScePthreadMutex *mutex, const ScePthreadMutexattr *attr,
    const char *name);
int scePthreadMutexDestroy(ScePthreadMutex *mutex);
int scePthreadMutexLock(ScePthreadMutex *mutex);
int scePthreadMutexTrylock(ScePthreadMutex *mutex);
int scePthreadMutexUnlock(ScePthreadMutex *mutex);
int scePthreadMutexattrInit(ScePthreadMutexattr *attr);
int scePthreadMutexattrDestroy(ScePthreadMutexattr *attr);
int scePthreadMutexattrSettype(ScePthreadMutexattr *attr, int type);

int scePthreadCondInit(ScePthreadCond *cond, const ScePthreadCondattr *attr, const char *name);
int scePthreadCondDestroy(ScePthreadCond *cond);
int scePthreadCondWait(ScePthreadCond *cond, ScePthreadMutex *mutex);
int scePthreadCondSignal(ScePthreadCond *cond);
int scePthreadCondBroadcast(ScePthreadCond *cond);

int sceKernelUsleep(SceKernelUseconds usec);
int sceKernelSleep(uint32_t seconds);
int sceKernelNanosleep(const SceKernelTimespec *req, SceKernelTimespec *rem);
int sceKernelClockGettime(SceKernelClockid clock, SceKernelTimespec *out);
uint64_t sceKernelGetProcessTime(void);
uint64_t sceKernelGetProcessTimeCounter(void);
uint64_t sceKernelGetProcessTimeCounterFrequency(void);
uint64_t sceKernelReadTsc(void);
uint64_t sceKernelGetTscFrequency(void);
int sceKernelGetCurrentCpu(void);
int sceKernelDebugOutText(int channel, const char *text);

SceKernelModule sceKernelLoadStartModule(const char *path, size_t args, const void *argp,
    uint32_t flags, const SceKernelLoadModuleOpt *opt, int *result);
int sceKernelStopUnloadModule(SceKernelModule module, size_t args, const void *argp,
    uint32_t flags, const SceKernelUnloadModuleOpt *opt, int *result);
int sceKernelDlsym(SceKernelModule module, const char *symbol, void **address);
/* The address of the executable's process parameters (its .sce_process_param). */
void *sceKernelGetProcParam(void);
int sceKernelGetCompiledSdkVersion(int *version);

/* A module's start and stop functions, which the loader calls. A module that defines them
 * must export them; this declaration does (the sdk's module crt supplies defaults that
 * return 0). */
SCE_EXPORT int module_start(size_t args, const void *argp);
SCE_EXPORT int module_stop(size_t args, const void *argp);

__SCE_END_DECLS

#endif
