/*
 * hash: the non-cryptographic hashes the server uses to name and tie
 * things (a text's fingerprint, a MIME boundary, a reply's seed): FNV-1a
 * (Fowler, Noll, Vo; the 32- and 64-bit parameters of draft-eastlake-fnv)
 * and a 64-bit mixer.  None of them is a defence against anyone.
 */
#ifndef OUSTPBM_HASH_H
#define OUSTPBM_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV32_BASIS UINT32_C(2166136261)
#define HASH_FNV64_BASIS UINT64_C(14695981039346656037)

/* FNV-1a over len bytes of data, going on from h (a basis, or an earlier result). */
uint32_t hash_fnv1a32(uint32_t h, const void *data, size_t len);
uint64_t hash_fnv1a64(uint64_t h, const void *data, size_t len);

/* The same over a NUL-terminated string. */
uint32_t hash_fnv1a32_str(uint32_t h, const char *s);
uint64_t hash_fnv1a64_str(uint64_t h, const char *s);

/* MurmurHash3's 64-bit finaliser: every bit of x moves every bit of the result (a seed from a few numbers). */
uint64_t hash_mix64(uint64_t x);

#endif
