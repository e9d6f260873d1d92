/* test_objtable.c - the dense object table (sim/objtable.c): slots up to
 * the cap, zeroed when first given; an id at or past the cap refused as
 * the trace's, and a table the host cannot hold (an address space limit
 * below it) refused as out of memory, not as the cap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "objtable.h"

/* Under ASan a malloc the host refuses returns NULL, as without it,
 * instead of ending the program: the out-of-memory case needs that. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static void test_slots_up_to_the_cap(void **state)
{
	struct ss_objtable t;
	struct ss_error err = {{0}};

	(void)state;
	ss_objtable_init(&t, 5000);
	struct ss_obj *o = ss_objtable_slot(&t, 4999);
	assert_non_null(o);
	assert_int_equal(o->state, SS_OBJ_FREE);
	o->size = 77;
	assert_true(t.nr >= 5000);
	assert_ptr_equal(ss_objtable_find(&t, 4999), o);
	assert_int_equal(ss_objtable_slot(&t, 4999)->size, 77);
	assert_int_equal(ss_objtable_slot(&t, 10)->size, 0);
	assert_null(ss_objtable_slot(&t, 5000));
	assert_int_equal(ss_objtable_refused(&t, 5000, &err), -1);
	assert_string_equal(err.msg, "object id 5000 is beyond the live-object cap of 5000 (ids must be reused after free; raise --max-objects)");
	ss_objtable_release(&t);
}

/* This process's address space now, in bytes (VmSize). */
static unsigned long long vm_size(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long kb = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
			break;
	fclose(f);
	assert_true(kb > 0);
	return kb << 10;
}

/* id 200,000,000 under a cap of 1,000,000,000: a 6.4 GB table at least,
 * with the address space held to 256 MiB more than the process has. */
static void test_out_of_memory_below_the_cap(void **state)
{
	struct ss_objtable t;
	struct ss_error err = {{0}};
	struct rlimit old, lim;
	struct ss_obj *o;

	(void)state;
	ss_objtable_init(&t, 1000000000);
	assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
	lim = old;
	lim.rlim_cur = vm_size() + (256ull << 20);
	if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur)
		lim.rlim_cur = old.rlim_cur;
	assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
	o = ss_objtable_grow(&t, 200000000);
	assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
	assert_null(o);
	assert_int_equal(ss_objtable_refused(&t, 200000000, &err), -1);
	assert_non_null(strstr(err.msg, "out of memory: object id 200000000 needs a table of 200000001 slots"));
	assert_null(strstr(err.msg, "beyond"));
	/* the table is as before: a smaller id still gets its slot */
	assert_non_null(ss_objtable_slot(&t, 1000));
	ss_objtable_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slots_up_to_the_cap),
		cmocka_unit_test(test_out_of_memory_below_the_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
