/* test_pmu.c - event lists through libpfm4 and perf_event_open: parsing,
 * unknown events, and hardware events refused by the kernel (as in a VM
 * without a PMU: ENOENT) while software events go on counting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmu.h"

static int real_open(struct perf_event_attr *attr)
{
	return (int)syscall(__NR_perf_event_open, attr, 0, -1, -1, 0);
}

/* This machine's kernel, made deterministic: no hardware PMU. */
static int no_hw_open(struct perf_event_attr *attr)
{
	if (attr->type != PERF_TYPE_SOFTWARE) {
		errno = ENOENT;
		return -1;
	}
	return real_open(attr);
}

/* A kernel that refuses kernel-mode counting (perf_event_paranoid). */
static int user_only_open(struct perf_event_attr *attr)
{
	if (!attr->exclude_kernel) {
		errno = EACCES;
		return -1;
	}
	return real_open(attr);
}

static struct ss_pmu_event *find(struct ss_pmu_set *s, const char *name)
{
	for (unsigned i = 0; i < s->nr; i++)
		if (!strcmp(s->ev[i].name, name))
			return &s->ev[i];
	fail_msg("event %s not in the set", name);
	return NULL;
}

/* Touch `pages` fresh pages and spin a little: faults and task time. */
static void busy(unsigned pages)
{
	char *p = mmap(NULL, (size_t)pages * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile uint64_t x = 0;

	assert_true(p != MAP_FAILED);
	for (unsigned i = 0; i < pages; i++)
		p[(size_t)i * 4096] = 1;
	for (unsigned i = 0; i < 2000000; i++)
		x += i;
	munmap(p, (size_t)pages * 4096);
}

static void count_on_this_thread(struct ss_pmu_set *set, unsigned pages)
{
	struct ss_pmu_thread th;

	ss_pmu_thread_open(set, &th);
	ss_pmu_thread_enable(set, &th);
	busy(pages);
	ss_pmu_thread_disable(set, &th);
	ss_pmu_thread_read(set, &th);
	ss_pmu_thread_close(set, &th);
	ss_pmu_merge(set, &th, 1);
}

static void test_parse_list(void **state)
{
	static struct ss_pmu_set set;
	struct ss_error err;
	(void)state;

	assert_int_equal(ss_pmu_parse(&set, "cycles, task-clock ,page-faults", &err), 0);
	assert_int_equal(set.nr, 3);
	assert_string_equal(set.ev[1].name, "task-clock");
	for (unsigned i = 0; i < 3; i++)
		assert_true(set.ev[i].encoded);
	/* libpfm4's generic perf events: task-clock is software */
	assert_int_equal(set.ev[1].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(set.ev[1].attr.config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(set.ev[0].attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(set.ev[0].attr.config, PERF_COUNT_HW_CPU_CYCLES);
}

static void test_parse_errors(void **state)
{
	static struct ss_pmu_set set;
	struct ss_error err;
	char many[400] = "";
	(void)state;

	assert_int_equal(ss_pmu_parse(&set, "cycles,,task-clock", &err), -1);
	assert_non_null(strstr(err.msg, "empty event name"));
	assert_int_equal(ss_pmu_parse(&set, "", &err), -1);
	assert_int_equal(ss_pmu_parse(&set, "cycles,cycles", &err), -1);
	assert_non_null(strstr(err.msg, "'cycles' is listed twice"));
	for (int i = 0; i < 17; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%sev%d",
			 i ? "," : "", i);
	assert_int_equal(ss_pmu_parse(&set, many, &err), -1);
	assert_non_null(strstr(err.msg, "more than 16 events"));
}

/* An unknown name is unsupported, the rest still count. */
static void test_unknown_event_goes_on(void **state)
{
	static struct ss_pmu_set set;
	struct ss_error err;
	struct ss_pmu_event *ev;
	(void)state;

	assert_int_equal(ss_pmu_parse(&set, "no-such-event,task-clock", &err), 0);
	ev = find(&set, "no-such-event");
	assert_false(ev->encoded);
	assert_int_equal(ev->status, SS_PMU_UNSUPPORTED);
	assert_non_null(strstr(ev->why, "libpfm4: "));
	count_on_this_thread(&set, 4);
	assert_int_equal(ev->status, SS_PMU_UNSUPPORTED);
	assert_int_equal(find(&set, "task-clock")->status, SS_PMU_COUNTED);
}

/* Hardware refused (ENOENT), software counted: the acceptance case. */
static void test_hardware_refused_software_counted(void **state)
{
	static struct ss_pmu_set set;
	struct ss_error err;
	struct ss_pmu_event *ev;
	(void)state;

	assert_int_equal(ss_pmu_parse(&set, "cycles,instructions,cache-misses,task-clock,page-faults", &err), 0);
	set.open_fn = no_hw_open;
	count_on_this_thread(&set, 64);
	for (unsigned i = 0; i < 3; i++) {
		ev = &set.ev[i];
		assert_int_equal(ev->status, SS_PMU_UNSUPPORTED);
		assert_int_equal(ev->err, ENOENT);
		assert_string_equal(ev->why, "perf_event_open: No such file or directory");
		assert_int_equal(ev->value, 0);
	}
	ev = find(&set, "task-clock");
	assert_int_equal(ev->status, SS_PMU_COUNTED);
	assert_true(ev->value > 100000); /* ns: the spin takes over 0.1 ms */
	ev = find(&set, "page-faults");
	assert_int_equal(ev->status, SS_PMU_COUNTED);
	assert_true(ev->value >= 64);
	assert_string_equal(ss_pmu_status_name(SS_PMU_UNSUPPORTED), "unsupported");
}

/* Refused kernel counting: retried user-only, then counted. */
static void test_user_only_retry(void **state)
{
	static struct ss_pmu_set set;
	struct ss_error err;
	(void)state;

	assert_int_equal(ss_pmu_parse(&set, "task-clock", &err), 0);
	set.open_fn = user_only_open;
	count_on_this_thread(&set, 1);
	assert_int_equal(set.ev[0].status, SS_PMU_COUNTED);
	assert_true(set.ev[0].value > 0);
}

/* The real kernel: software events count; hardware ones either count or
 * are refused with an errno (this VM: ENOENT). */
static void test_real_kernel(void **state)
{
	static struct ss_pmu_set set;
	struct ss_error err;
	struct ss_pmu_event *ev;
	(void)state;

	assert_int_equal(ss_pmu_parse(&set, "cycles,task-clock", &err), 0);
	count_on_this_thread(&set, 8);
	ev = find(&set, "cycles");
	if (ev->status == SS_PMU_UNSUPPORTED)
		assert_int_not_equal(ev->err, 0);
	else
		assert_true(ev->value > 0);
	assert_int_equal(find(&set, "task-clock")->status, SS_PMU_COUNTED);
}

/* An event is counted only if every thread counted it; values add up. */
static void test_merge(void **state)
{
	static struct ss_pmu_set set;
	struct ss_pmu_thread th[2];
	struct ss_error err;
	(void)state;

	assert_int_equal(ss_pmu_parse(&set, "task-clock,page-faults", &err), 0);
	memset(th, 0, sizeof(th));
	th[0].value[0] = 10;
	th[1].value[0] = 32;
	th[0].value[1] = 5;
	th[1].err[1] = EBUSY;
	ss_pmu_merge(&set, th, 2);
	assert_int_equal(set.ev[0].status, SS_PMU_COUNTED);
	assert_int_equal(set.ev[0].value, 42);
	assert_int_equal(set.ev[1].status, SS_PMU_UNSUPPORTED);
	assert_int_equal(set.ev[1].err, EBUSY);
	assert_int_equal(set.ev[1].value, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_unknown_event_goes_on),
		cmocka_unit_test(test_hardware_refused_software_counted),
		cmocka_unit_test(test_user_only_retry),
		cmocka_unit_test(test_real_kernel),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
