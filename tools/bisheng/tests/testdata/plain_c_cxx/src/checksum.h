#pragma once
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
uint32_t checksum(const uint8_t *data, size_t n);
#ifdef __cplusplus
}
#endif
