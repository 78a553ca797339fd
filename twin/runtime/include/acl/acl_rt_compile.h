/* aclrtc: runtime compilation of Ascend C source text into a device binary that
 * aclrtBinaryLoadFromData loads (CANN's acl/acl_rt_compile.h; library libacl_rtc.so,
 * link with -lacl_rtc). On the twin the installed tree's bisheng compiles the program. */
#ifndef ACL_ACL_RT_COMPILE_H_
#define ACL_ACL_RT_COMPILE_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;
typedef void *aclrtcProg;

/* Return codes of the aclrtc functions (ACL_SUCCESS, 0, on success). */
static const int ACL_ERROR_RTC_INVALID_PROG = 176000;   /* not a live aclrtcProg */
static const int ACL_ERROR_RTC_INVALID_INPUT = 176001;  /* another argument is invalid */
static const int ACL_ERROR_RTC_INVALID_OPTION = 176002; /* a compile option is invalid */
static const int ACL_ERROR_RTC_COMPILATION = 176003;    /* the program did not compile: see the log */
static const int ACL_ERROR_RTC_LINKING = 176004;        /* the device binary did not link */
static const int ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION = 176005;
static const int ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION = 176006;
static const int ACL_ERROR_RTC_NAME_EXPR_NOT_VALID = 176007;
static const int ACL_ERROR_RTC_PROG_CREATION_FAILURE = 276000;
static const int ACL_ERROR_RTC_OUT_OF_MEMORY = 276001;
static const int ACL_ERROR_RTC_FAILURE = 576000; /* internal error (no compiler, I/O) */

/* Creates a program from the source text `src`. `name` names it in diagnostics ("" gives
 * "default_program"). `numHeaders` headers with texts `headers` may be included by the
 * names `includeNames`. */
aclError aclrtcCreateProg(aclrtcProg *prog, const char *src, const char *name, int numHeaders, const char **headers,
                          const char **includeNames);

/* Compiles the program with bisheng options (e.g. "--npu-arch=dav-2201", "-DN=4", "-O2"). */
aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char **options);

/* Destroys the program and sets *prog to NULL. */
aclError aclrtcDestroyProg(aclrtcProg *prog);

/* The compiled device binary (an ELF image for aclrtBinaryLoadFromData) and its size. */
aclError aclrtcGetBinData(aclrtcProg prog, char *binData);
aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t *binDataSizeRet);

/* The compiler's messages of the last aclrtcCompileProg; the size counts the terminating NUL. */
aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t *logSizeRet);
aclError aclrtcGetCompileLog(aclrtcProg prog, char *log);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_COMPILE_H_ */
