/* datafile.h - find a file shipped in the source tree (targets, cost tables,
 * seed tables) from wherever slabsim runs: $SLABSIM_HOME, then the tree the
 * binary was built in (<exe dir>/..), then the current directory. */
#ifndef SS_DATAFILE_H
#define SS_DATAFILE_H

#include <stddef.h>

#include "error.h"

int ss_datafile_find(const char *relpath, char *out, size_t n,
		     struct ss_error *err);

#endif
