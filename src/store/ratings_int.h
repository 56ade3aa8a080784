/*
 * ratings_int.h: what the parts of the ratings module share (ratings.c,
 * ratings_codec.c, ratings_compute.c, ratings_store.c).  Include it from
 * src/store/ratings*.c only.
 */
#ifndef OUSTPBM_RATINGS_INT_H
#define OUSTPBM_RATINGS_INT_H

#include "store/ratings.h"

/* The order of results in the file: by end time, then board number. */
int ratings_result_cmp(const struct ratings_result *a, const struct ratings_result *b);
/* ratings_result_cmp for qsort(). */
int ratings_result_qcmp(const void *a, const void *b);

#endif
