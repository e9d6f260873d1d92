/* error.h - one error record passed down every fallible call.
 *
 * Functions that can fail take a `struct ss_error *` and return non-zero on
 * failure after filling it.  The message always names where the problem is
 * (file:line for input files), so the command layer only prints it.
 */
#ifndef SS_ERROR_H
#define SS_ERROR_H

#include <stdarg.h>

#include <stddef.h>

struct ss_error {
	char msg[1024];
};

/* Format an error; returns -1 so callers can `return ss_errorf(...)`. */
int ss_errorf(struct ss_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Same, prefixed with "file:line: " (line 0 omits the line number). */
int ss_error_at(struct ss_error *err, const char *file, unsigned long line,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* ss_error_at() with a va_list, for wrappers that word the place. */
int ss_verror_at(struct ss_error *err, const char *file, unsigned long line,
		 const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

#endif
