/*
 * The contract between a device binary built by `bisheng` and the runtime
 * (twin/runtime) that loads and launches it. Plain C so both sides, and any
 * future tool, agree on one layout. Bump ASC_TWIN_ABI_VERSION on any change.
 *
 * A device binary is an ELF shared object (x86-64 host code) with:
 *   - a section ASC_TWIN_META_SECTION holding UTF-8 text lines "key=value"
 *     (the text ends at the section end or the first NUL), read by the
 *     runtime from the bytes BEFORE dlopen:
 *         abi=3                  (ASC_TWIN_ABI_VERSION; a runtime refuses any other)
 *         npu_arch=2201          (decimal NpuArch the kernel was built for)
 *         npu_arch_flag=dav-2201 (the --npu-arch given to bisheng)
 *         kernel=<name>          (one line per __global__ kernel)
 *   - for every kernel <name> an exported data symbol
 *         const AscTwinKernelInfo __asc_twin_info_<name>;
 *   - for every __global__ kernel <name> an exported function
 *         int __asc_twin_entry_<name>(const AscTwinBlockEnv *env,
 *                                     const void *args, size_t args_size,
 *                                     char *err, size_t err_cap);
 *     that runs ONE block of the kernel on the calling thread. Arguments are
 *     read from `args`: each kernel parameter starts at the next multiple of
 *     8 bytes (pointers and scalars take one 8-byte slot; a by-value struct
 *     takes sizeof rounded up to 8). It returns 0 on success, or non-zero on a
 *     trap with a one-line cause written (NUL-terminated, truncated) to `err`.
 *     No C++ exception ever crosses this boundary.
 *
 * Loader rules (no layout change, so the version stays): the runtime validates the whole image
 * in its device process before mapping it and refuses any that would run code at load or
 * unload (DT_INIT, DT_FINI, DT_(PRE)INIT_ARRAY, DT_FINI_ARRAY: bisheng links -nostartfiles),
 * needs a library other than the C/C++ runtime (DT_NEEDED outside libc, libm, libstdc++,
 * libgcc_s, libpthread, libdl, the loader; never a path), or has TEXTREL, RPATH/RUNPATH,
 * AUDIT/FILTER entries, IFUNC symbols or IRELATIVE relocations, relocations outside its own
 * segments, a writable+executable segment or an executable stack.
 *
 * Version history: 1 = first layout; 2 = AscTwinBlockEnv.flags (+ reserved) after npu_arch,
 * then fields appended behind flag bits (cross-block, block slot, GM ranges, printf).
 * 3 = one size-prefixed env: struct_size and abi_version first, every v2 field a plain member
 * (the bits that only announced fields are gone), the AI core's local memories as a table
 * indexed by position (UB, L1, L0A, L0B, L0C, BT, FB), the core type (AIC/AIV) and sub-block
 * of mixed kernels, the SoC's AIC/AIV core counts and the cross-core flag function
 * (CrossCoreSetFlag/WaitFlag); AscTwinKernelInfo.kernel_type (was reserved).
 *
 * The rule from 3 on (no version bump for it): new AscTwinBlockEnv fields are APPENDED only,
 * never inserted, resized or removed, and a kernel reads a field only if env->struct_size
 * covers it (ASC_TWIN_ENV_HAS(env, field)); a runtime always sets struct_size to the size it
 * filled. So a kernel built against a smaller env runs on a newer runtime, and a newer kernel
 * on an older runtime finds the field missing and does without it (or traps saying so).
 * Only a change that breaks this (a field's meaning or place) bumps ASC_TWIN_ABI_VERSION.
 */
#ifndef ASC_TWIN_AICORE_ABI_H_
#define ASC_TWIN_AICORE_ABI_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ASC_TWIN_ABI_VERSION 3u
#define ASC_TWIN_META_SECTION ".ascend.meta"
#define ASC_TWIN_ENTRY_PREFIX "__asc_twin_entry_"
#define ASC_TWIN_INFO_PREFIX "__asc_twin_info_"
/* The host relocatable object written by bisheng keeps the device binary here. */
#define ASC_TWIN_AICORE_SECTION ".aicore_binary"

