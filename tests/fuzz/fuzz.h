/* fuzz.h - what every fuzz harness shares.
 *
 * A harness (tests/fuzz/fuzz_<target>.c) defines LLVMFuzzerTestOneInput and
 * nothing else global.  Built with clang -fsanitize=fuzzer it is a libFuzzer
 * target (`make fuzz`); linked with driver.c it is a plain program that
 * replays the files and directories named on its command line, which is how
 * `make test` runs the kept regression inputs under ASan + UBSan.
 *
 * Harnesses turn broken promises into crashes (ss_fuzz_check), so the
 * fuzzer finds wrong answers as well as memory errors: an error message
 * that does not name its file, an event outside the documented bounds.
 */
#ifndef SS_FUZZ_H
#define SS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An in-memory file holding data (memfd), for parsers that take a path:
 * fills path ("/proc/self/fd/N") and returns the fd to pass to
 * ss_fuzz_memfile_close(), or -1 (the harness then skips the input). */
int ss_fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t n);
void ss_fuzz_memfile_close(int fd);

/* abort() with a message when cond is false: a harness-level invariant. */
#define ss_fuzz_check(cond, ...) \
	ss_fuzz_check_at((cond), __FILE__, __LINE__, __VA_ARGS__)
void ss_fuzz_check_at(int ok, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* An error message must start with "PATH:" (the file it is about). */
void ss_fuzz_check_names_file(const char *msg, const char *path);

#endif
