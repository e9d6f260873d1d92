/* calib.h - the measurements behind `slabsim calibrate` (calib_measure.c):
 * each returns ticks of the host cycle counter (host_clock.h) per unit
 * of a cost-table step, with the timer's own overhead taken out. */
#ifndef SS_CALIB_H
#define SS_CALIB_H

#include <stdbool.h>

struct hwloc_topology;

struct calib_fit { /* cost = a + b * bytes */
	double a, b;
};

struct calib_result {
	double timer;		   /* ticks of an empty measurement */
	struct calib_fit poison_write, poison_check;
	double list_lock, slab_lock; /* uncontended lock + unlock */
	double bounce;		   /* one hand-off of a lock between two PUs, <0: not measured */
	double alloc_fast, free_fast, alloc_slow, free_slow; /* host replay paths */
};

/* reps: medians are taken over this many samples of each measurement. */
void calib_measure(struct calib_result *r, unsigned reps,
		   struct hwloc_topology *host);

/* Median of n values (sorts them). */
double calib_median(double *v, unsigned n);
/* Least-squares line through (x[i], y[i]). */
struct calib_fit calib_fit_line(const double *x, const double *y, unsigned n);

#endif
