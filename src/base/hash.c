/* hash: FNV-1a and a 64-bit mixer (hash.h). */
#include "base/hash.h"

#include <string.h>

#define FNV32_PRIME UINT32_C(16777619)
#define FNV64_PRIME UINT64_C(1099511628211)

uint32_t hash_fnv1a32(uint32_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= FNV32_PRIME;
	}
	return h;
}

uint64_t hash_fnv1a64(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= FNV64_PRIME;
	}
	return h;
}

uint32_t hash_fnv1a32_str(uint32_t h, const char *s)
{
	return hash_fnv1a32(h, s, strlen(s));
}

uint64_t hash_fnv1a64_str(uint64_t h, const char *s)
{
	return hash_fnv1a64(h, s, strlen(s));
}

uint64_t hash_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	x *= UINT64_C(0xc4ceb9fe1a85ec53);
	x ^= x >> 33;
	return x;
}
