/*
 * The contract between a device binary built by `bisheng` and the runtime
 * (twin/runtime) that loads and launches it. Plain C so both sides, and any
 * future tool, agree on one layout. Bump ASC_TWIN_ABI_VERSION on any change.
 *
 * A device binary is an ELF shared object (x86-64 host code) with:
 *   - a section ASC_TWIN_META_SECTION holding UTF-8 text lines "key=value"
 *     (the text ends at the section end or the first NUL), read by the
 *     runtime from the bytes BEFORE dlopen:
 *         abi=2                  (ASC_TWIN_ABI_VERSION; a runtime refuses any other)
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
 * Version history: 1 = first layout; 2 = AscTwinBlockEnv.flags (+ reserved)
 * after npu_arch, with ASC_TWIN_ENV_HOST_FENCES_STORES. Still 2: the cross-block
 * fields at the end of AscTwinBlockEnv, present only when flags has
 * ASC_TWIN_ENV_CROSS_BLOCK (older kernels never read them; a kernel built with them
 * finds the bit clear on an older runtime and traps instead of reading past the env).
 * Still 2: block_slot_tpoff after them, read only when flags has ASC_TWIN_ENV_BLOCK_SLOT,
 * and gm_range/gm_generation after that, read only when flags has ASC_TWIN_ENV_GM_RANGE
 * (accelerators: a kernel finding a bit clear runs the same, only slower).
 * Still 2: print/print_ctx after them, read only when flags has ASC_TWIN_ENV_PRINT (a kernel
 * finding the bit clear writes its printf output to stdout itself).
 */
#ifndef ASC_TWIN_AICORE_ABI_H_
#define ASC_TWIN_AICORE_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ASC_TWIN_ABI_VERSION 2u
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
typedef int (*AscTwinGmRangeFn)(const void *gm_ctx, const void *addr, uint64_t len, uintptr_t *lo,
                                uintptr_t *hi, uint64_t *generation);

/* AscTwinBlockEnv.flags bits. */
/* The host issues a store fence (x86 sfence) on the thread that ran a block after
 * that block returns (at the latest after the run of blocks it ran back to back) and
 * before it reports the block complete to any other thread, on every path, traps
 * included. A kernel then need not fence its weakly ordered (streaming, non-temporal)
 * GM stores per block. Clear: the kernel fences them itself before returning. */
#define ASC_TWIN_ENV_HOST_FENCES_STORES 0x1u
/* The env has the cross-block fields (cross_block, launch_ctx, resident_limit): blocks
 * of the launch may wait for each other (SyncAll, IBWait). */
#define ASC_TWIN_ENV_CROSS_BLOCK 0x2u
/* The env has block_slot_tpoff: the calling thread (and every thread of the host that runs
 * blocks) owns a pointer-sized, zero-initialised slot in static TLS (initial-exec model, so
 * it sits at the same offset from the thread pointer in every thread) that the host never
 * touches otherwise. The entry stores the address of its per-block state there for the
 * duration of the block and restores the old value before returning, so the kernel's API
 * calls reach that state with two plain loads instead of a dynamic-TLS lookup
 * (__tls_get_addr) in its dlopened image. x86-64 only: the offset is from %fs:0. */
#define ASC_TWIN_ENV_BLOCK_SLOT 0x4u
/* The env has gm_range and gm_generation: a kernel may remember checked allocations and check
 * a GM access against them inline, as long as the table's generation is unchanged (a free is
 * seen by the next check on every thread, as with gm_check alone). */
#define ASC_TWIN_ENV_GM_RANGE 0x8u

/* The env has print and print_ctx: a kernel hands each printf record (the whole formatted text
 * of one call, "[AIV Block i/n] " prefix included) to the runtime, which prints the launch's
 * records in block order when the launch ends, as CANN prints the parsed dump buffer at the
 * stream's synchronize. */
#define ASC_TWIN_ENV_PRINT 0x10u

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
/* Returns 0, or non-zero with a one-line cause in err (NUL-terminated). */
typedef int (*AscTwinCrossBlockFn)(const void *launch_ctx, uint32_t op, char *err, size_t err_cap);

