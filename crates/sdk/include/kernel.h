/* native5 sdk: the libkernel API of the console (threads, sleeping, time, files, modules).
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
#include <dirent.h>
#include <sys/stat.h>
#include <sys/time.h>

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
#define SCE_KERNEL_ERROR_EXDEV ((int)0x80020012)
#define SCE_KERNEL_ERROR_ENOTDIR ((int)0x80020014)
#define SCE_KERNEL_ERROR_EISDIR ((int)0x80020015)
#define SCE_KERNEL_ERROR_EINVAL ((int)0x80020016)
#define SCE_KERNEL_ERROR_EMFILE ((int)0x80020018)
#define SCE_KERNEL_ERROR_ENOSPC ((int)0x8002001c)
#define SCE_KERNEL_ERROR_ESPIPE ((int)0x8002001d)
#define SCE_KERNEL_ERROR_EROFS ((int)0x8002001e)
#define SCE_KERNEL_ERROR_EAGAIN ((int)0x80020023)
#define SCE_KERNEL_ERROR_ETIMEDOUT ((int)0x8002003c)
#define SCE_KERNEL_ERROR_ENOTSUP ((int)0x8002002d)
#define SCE_KERNEL_ERROR_ENAMETOOLONG ((int)0x8002003f)
#define SCE_KERNEL_ERROR_ENOTEMPTY ((int)0x80020042)
#define SCE_KERNEL_ERROR_ENOSYS ((int)0x8002004e)
#define SCE_KERNEL_ERROR_ECANCELED ((int)0x80020055)

/* Thread priorities: 256 (most urgent) to 767; 700 is the default. */
#define SCE_KERNEL_PRIO_FIFO_HIGHEST 256
#define SCE_KERNEL_PRIO_FIFO_DEFAULT 700
#define SCE_KERNEL_PRIO_FIFO_LOWEST 767

/* Semaphore and event flag attributes and wait modes. */
#define SCE_KERNEL_SEMA_ATTR_TH_FIFO 0x01
#define SCE_KERNEL_SEMA_ATTR_TH_PRIO 0x02
#define SCE_KERNEL_EVF_ATTR_TH_FIFO 0x01
#define SCE_KERNEL_EVF_ATTR_TH_PRIO 0x02
#define SCE_KERNEL_EVF_ATTR_SINGLE 0x10
#define SCE_KERNEL_EVF_ATTR_MULTI 0x20
#define SCE_KERNEL_EVF_WAITMODE_AND 0x01
#define SCE_KERNEL_EVF_WAITMODE_OR 0x02
#define SCE_KERNEL_EVF_WAITMODE_CLEAR_ALL 0x10
#define SCE_KERNEL_EVF_WAITMODE_CLEAR_PAT 0x20

typedef pthread_t ScePthread;
typedef pthread_attr_t ScePthreadAttr;
typedef pthread_mutex_t ScePthreadMutex;
typedef pthread_mutexattr_t ScePthreadMutexattr;
typedef pthread_cond_t ScePthreadCond;
typedef pthread_condattr_t ScePthreadCondattr;
typedef pthread_key_t ScePthreadKey;
typedef pthread_once_t ScePthreadOnce;
typedef pthread_rwlock_t ScePthreadRwlock;
typedef pthread_rwlockattr_t ScePthreadRwlockattr;
typedef pthread_barrier_t ScePthreadBarrier;
typedef pthread_barrierattr_t ScePthreadBarrierattr;
typedef struct sched_param SceKernelSchedParam;
typedef uint64_t SceKernelCpumask;
/* A kernel semaphore is an id; an event flag is a handle. */
typedef int32_t SceKernelSema;
typedef struct SceKernelEventFlagObject *SceKernelEventFlag;

typedef int32_t SceKernelModule;
typedef uint32_t SceKernelUseconds;
typedef int32_t SceKernelClockid;
typedef struct SceKernelTimespec {
    int64_t tv_sec;
    int64_t tv_nsec;
} SceKernelTimespec;

