/* fuzz_costs.c - the cost-table parser (allocators/costs.c:
 * ss_costs_parse_file).  Every price it accepts is a finite number in
 * 0..1e9; an error names the file. */
#include <math.h>
#include <string.h>

#include "costs.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_costs c;
	struct ss_error err = {{0}};
	char path[64];
	int fd = ss_fuzz_memfile(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	memset(&c, 0, sizeof(c));
	if (ss_costs_parse_file(&c, path, 'u', &err) == 0) {
		for (int s = 0; s < SS_NR_STEPS; s++)
			ss_fuzz_check(isfinite(c.cycles[s]) && c.cycles[s] >= 0 &&
				      c.cycles[s] <= 1e9, "step %d costs %g", s,
				      c.cycles[s]);
	} else {
		ss_fuzz_check_names_file(err.msg, path);
	}
	ss_fuzz_memfile_close(fd);
	return 0;
}