/* Returns non-zero iff [addr, addr + len) lies inside ONE live device
 * allocation. Called by kernels before every GM access; must be thread-safe. */
typedef int (*AscTwinGmCheckFn)(const void *gm_ctx, const void *addr, uint64_t len);

/* The same answer as AscTwinGmCheckFn; on success it also stores the whole accessible range
 * [*lo, *hi) of the allocation holding [addr, addr + len) and the generation of the allocation
 * table it was read under. Every free gives the table a new generation before the memory goes,
 * so a kernel may treat any access inside [*lo, *hi) as checked for as long as
 * *gm_generation (read with acquire) still equals that generation. A generation is never used
 * twice in the process (by any table), so a kernel may keep such ranges from block to block.
 * Must be thread-safe. */
typedef int (*AscTwinGmRangeFn)(const void *gm_ctx, const void *addr, uint64_t len, uintptr_t *lo, uintptr_t *hi,
                                uint64_t *generation);

/* AscTwinBlockEnv.flags bits: capabilities only (no bit announces a field). */
/* The host issues a store fence (x86 sfence) on the thread that ran a block after
 * that block returns (at the latest after the run of blocks it ran back to back) and
 * before it reports the block complete to any other thread, on every path, traps
 * included. A kernel then need not fence its weakly ordered (streaming, non-temporal)
 * GM stores per block. Clear: the kernel fences them itself before returning. */
#define ASC_TWIN_ENV_HOST_FENCES_STORES 0x1u

/* Core types (CANN's AscendC::CoreType values). */
#define ASC_TWIN_CORE_AIC 1u /* cube core: L1, L0A, L0B, L0C, BT, FB */
#define ASC_TWIN_CORE_AIV 2u /* vector core: UB */

/* Kernel types (CANN's KernelMetaType values, KERNEL_TASK_TYPE_DEFAULT / __mix__ / __cube__ /
 * __vector__), in AscTwinKernelInfo.kernel_type and AscTwinBlockEnv.kernel_type. UNSET: the
 * kernel declares none; it runs as AIV blocks that see every local memory of the SoC (the
 * twin's figure for code that CANN's compiler would classify itself). */
#define ASC_TWIN_KERNEL_TYPE_AIV_ONLY 0u
#define ASC_TWIN_KERNEL_TYPE_AIC_ONLY 1u
#define ASC_TWIN_KERNEL_TYPE_MIX_AIV_1_0 2u
#define ASC_TWIN_KERNEL_TYPE_MIX_AIC_1_0 3u
#define ASC_TWIN_KERNEL_TYPE_MIX_AIC_1_1 4u
#define ASC_TWIN_KERNEL_TYPE_MIX_AIC_1_2 5u
#define ASC_TWIN_KERNEL_TYPE_UNSET 0xFFFFFFFFu

/* Local memory positions: the index into AscTwinBlockEnv.mem (CANN's Hardware UB, L1, L0A,
 * L0B, L0C, BIAS (BiasTable), FIXBUF (Fixpipe buffer)). */
#define ASC_TWIN_MEM_UB 0u
#define ASC_TWIN_MEM_L1 1u
#define ASC_TWIN_MEM_L0A 2u
#define ASC_TWIN_MEM_L0B 3u
#define ASC_TWIN_MEM_L0C 4u
#define ASC_TWIN_MEM_BT 5u
#define ASC_TWIN_MEM_FB 6u
#define ASC_TWIN_MEM_COUNT 7u

/* One local memory of the block's core: `size` bytes at `base` (4 KiB aligned, private to the
 * block while it runs, contents left by the previous block); size 0 and base NULL where the
 * SoC or the core type has none (an AIV has no L1, an AIC no UB). */