/* Files: the open flags are FreeBSD's (<fcntl.h>); stat and dirent have FreeBSD 9 layouts. */
#define SCE_KERNEL_O_RDONLY 0x0000
#define SCE_KERNEL_O_WRONLY 0x0001
#define SCE_KERNEL_O_RDWR 0x0002
#define SCE_KERNEL_O_NONBLOCK 0x0004
#define SCE_KERNEL_O_APPEND 0x0008
#define SCE_KERNEL_O_FSYNC 0x0080
#define SCE_KERNEL_O_CREAT 0x0200
#define SCE_KERNEL_O_TRUNC 0x0400
#define SCE_KERNEL_O_EXCL 0x0800
#define SCE_KERNEL_O_DIRECT 0x00010000
#define SCE_KERNEL_O_DIRECTORY 0x00020000
#define SCE_KERNEL_S_IRWU 0000600
#define SCE_KERNEL_S_IRWXU 0000700
#define SCE_KERNEL_SEEK_SET 0
#define SCE_KERNEL_SEEK_CUR 1
#define SCE_KERNEL_SEEK_END 2
typedef uint16_t SceKernelMode;
typedef struct stat SceKernelStat;
typedef struct timeval SceKernelTimeval;

/* Options of the module calls; the layouts are not needed by titles, which pass NULL. */
typedef struct SceKernelLoadModuleOpt SceKernelLoadModuleOpt;
typedef struct SceKernelUnloadModuleOpt SceKernelUnloadModuleOpt;

/* Memory: direct memory (physical offsets, mapped by the title), flexible memory and the
 * virtual address space. Sizes and addresses are multiples of SCE_KERNEL_PAGE_SIZE. */
#define SCE_KERNEL_PAGE_SIZE 16384
#define SCE_KERNEL_PROT_CPU_READ 0x01
#define SCE_KERNEL_PROT_CPU_WRITE 0x02
#define SCE_KERNEL_PROT_CPU_RW 0x03
#define SCE_KERNEL_PROT_CPU_EXEC 0x04
#define SCE_KERNEL_PROT_GPU_READ 0x10
#define SCE_KERNEL_PROT_GPU_WRITE 0x20
#define SCE_KERNEL_PROT_GPU_RW 0x30
#define SCE_KERNEL_MAP_FIXED 0x0010
#define SCE_KERNEL_MAP_NO_OVERWRITE 0x0080
#define SCE_KERNEL_MAP_ANON 0x1000
#define SCE_KERNEL_WB_ONION 0
#define SCE_KERNEL_WC_GARLIC 3
#define SCE_KERNEL_WB_GARLIC 10
#define SCE_KERNEL_VQ_FIND_NEXT 1
#define SCE_KERNEL_DMQ_FIND_NEXT 1
#define SCE_KERNEL_VIRTUAL_RANGE_NAME_SIZE 32
typedef struct SceKernelVirtualQueryInfo {
    void *start;
    void *end;
    int64_t offset;
    int protection;
    int memoryType;
    unsigned isFlexibleMemory : 1;
    unsigned isDirectMemory : 1;
    unsigned isStack : 1;
    unsigned isPooledMemory : 1;
    unsigned isCommitted : 1;
    char name[SCE_KERNEL_VIRTUAL_RANGE_NAME_SIZE];
} SceKernelVirtualQueryInfo;
typedef struct SceKernelDirectMemoryQueryInfo {
    int64_t start;
    int64_t end;
    int memoryType;
} SceKernelDirectMemoryQueryInfo;

/* Event queues and their events (a FreeBSD struct kevent). */
typedef struct SceKernelEqueueObject *SceKernelEqueue;
typedef struct SceKernelEvent {
    uintptr_t ident;
    int16_t filter;
    uint16_t flags;
    uint32_t fflags;
    intptr_t data;
    void *udata;
} SceKernelEvent;
#define SCE_KERNEL_EVFILT_TIMER (-7)
#define SCE_KERNEL_EVFILT_USER (-11)
#define SCE_KERNEL_EVFILT_VIDEO_OUT (-13)
#define SCE_KERNEL_EVFILT_HRTIMER (-15)
#define SCE_KERNEL_EVFILT_AMPR (-25)

__SCE_BEGIN_DECLS
uint64_t sceKernelGetDirectMemorySize(void);
int sceKernelAllocateDirectMemory(int64_t searchStart, int64_t searchEnd, size_t len,
    size_t alignment, int memoryType, int64_t *physAddrOut);
int sceKernelAllocateMainDirectMemory(size_t len, size_t alignment, int memoryType,
    int64_t *physAddrOut);
int sceKernelAvailableDirectMemorySize(int64_t searchStart, int64_t searchEnd,
    size_t alignment, int64_t *physAddrOut, size_t *sizeOut);
