/* calib.h - the measurements behind `slabsim calibrate` (calib_measure.c):
 * each returns ticks of the host cycle counter (host_clock.h) per unit
 * of a cost-table step, with the timer's own overhead taken out, as the
 * median of its samples and their spread (10th and 90th percentile), so
 * that the cost table can give a measured step its measured range. */
#ifndef SS_CALIB_H
#define SS_CALIB_H

#include <stdbool.h>

struct hwloc_topology;

/* A measured figure: median, 10th and 90th percentile; v < 0: not
 * measured on this host. */
struct ss_calib_value {
	double v, lo, hi;
};

struct ss_calib_fit { /* cost = a + b * bytes */
	double a, b;
};

/* A fit through the medians, and through the 10th and 90th percentiles
 * of each size (the spread of a and b). */
struct ss_calib_fits {
	struct ss_calib_fit med, lo, hi;
};

struct ss_calib_result {
	double timer;		   /* ticks of an empty measurement */
	struct ss_calib_fits poison_write, poison_check; /* memset, memchr_inv */
	struct ss_calib_value list_lock;  /* spin lock + unlock, uncontended */
	struct ss_calib_value slab_lock;  /* lock cmpxchg to take + store to drop */
	struct ss_calib_value cmpxchg16b; /* lock cmpxchg16b (x86_64 only) */
	struct ss_calib_value bounce;     /* one hand-off of a lock between two PUs */
	struct ss_calib_value alloc_fast, free_fast, alloc_slow, free_slow; /* host replay */
};

/* reps: medians are taken over this many samples of each measurement. */
void ss_calib_measure(struct ss_calib_result *r, unsigned reps,
		   struct hwloc_topology *host);

/* Median of n values (sorts them). */
double ss_calib_median(double *v, unsigned n);
/* Median, 10th and 90th percentile of n values (sorts them). */
struct ss_calib_value ss_calib_spread(double *v, unsigned n);
/* A path's figure less a part measured apart (its median), none below 0;
 * unchanged if either was not measured. */
struct ss_calib_value ss_calib_less(struct ss_calib_value path, struct ss_calib_value part);
/* Least-squares line through (x[i], y[i]). */
struct ss_calib_fit ss_calib_fit_line(const double *x, const double *y, unsigned n);

#endif
