/* estimate.h - a workload's estimated constants that `slabsim gen W
 * --estimate NAME=V` may move, so that `make sensitivity` can vary each
 * over the range its consts header states (NAME_LOW, NAME_HIGH;
 * mk/sensitivity.mk, SENS_GEN).  The defaults stay the #defines. */
#ifndef SS_ESTIMATE_H
#define SS_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

struct ss_estimate {
	const char *name; /* as #defined in the workload's consts header */
	uint64_t *value;  /* where the generator reads it */
	uint64_t min;	  /* smallest value that makes sense (1: a divisor) */
};

/* Set the estimate arg names ("NAME=V", V a whole number min..10^9). */
int ss_estimate_apply(const struct ss_estimate *t, size_t n, const char *arg,
		      struct ss_error *err);

/* A command line's --estimate values, kept in order until the defaults
 * they override are set. */
#define SS_MAX_ESTIMATE_ARGS 32
struct ss_estimate_args {
	const char *v[SS_MAX_ESTIMATE_ARGS];
	unsigned n;
};
/* Keep one; -1 (err set) when there are too many. */
int ss_estimate_keep(struct ss_estimate_args *a, const char *v,
		     struct ss_error *err);
/* ss_estimate_apply() each kept value, in order. */
int ss_estimate_apply_all(const struct ss_estimate *t, size_t n,
			  const struct ss_estimate_args *a, struct ss_error *err);
/* The names, comma-separated, for --help. */
void ss_estimate_list(FILE *out, const struct ss_estimate *t, size_t n);

#endif