int sceKernelMapDirectMemory(void **addr, size_t len, int prot, int flags,
    int64_t directMemoryStart, size_t alignment);
int sceKernelMapNamedDirectMemory(void **addr, size_t len, int prot, int flags,
    int64_t directMemoryStart, size_t alignment, const char *name);
int sceKernelMapDirectMemory2(void **addr, size_t len, int memoryType, int prot, int flags,
    int64_t directMemoryStart, size_t alignment);
int sceKernelReleaseDirectMemory(int64_t start, size_t len);
int sceKernelCheckedReleaseDirectMemory(int64_t start, size_t len);
int sceKernelDirectMemoryQuery(int64_t offset, int flags, SceKernelDirectMemoryQueryInfo *info,
    size_t infoSize);
int sceKernelMapFlexibleMemory(void **addr, size_t len, int prot, int flags);
int sceKernelMapNamedFlexibleMemory(void **addr, size_t len, int prot, int flags,
    const char *name);
int sceKernelReleaseFlexibleMemory(void *addr, size_t len);
int sceKernelAvailableFlexibleMemorySize(size_t *sizeOut);
int sceKernelReserveVirtualRange(void **addr, size_t len, int flags, size_t alignment);
int sceKernelMmap(void *addr, size_t len, int prot, int flags, int fd, int64_t offset,
    void **res);
int sceKernelMunmap(void *addr, size_t len);
int sceKernelMprotect(const void *addr, size_t len, int prot);
int sceKernelMtypeprotect(const void *addr, size_t len, int memoryType, int prot);
int sceKernelQueryMemoryProtection(void *addr, void **start, void **end, int *prot);
int sceKernelVirtualQuery(const void *addr, int flags, SceKernelVirtualQueryInfo *info,
    size_t infoSize);
int sceKernelSetVirtualRangeName(void *addr, size_t len, const char *name);

int sceKernelCreateEqueue(SceKernelEqueue *eq, const char *name);
int sceKernelDeleteEqueue(SceKernelEqueue eq);
int sceKernelWaitEqueue(SceKernelEqueue eq, SceKernelEvent *ev, int num, int *out,
    SceKernelUseconds *timeout);
int sceKernelAddUserEvent(SceKernelEqueue eq, int id);
int sceKernelAddUserEventEdge(SceKernelEqueue eq, int id);
int sceKernelTriggerUserEvent(SceKernelEqueue eq, int id, void *udata);
int sceKernelDeleteUserEvent(SceKernelEqueue eq, int id);
int sceKernelAddTimerEvent(SceKernelEqueue eq, int id, SceKernelUseconds usec, void *udata);
int sceKernelDeleteTimerEvent(SceKernelEqueue eq, int id);
int sceKernelAddHRTimerEvent(SceKernelEqueue eq, int id, SceKernelTimespec *ts, void *udata);
int sceKernelDeleteHRTimerEvent(SceKernelEqueue eq, int id);
void *sceKernelGetEventUserData(const SceKernelEvent *ev);
uintptr_t sceKernelGetEventId(const SceKernelEvent *ev);
int sceKernelGetEventFilter(const SceKernelEvent *ev);
intptr_t sceKernelGetEventData(const SceKernelEvent *ev);
unsigned sceKernelGetEventFflags(const SceKernelEvent *ev);
__SCE_END_DECLS

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
int scePthreadTimedjoin(ScePthread thread, void **value, SceKernelUseconds usec);
int scePthreadGetname(ScePthread thread, char *name);
int scePthreadGetthreadid(void);
int scePthreadSetschedparam(ScePthread thread, int policy, const SceKernelSchedParam *param);
int scePthreadGetschedparam(ScePthread thread, int *policy, SceKernelSchedParam *param);
int scePthreadSetaffinity(ScePthread thread, SceKernelCpumask mask);
int scePthreadGetaffinity(ScePthread thread, SceKernelCpumask *mask);
int scePthreadSetcancelstate(int state, int *old);
int scePthreadSetcanceltype(int type, int *old);
void scePthreadTestcancel(void);
int scePthreadKeyDelete(ScePthreadKey key);
int scePthreadKeyCreate(ScePthreadKey *key, void (*destructor)(void *));
void *scePthreadGetspecific(ScePthreadKey key);
int scePthreadSetspecific(ScePthreadKey key, const void *value);