typedef struct AscTwinLocalMem {
  uint8_t *base;
  uint64_t size; /* the SoC's [AICoreSpec] ub_size, l1_size, l0_a_size, ... in bytes */
} AscTwinLocalMem;

/* Takes one printf record of block `block_idx`; thread-safe across blocks. */
typedef void (*AscTwinPrintFn)(const void *print_ctx, uint32_t block_idx, const char *text, size_t len);

/* Operations of AscTwinCrossBlockFn. */
/* The calling block is about to wait for other blocks of its launch: from now on every
 * block of the launch runs at once (the ones not yet started get threads of their own),
 * as every block of a launch is resident on the NPU's AI cores. Fails when the launch has
 * more blocks than resident_limit (the NPU could not hold them either). */
#define ASC_TWIN_CROSS_BLOCK_RESIDENT 1u
/* The hardware barrier of SyncAll(): returns once every block of the launch called it
 * (as often as the caller). Implies RESIDENT. */
#define ASC_TWIN_CROSS_BLOCK_BARRIER 2u
/* Polled by a waiting block: fails once another block of the launch failed, so that the
 * waiter gives up instead of waiting for a block that will never come. */
#define ASC_TWIN_CROSS_BLOCK_POLL 3u
/* The barrier of SyncAll<true>() (isAIVOnly) in a launch that also runs AIC blocks: returns
 * once every AIV block of the launch called it (as often as the caller). Implies RESIDENT. */
#define ASC_TWIN_CROSS_BLOCK_BARRIER_AIV 4u
/* The calling block is about to accumulate into GM (atomic add/max/min writes). On the NPU every
 * block of a launch starts at once, so a prologue that clears the output (Fill, InitGlobalMemory)
 * lands before any block's accumulation even without a barrier. This returns once every other
 * block of the caller's core type has reached its own accumulation, a cross-block or cross-core
 * call, or its end (at most ~1 s: a block spinning on GM by itself is not waited for). Implies
 * RESIDENT; a launch too large to be resident returns 0 at once (its blocks run in waves, on the
 * NPU too). Kernels ignore a failure (an older runtime does not know the operation). */
#define ASC_TWIN_CROSS_BLOCK_ACCUMULATE 5u
/* Returns 0, or non-zero with a one-line cause in err (NUL-terminated). */
typedef int (*AscTwinCrossBlockFn)(const void *launch_ctx, uint32_t op, char *err, size_t err_cap);

/* Operations of AscTwinCrossCoreFn (CrossCoreSetFlag / CrossCoreWaitFlag). Every core of a
 * launch has one counter per flag id (0 .. ASC_TWIN_CROSS_CORE_FLAGS - 1). SET with `mode`:
 *   0: once every core of the caller's type in the launch has set the flag, every such core's
 *      counter goes up by one;
 *   1: (AIV) once every AIV of the caller's core group has set it, each of them goes up by one;
 *   2: from an AIC, each AIV of its group goes up by one; from an AIV, once every AIV of the
 *      group has set it, the group's AIC goes up by one.
 * WAIT blocks until the caller's counter is above 0 and takes one (`mode` unused). Both make
 * the launch resident first (as ASC_TWIN_CROSS_BLOCK_RESIDENT) and fail, with a one-line cause,
 * on a flag id out of range, a mode the kernel type cannot use, a counter set more than
 * ASC_TWIN_CROSS_CORE_MAX_PENDING times without a wait, a wait no core can satisfy any more
 * (every other core of the launch ended or waits too), or another block's failure. */
