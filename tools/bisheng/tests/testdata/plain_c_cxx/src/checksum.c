#include <stdint.h>
#include "checksum.h"
/* Adler-32. Valid C, not C++: `new` and `class` are plain identifiers here, and a void*
   converts to another pointer type implicitly; so this file compiles only as C. */
uint32_t checksum(const uint8_t *data, size_t n) {
  const void *start = data;
  const uint8_t *new = start;
  struct sums {
    uint32_t a, b;
  } class = {.a = 1, .b = 0};
  struct sums *s = &class;
  for (size_t i = 0; i < n; ++i) {
    s->a = (s->a + new[i]) % 65521u;
    s->b = (s->b + s->a) % 65521u;
  }
  return (s->b << 16) | s->a;
}