int scePthreadAttrInit(ScePthreadAttr *attr);
int scePthreadAttrDestroy(ScePthreadAttr *attr);
int scePthreadAttrSetstacksize(ScePthreadAttr *attr, size_t size);
int scePthreadAttrSetdetachstate(ScePthreadAttr *attr, int state);
int scePthreadAttrGetdetachstate(const ScePthreadAttr *attr, int *state);
int scePthreadAttrGetstacksize(const ScePthreadAttr *attr, size_t *size);
int scePthreadAttrSetstack(ScePthreadAttr *attr, void *addr, size_t size);
int scePthreadAttrGetstack(const ScePthreadAttr *attr, void **addr, size_t *size);
int scePthreadAttrSetstackaddr(ScePthreadAttr *attr, void *addr);
int scePthreadAttrGetstackaddr(const ScePthreadAttr *attr, void **addr);
int scePthreadAttrSetguardsize(ScePthreadAttr *attr, size_t size);
int scePthreadAttrGetguardsize(const ScePthreadAttr *attr, size_t *size);
int scePthreadAttrSetschedparam(ScePthreadAttr *attr, const SceKernelSchedParam *param);
int scePthreadAttrGetschedparam(const ScePthreadAttr *attr, SceKernelSchedParam *param);
int scePthreadAttrSetschedpolicy(ScePthreadAttr *attr, int policy);
int scePthreadAttrGetschedpolicy(const ScePthreadAttr *attr, int *policy);
int scePthreadAttrSetinheritsched(ScePthreadAttr *attr, int inherit);
int scePthreadAttrGetinheritsched(const ScePthreadAttr *attr, int *inherit);
int scePthreadAttrSetaffinity(ScePthreadAttr *attr, SceKernelCpumask mask);
int scePthreadAttrGetaffinity(const ScePthreadAttr *attr, SceKernelCpumask *mask);
int scePthreadAttrSetscope(ScePthreadAttr *attr, int scope);
int scePthreadAttrGetscope(const ScePthreadAttr *attr, int *scope);
int scePthreadAttrGet(ScePthread thread, ScePthreadAttr *attr);

int scePthreadMutexInit(ScePthreadMutex *mutex, const ScePthreadMutexattr *attr,
    const char *name);
int scePthreadMutexDestroy(ScePthreadMutex *mutex);
int scePthreadMutexLock(ScePthreadMutex *mutex);
int scePthreadMutexTrylock(ScePthreadMutex *mutex);
int scePthreadMutexUnlock(ScePthreadMutex *mutex);
int scePthreadMutexattrInit(ScePthreadMutexattr *attr);
int scePthreadMutexattrDestroy(ScePthreadMutexattr *attr);
int scePthreadMutexattrSettype(ScePthreadMutexattr *attr, int type);
int scePthreadMutexattrGettype(ScePthreadMutexattr *attr, int *type);
int scePthreadMutexattrSetprotocol(ScePthreadMutexattr *attr, int protocol);
int scePthreadMutexattrGetprotocol(ScePthreadMutexattr *attr, int *protocol);
int scePthreadMutexattrSetprioceiling(ScePthreadMutexattr *attr, int ceiling);
int scePthreadMutexattrGetprioceiling(ScePthreadMutexattr *attr, int *ceiling);
int scePthreadMutexTimedlock(ScePthreadMutex *mutex, SceKernelUseconds usec);
int scePthreadMutexIsowned(ScePthreadMutex *mutex);

int scePthreadCondInit(ScePthreadCond *cond, const ScePthreadCondattr *attr, const char *name);
int scePthreadCondDestroy(ScePthreadCond *cond);
int scePthreadCondWait(ScePthreadCond *cond, ScePthreadMutex *mutex);
int scePthreadCondSignal(ScePthreadCond *cond);
int scePthreadCondBroadcast(ScePthreadCond *cond);
int scePthreadCondTimedwait(ScePthreadCond *cond, ScePthreadMutex *mutex, SceKernelUseconds usec);
int scePthreadCondattrInit(ScePthreadCondattr *attr);
int scePthreadCondattrDestroy(ScePthreadCondattr *attr);

int scePthreadRwlockInit(ScePthreadRwlock *lock, const ScePthreadRwlockattr *attr,
    const char *name);
