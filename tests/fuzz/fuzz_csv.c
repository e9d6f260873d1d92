/* fuzz_csv.c - the strict CSV reader the report builder uses
 * (analysis/csv.c): open, then every record, every field as text, as an
 * integer and as a number.  Errors name the file. */
#include <string.h>

#include "csv.h"
#include "fuzz.h"

static int count_comment(void *ctx, const char *text, unsigned long line,
			 struct ss_error *err)
{
	(void)text;
	(void)line;
	(void)err;
	(*(unsigned long *)ctx)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_csv c;
	struct ss_error err = {{0}};
	unsigned long comments = 0;
	char path[64];
	int fd = ss_fuzz_memfile(data, size, path, sizeof(path));
	int rc;

	if (fd < 0)
		return 0;
	if (ss_csv_open(&c, path, count_comment, &comments, &err) == 0) {
		ss_fuzz_check(ss_csv_col(&c, c.hdr[0]) == 0, "first column not found");
		while ((rc = ss_csv_next(&c, &err)) == 1) {
			for (unsigned i = 0; i < c.ncols; i++) {
				uint64_t u;
				double d;

				ss_fuzz_check(ss_csv_get(&c, i) != NULL, "field %u", i);
				ss_csv_u64(&c, i, &u, &err);
				ss_csv_num(&c, i, &d, &err);
			}
		}
		if (rc < 0)
			ss_fuzz_check_names_file(err.msg, path);
		ss_csv_close(&c);
	} else {
		ss_fuzz_check_names_file(err.msg, path);
	}
	ss_fuzz_memfile_close(fd);
	return 0;
}
