/* util.c - helpers shared by the fuzz harnesses (see fuzz.h). */
#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int ss_fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t n)
{
	int fd = memfd_create("fuzz-input", 0);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t w = write(fd, data + done, size - done);

		if (w <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

void ss_fuzz_memfile_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

void ss_fuzz_check_at(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return;
	fprintf(stderr, "%s:%d: fuzz invariant broken: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void ss_fuzz_check_names_file(const char *msg, const char *path)
{
	size_t n = strlen(path);

	ss_fuzz_check(!strncmp(msg, path, n) && msg[n] == ':',
		      "error does not start with '%s:': %s", path, msg);
}