#define ASC_TWIN_CROSS_CORE_SET 1u
#define ASC_TWIN_CROSS_CORE_WAIT 2u
#define ASC_TWIN_CROSS_CORE_FLAGS 11u       /* flag ids 0-10 on Atlas A2/A3 */
#define ASC_TWIN_CROSS_CORE_MAX_PENDING 15u /* sets of one counter without a wait */
/* Returns 0, or non-zero with a one-line cause in err (NUL-terminated). The caller is the block
 * whose env carries launch_ctx, core_type and block_idx (passed back so the runtime needs no
 * thread-local lookup). */
typedef int (*AscTwinCrossCoreFn)(const void *launch_ctx, uint32_t op, uint32_t mode, uint32_t flag_id,
                                  uint32_t core_type, uint32_t block_idx, char *err, size_t err_cap);

/* Everything one block needs; owned by the runtime, valid during the call. Append-only from
 * version 3 (see the rule above): read a field only if ASC_TWIN_ENV_HAS(env, field). */
typedef struct AscTwinBlockEnv {
  uint32_t struct_size;    /* sizeof(AscTwinBlockEnv) the runtime filled */
  uint32_t abi_version;    /* == ASC_TWIN_ABI_VERSION */
  uint32_t block_idx;      /* GetBlockIdx(): AIC [0, block_num), AIV [0, block_num * sub_block_num) */
  uint32_t block_num;      /* GetBlockNum(): the launch's numBlocks */
  uint32_t npu_arch;       /* the device's NpuArch, e.g. 2201 */
  uint32_t flags;          /* ASC_TWIN_ENV_* capability bits; unknown bits are ignored */
  uint32_t core_type;      /* ASC_TWIN_CORE_AIC or ASC_TWIN_CORE_AIV */
  uint32_t kernel_type;    /* ASC_TWIN_KERNEL_TYPE_* of the kernel launched */
  uint32_t sub_block_idx;  /* GetSubBlockIdx(): the AIV's index in its core group; 0 on an AIC */
  uint32_t sub_block_num;  /* GetSubBlockNum(): AIVs per core group (AIV: 2 for MIX_AIC_1_2), 1 on an AIC */
  uint32_t task_ration;    /* GetTaskRation(): AIVs per AIC of the launch on an AIV, 1 on an AIC */
  uint32_t aic_core_num;   /* GetCoreNumAic(): the SoC's cube_core_cnt */
  uint32_t aiv_core_num;   /* GetCoreNumAiv(): the SoC's vector_core_cnt */
  uint32_t resident_limit; /* blocks of one core type that can be resident at once */
  AscTwinLocalMem mem[ASC_TWIN_MEM_COUNT]; /* this block's local memories, by ASC_TWIN_MEM_* */
  AscTwinGmCheckFn gm_check;
  const void *gm_ctx;
  AscTwinGmRangeFn gm_range;     /* NULL: check each access with gm_check */
  const uint64_t *gm_generation; /* the allocation table's generation, for gm_range's answers */
  const char *soc_version;       /* e.g. "Ascend910B1" */
  const char *kernel_name;
  AscTwinCrossBlockFn cross_block; /* SyncAll, IBWait; NULL: blocks cannot wait for each other */
  const void *launch_ctx;          /* the launch, for cross_block, cross_core and print */
  AscTwinCrossCoreFn cross_core;   /* NULL: no cross-core flags */
  AscTwinPrintFn print;            /* NULL: the kernel writes its printf output to stdout */
  const void *print_ctx;
  /* The block slot (see ASC_TWIN_DEFINE_BLOCK_SLOT below): the slot's address minus the thread
   * pointer, the same in every thread; 0: the host offers none. */
  int64_t block_slot_tpoff;
} AscTwinBlockEnv;

/* A host that fills an env itself starts from this: zeroes, this header's struct_size and
 * version, and one AIV block of an undeclared kernel type (sub-block 0 of 1). */