int scePthreadRwlockDestroy(ScePthreadRwlock *lock);
int scePthreadRwlockRdlock(ScePthreadRwlock *lock);
int scePthreadRwlockWrlock(ScePthreadRwlock *lock);
int scePthreadRwlockTryrdlock(ScePthreadRwlock *lock);
int scePthreadRwlockTrywrlock(ScePthreadRwlock *lock);
int scePthreadRwlockTimedrdlock(ScePthreadRwlock *lock, SceKernelUseconds usec);
int scePthreadRwlockTimedwrlock(ScePthreadRwlock *lock, SceKernelUseconds usec);
int scePthreadRwlockUnlock(ScePthreadRwlock *lock);

int scePthreadBarrierInit(ScePthreadBarrier *barrier, const ScePthreadBarrierattr *attr,
    unsigned count, const char *name);
int scePthreadBarrierDestroy(ScePthreadBarrier *barrier);
int scePthreadBarrierWait(ScePthreadBarrier *barrier);

/* Kernel semaphores: timeouts are in/out microseconds (what is left on return). */
int sceKernelCreateSema(SceKernelSema *sem, const char *name, uint32_t attr, int init,
    int max, const void *opt);
int sceKernelDeleteSema(SceKernelSema sem);
int sceKernelWaitSema(SceKernelSema sem, int need, SceKernelUseconds *timeout);
int sceKernelPollSema(SceKernelSema sem, int need);
int sceKernelSignalSema(SceKernelSema sem, int count);
int sceKernelCancelSema(SceKernelSema sem, int count, int *waiters);

/* Event flags. */
int sceKernelCreateEventFlag(SceKernelEventFlag *ef, const char *name, uint32_t attr,
    uint64_t pattern, const void *opt);
int sceKernelDeleteEventFlag(SceKernelEventFlag ef);
int sceKernelSetEventFlag(SceKernelEventFlag ef, uint64_t pattern);
int sceKernelClearEventFlag(SceKernelEventFlag ef, uint64_t pattern);
int sceKernelWaitEventFlag(SceKernelEventFlag ef, uint64_t pattern, uint32_t mode,
    uint64_t *result, SceKernelUseconds *timeout);
int sceKernelPollEventFlag(SceKernelEventFlag ef, uint64_t pattern, uint32_t mode,
    uint64_t *result);
int sceKernelCancelEventFlag(SceKernelEventFlag ef, uint64_t pattern, int *waiters);

int sceKernelUsleep(SceKernelUseconds usec);
int sceKernelSleep(uint32_t seconds);
int sceKernelNanosleep(const SceKernelTimespec *req, SceKernelTimespec *rem);
int sceKernelClockGettime(SceKernelClockid clock, SceKernelTimespec *out);
int sceKernelClockGetres(SceKernelClockid clock, SceKernelTimespec *out);
int sceKernelGettimeofday(SceKernelTimeval *tv);
uint64_t sceKernelGetProcessTime(void);
uint64_t sceKernelGetProcessTimeCounter(void);
uint64_t sceKernelGetProcessTimeCounterFrequency(void);
uint64_t sceKernelReadTsc(void);
uint64_t sceKernelGetTscFrequency(void);
int sceKernelGetCurrentCpu(void);
int sceKernelIsNeoMode(void);
int sceKernelIsProspero(void);

/* Files and folders; the sce* calls return SCE_KERNEL_ERROR_* (64-bit results
 * sign-extended), the POSIX names -1 with errno. */
int sceKernelOpen(const char *path, int flags, SceKernelMode mode);
int sceKernelClose(int fd);
ssize_t sceKernelRead(int fd, void *buf, size_t size);
ssize_t sceKernelWrite(int fd, const void *buf, size_t size);
ssize_t sceKernelPread(int fd, void *buf, size_t size, off_t offset);
ssize_t sceKernelPwrite(int fd, const void *buf, size_t size, off_t offset);
off_t sceKernelLseek(int fd, off_t offset, int whence);
int sceKernelStat(const char *path, SceKernelStat *st);
int sceKernelFstat(int fd, SceKernelStat *st);
int sceKernelMkdir(const char *path, SceKernelMode mode);
int sceKernelRmdir(const char *path);
int sceKernelUnlink(const char *path);
int sceKernelRename(const char *from, const char *to);
int sceKernelGetdents(int fd, char *buf, int size);
int sceKernelGetdirentries(int fd, char *buf, int size, long *base);
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
