/* native5 sdk: libSceAmpr command buffers (APR file/wait work, AMM mapping work) and the
 * libkernel calls that submit them. A command buffer object is 0x18 bytes the title
 * reserves; SetBuffer gives it the memory the commands are written into. */
#ifndef _SCE_AMPR_H
#define _SCE_AMPR_H

#include <_sce_cdefs.h>
#include <kernel.h>
#include <stdint.h>

typedef struct SceAmprCommandBuffer {
    uint64_t opaque[3];
} SceAmprCommandBuffer;

/* Wait compare functions. */
#define SCE_AMPR_WAIT_COMPARE_EQUAL 0
#define SCE_AMPR_WAIT_COMPARE_GREATER 1
#define SCE_AMPR_WAIT_COMPARE_LESS 2
#define SCE_AMPR_WAIT_COMPARE_NOT_EQUAL 3

typedef struct SceAmprAmmSubmitResult {
    int32_t result;
    uint32_t errorOffset;
} SceAmprAmmSubmitResult;

__SCE_BEGIN_DECLS
int sceAmprCommandBufferConstructor(SceAmprCommandBuffer *cb);
int sceAmprCommandBufferDestructor(SceAmprCommandBuffer *cb);
int sceAmprAprCommandBufferConstructor(SceAmprCommandBuffer *cb);
int sceAmprAprCommandBufferDestructor(SceAmprCommandBuffer *cb);
int sceAmprAmmCommandBufferConstructor(SceAmprCommandBuffer *cb);
int sceAmprAmmCommandBufferDestructor(SceAmprCommandBuffer *cb);
int sceAmprCommandBufferSetBuffer(SceAmprCommandBuffer *cb, void *mem, uint32_t size);
void *sceAmprCommandBufferClearBuffer(SceAmprCommandBuffer *cb);
int sceAmprCommandBufferReset(SceAmprCommandBuffer *cb);
void *sceAmprCommandBufferGetBufferBaseAddress(const SceAmprCommandBuffer *cb);
uint32_t sceAmprCommandBufferGetCurrentOffset(const SceAmprCommandBuffer *cb);
uint32_t sceAmprCommandBufferGetNumCommands(const SceAmprCommandBuffer *cb);
uint32_t sceAmprCommandBufferGetSize(const SceAmprCommandBuffer *cb);
uint32_t sceAmprCommandBufferGetType(const SceAmprCommandBuffer *cb);
int sceAmprCommandBufferWriteAddressOnCompletion(SceAmprCommandBuffer *cb,
    volatile uint64_t *addr, uint64_t value);
int sceAmprCommandBufferWriteCounterOnCompletion(SceAmprCommandBuffer *cb, uint8_t counter,
    uint32_t value);
int sceAmprCommandBufferWaitOnAddress(SceAmprCommandBuffer *cb, volatile uint64_t *addr,
    uint64_t reference, uint8_t compare, uint8_t flush);
int sceAmprCommandBufferWaitOnCounter(SceAmprCommandBuffer *cb, uint8_t counter,
    uint32_t reference, uint8_t compare, uint8_t flush);
int sceAmprCommandBufferWriteKernelEventQueueOnCompletion(SceAmprCommandBuffer *cb,
    SceKernelEqueue eq, int32_t ident, uint64_t data);
int sceAmprCommandBufferPushMarker(SceAmprCommandBuffer *cb, const char *text);
int sceAmprCommandBufferSetMarker(SceAmprCommandBuffer *cb, const char *text);
int sceAmprCommandBufferPopMarker(SceAmprCommandBuffer *cb);
int sceAmprCommandBufferNop(SceAmprCommandBuffer *cb, uint32_t dwords);
uint64_t sceAmprMeasureCommandSizeWriteAddressOnCompletion(void);
uint64_t sceAmprMeasureCommandSizeWriteCounterOnCompletion(void);
uint64_t sceAmprMeasureCommandSizeWaitOnAddress(void);
uint64_t sceAmprMeasureCommandSizeWaitOnCounter(void);
uint64_t sceAmprMeasureCommandSizeWriteKernelEventQueueOnCompletion(void);
int sceAmprAmmCommandBufferMapDirect(SceAmprCommandBuffer *cb, uint64_t addr, uint64_t phys,
    uint64_t size, int memoryType, int prot);
int sceAmprAmmCommandBufferUnmap(SceAmprCommandBuffer *cb, uint64_t addr, uint64_t size);
int sceAmprAmmCommandBufferModifyProtect(SceAmprCommandBuffer *cb, uint64_t addr,
    uint64_t size, int prot, int mask);
int64_t sceAmprAmmMeasureAmmCommandSizeMapDirect(uint64_t addr, uint64_t phys, uint64_t size,
    int memoryType, int prot);
int64_t sceAmprAmmMeasureAmmCommandSizeUnmap(uint64_t addr, uint64_t size);
int64_t sceAmprAmmMeasureAmmCommandSizeModifyProtect(uint64_t addr, uint64_t size, int prot,
    int mask);
int sceAmprAmmSubmitCommandBuffer(const void *base, uint32_t bytes, uint32_t priority);
int sceAmprAmmSubmitCommandBuffer2(const void *base, uint32_t bytes, uint32_t priority,
    SceAmprAmmSubmitResult *result, uint32_t *id);
int sceAmprAmmWaitCommandBufferCompletion(uint32_t id);
int sceKernelAprSubmitCommandBuffer(const SceAmprCommandBuffer *cb, uint32_t priority);
int sceKernelAprSubmitCommandBufferAndGetId(const SceAmprCommandBuffer *cb, uint32_t priority,
    uint32_t *id);
int sceKernelAprWaitCommandBuffer(uint32_t id);
__SCE_END_DECLS
#endif
