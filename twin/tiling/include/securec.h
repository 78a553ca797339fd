/*
 * securec.h: the bounded memory functions of CANN's secure C library that host tiling code
 * calls (memcpy_s, memmove_s, memset_s), as inline functions: no library to link. Return EOK
 * (0), or an errno value with the destination cleared where the library clears it.
 */
#ifndef ASC_TWIN_SECUREC_H_
#define ASC_TWIN_SECUREC_H_

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef EOK
#define EOK 0
#endif

#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif

typedef int errno_t;

static inline errno_t memset_s(void *dest, size_t destMax, int c, size_t count) {
  if (dest == NULL || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return EINVAL;
  if (count > destMax) {
    memset(dest, c, destMax);
    return ERANGE;
  }
  memset(dest, c, count);
  return EOK;
}

static inline errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count) {
  if (dest == NULL || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return EINVAL;
  if (src == NULL) {
    memset(dest, 0, destMax);
    return EINVAL;
  }
  if (count > destMax) {
    memset(dest, 0, destMax);
    return ERANGE;
  }
  memmove(dest, src, count);
  return EOK;
}

static inline errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count) {
  if (dest == NULL || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return EINVAL;
  if (src == NULL || count > destMax) {
    memset(dest, 0, destMax);
    return src == NULL ? EINVAL : ERANGE;
  }
  const uintptr_t d = (uintptr_t)dest, s = (uintptr_t)src;
  if ((d < s && d + count > s) || (s < d && s + count > d)) {
    memset(dest, 0, destMax);
    return EOVERFLOW; /* overlapping buffers: memmove_s is for those */
  }
  memcpy(dest, src, count);
  return EOK;
}

#endif /* ASC_TWIN_SECUREC_H_ */