/* Everything one block needs; owned by the runtime, valid during the call. */
typedef struct AscTwinBlockEnv {
  uint32_t abi_version;   /* == ASC_TWIN_ABI_VERSION */
  uint32_t block_idx;     /* GetBlockIdx() */
  uint32_t block_num;     /* GetBlockNum() */
  uint32_t npu_arch;      /* the device's NpuArch, e.g. 2201 */
  uint32_t flags;         /* ASC_TWIN_ENV_* bits; unknown bits are ignored */
  uint32_t reserved;      /* 0 */
  uint8_t *ub_base;       /* this block's private Unified Buffer, 4 KiB aligned */
  uint64_t ub_size;       /* the SoC's [AICoreSpec] ub_size in bytes */
  AscTwinGmCheckFn gm_check;
  const void *gm_ctx;
  const char *soc_version; /* e.g. "Ascend910B1" */
  const char *kernel_name;
  /* Valid only when flags has ASC_TWIN_ENV_CROSS_BLOCK. */
  AscTwinCrossBlockFn cross_block;
  const void *launch_ctx;   /* the launch, for cross_block */
  uint32_t resident_limit;  /* blocks that can be resident at once: the SoC's core count */
  uint32_t reserved2;       /* 0 */
  /* Valid only when flags has ASC_TWIN_ENV_BLOCK_SLOT (a host setting it passes the whole
   * struct): the slot's address minus the thread pointer, the same in every thread. */
  int64_t block_slot_tpoff;
  /* Valid only when flags has ASC_TWIN_ENV_GM_RANGE (the whole struct passed). */
  AscTwinGmRangeFn gm_range;
  const uint64_t *gm_generation; /* the allocation table's generation, for gm_range's answers */
  /* Valid only when flags has ASC_TWIN_ENV_PRINT (the whole struct passed). */
  AscTwinPrintFn print;
  const void *print_ctx; /* the launch, for print */
} AscTwinBlockEnv;

/* Host side of ASC_TWIN_ENV_BLOCK_SLOT, where it is available (x86-64, GCC or clang; other
 * hosts leave the bit clear). A host defines its slot once, in the object that runs blocks:
 *   ASC_TWIN_DEFINE_BLOCK_SLOT(g_slot);            (a static __thread pointer, initial-exec)
 * and gives every env it fills the slot's offset: AscTwinEnvUseBlockSlot(&env, &g_slot).
 * Initial-exec keeps the slot in static TLS, at one offset in every thread; a library holding
 * one may still be dlopened (glibc places it in the static TLS reserve). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ASC_TWIN_BLOCK_SLOT_SUPPORTED 1
#define ASC_TWIN_DEFINE_BLOCK_SLOT(name) static __thread void *name __attribute__((tls_model("initial-exec")))
static inline void AscTwinEnvUseBlockSlot(AscTwinBlockEnv *env, void *const *slot) {
  uintptr_t tp;
  __asm__("movq %%fs:0, %0" : "=r"(tp)); /* the thread pointer: %fs:0 holds its own address */
  env->block_slot_tpoff = (int64_t)((uintptr_t)slot - tp);
  env->flags |= ASC_TWIN_ENV_BLOCK_SLOT;
}
#else
#define ASC_TWIN_BLOCK_SLOT_SUPPORTED 0
#endif

typedef struct AscTwinKernelInfo {
  uint32_t abi_version; /* == ASC_TWIN_ABI_VERSION */
  uint32_t params;      /* number of kernel parameters */
  uint32_t args_size;   /* bytes of the packed argument blob the entry reads */
  uint32_t reserved;
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
  uint64_t magic;        /* ASC_TWIN_LAUNCH_TRAILER_MAGIC */
  uint64_t tiling_key;
  uint64_t dyn_ub_size;  /* bytes; at most the block's ub_size */
  uint64_t reserved;     /* 0 */
} AscTwinLaunchTrailer;

typedef int (*AscTwinEntryFn)(const AscTwinBlockEnv *env, const void *args,
                              size_t args_size, char *err, size_t err_cap);

#ifdef __cplusplus
}
#endif

#endif /* ASC_TWIN_AICORE_ABI_H_ */
