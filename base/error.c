/* error.c - formatting of struct ss_error. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

int ss_errorf(struct ss_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int ss_verror_at(struct ss_error *err, const char *file, unsigned long line,
		 const char *fmt, va_list ap)
{
	int n;

	if (!err)
		return -1;
	if (line)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%lu: ", file, line);
	else
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", file);
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		return -1;
	vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	return -1;
}

int ss_error_at(struct ss_error *err, const char *file, unsigned long line,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ss_verror_at(err, file, line, fmt, ap);
	va_end(ap);
	return -1;
}