static inline void AscTwinEnvInit(AscTwinBlockEnv *env) {
  memset(env, 0, sizeof(*env));
  env->struct_size = (uint32_t)sizeof(AscTwinBlockEnv);
  env->abi_version = ASC_TWIN_ABI_VERSION;
  env->core_type = ASC_TWIN_CORE_AIV;
  env->kernel_type = ASC_TWIN_KERNEL_TYPE_UNSET;
  env->sub_block_num = 1;
  env->task_ration = 1;
}

/* True if the env the runtime filled holds `field` (the append-only rule). */
#define ASC_TWIN_ENV_HAS(env, field) \
  ((env)->struct_size >= offsetof(AscTwinBlockEnv, field) + sizeof(((const AscTwinBlockEnv *)0)->field))

/* Host side of the block slot, where it is available (x86-64, GCC or clang; other
 * hosts leave the bit clear). A host defines its slot once, in the object that runs blocks:
 *   ASC_TWIN_DEFINE_BLOCK_SLOT(g_slot);            (a static __thread pointer, initial-exec)
 * and gives every env it fills the slot's offset: AscTwinEnvUseBlockSlot(&env, &g_slot).
 * Initial-exec keeps the slot in static TLS, at one offset in every thread; a library holding
 * one may still be dlopened (glibc places it in the static TLS reserve). In a shared library
 * linked by gold, define it as an exported symbol instead (libascendcl.so does, launch.cc): gold
 * relocates a local initial-exec variable against the wrong symbol. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ASC_TWIN_BLOCK_SLOT_SUPPORTED 1
#define ASC_TWIN_DEFINE_BLOCK_SLOT(name) static __thread void *name __attribute__((tls_model("initial-exec")))
static inline void AscTwinEnvUseBlockSlot(AscTwinBlockEnv *env, void *const *slot) {
  uintptr_t tp;
  __asm__("movq %%fs:0, %0" : "=r"(tp)); /* the thread pointer: %fs:0 holds its own address */
  env->block_slot_tpoff = (int64_t)((uintptr_t)slot - tp);
}
#else
#define ASC_TWIN_BLOCK_SLOT_SUPPORTED 0
#endif

typedef struct AscTwinKernelInfo {
  uint32_t abi_version; /* == ASC_TWIN_ABI_VERSION */
  uint32_t params;      /* number of kernel parameters */
  uint32_t args_size;   /* bytes of the packed argument blob the entry reads */
  uint32_t kernel_type; /* ASC_TWIN_KERNEL_TYPE_*: which cores a launch runs */
} AscTwinKernelInfo;

/* Optional launch trailer (no layout change of the above, so the version stays): a launcher
 * may append it right after the kernel's argument bytes, args_size = info.args_size +
 * sizeof(AscTwinLaunchTrailer); an entry accepts exactly that size when `magic` matches. It
 * carries what a direct launch (`<<<>>>`, ACLRT_LAUNCH_KERNEL, ICPU_RUN_KF) gives a kernel
 * besides its arguments: the tiling key TILING_KEY_IS reads (ICPU_SET_TILING_KEY) and the
 * dynamic UB bytes of `<<<numBlocks, dynUBufSize, stream>>>`, reserved at the top of each
 * block's UB (static allocations see ub_size - dyn_ub_size). A plain launch has neither: key
 * 0, no dynamic UB. */
#define ASC_TWIN_LAUNCH_TRAILER_MAGIC 0x315458454e495754ull /* "TWINEXT1" little endian */
typedef struct AscTwinLaunchTrailer {
  uint64_t magic; /* ASC_TWIN_LAUNCH_TRAILER_MAGIC */
  uint64_t tiling_key;
  uint64_t dyn_ub_size; /* bytes; at most the block's ub_size */
  uint64_t reserved;    /* 0 */
} AscTwinLaunchTrailer;

typedef int (*AscTwinEntryFn)(const AscTwinBlockEnv *env, const void *args, size_t args_size, char *err,
                              size_t err_cap);

#ifdef __cplusplus
}
#endif

#endif /* ASC_TWIN_AICORE_ABI_H_ */
