/* test_hackbench_sched.c - the hackbench generator's arithmetic: skb
 * sizes and send windows (worked out from net/core/skbuff.c and
 * net/unix/af_unix.c), task placement, and the exact order of sends,
 * receives and turns of small runs traced by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "hackbench/hb_sched.h"
#include "hackbench/hb_skb.h"

/* ---- skb sizes ---- */

static void test_skb_sizes(void **state)
{
	struct ss_hackbench_skb k;
	(void)state;

	/* 100 bytes: SKB_DATA_ALIGN(100) + SKB_DATA_ALIGN(320) = 128 + 320
	 * = 448 -> kmalloc-512; truesize = 512 + SKB_DATA_ALIGN(232) = 768;
	 * 212992 / 768 = 277.3: the 278th skb still goes out. */
	ss_hackbench_skb_compute(100, false, &k);
	assert_int_equal(k.skb_size, 232);
	assert_int_equal(k.head_size, 448);
	assert_int_equal(k.head_ksize, 512);
	assert_int_equal(k.truesize, 768);
	assert_int_equal(k.window, 278);
	/* 1 byte: 64 + 320 = 384, still kmalloc-512. */
	ss_hackbench_skb_compute(1, false, &k);
	assert_int_equal(k.head_size, 384);
	assert_int_equal(k.window, 278);
	/* 200 bytes: 256 + 320 = 576 -> kmalloc-1024, truesize 1280,
	 * 212992 / 1280 = 166.4 -> 167. */
	ss_hackbench_skb_compute(200, false, &k);
	assert_int_equal(k.head_size, 576);
	assert_int_equal(k.head_ksize, 1024);
	assert_int_equal(k.window, 167);
	/* SKB_MAX_HEAD(0) = 4096 - 320 = 3776 bytes fit the head exactly:
	 * 4096 -> kmalloc-4096, truesize 4352, 48.9 -> 49. */
	ss_hackbench_skb_compute(3776, false, &k);
	assert_int_equal(k.head_size, 4096);
	assert_int_equal(k.frag_pages, 0);
	assert_int_equal(k.window, 49);
	/* One byte more goes to a page fragment: truesize + 4096. */
	ss_hackbench_skb_compute(3777, false, &k);
	assert_int_equal(k.head_size, 4096);
	assert_int_equal(k.frag_pages, 1);
	assert_int_equal(k.truesize, 4352 + 4096);
	assert_int_equal(k.window, 26);
	/* Pipes: 16 pages of 4096 hold 655.36 100-byte messages. */
	ss_hackbench_skb_compute(100, true, &k);
	assert_int_equal(k.skb_size, 0);
	assert_int_equal(k.window, 656);
	assert_int_equal(HB_MAX_DATASIZE, 106432);
}

/* ---- recording sink ---- */

struct rec {
	char log[4096];
	size_t len;
	int fail_after; /* fail the n-th callback (0 = never) */
	int calls;
};

/* Appends while there is room; a long run just stops logging. */
static int note(struct rec *r, const char *fmt, unsigned a, unsigned b)
{
	size_t room = sizeof(r->log) - r->len;
	int n;

	if (r->fail_after && ++r->calls >= r->fail_after)
		return -1;
	n = snprintf(r->log + r->len, room, fmt, a, b);
	if (n > 0 && (size_t)n < room)
		r->len += (size_t)n;
	else
		r->len = sizeof(r->log) - 1; /* full: keep what fits */
	return 0;
}

static int rec_send(void *ctx, unsigned cpu, unsigned sock)
{
	return note(ctx, "s%u>%u ", cpu, sock);
}

static int rec_recv(void *ctx, unsigned cpu, unsigned sock)
{
	return note(ctx, "r%u<%u ", cpu, sock);
}

static int rec_turn(void *ctx, unsigned cpu, enum ss_hackbench_role role, uint64_t msgs)
{
	return note(ctx, role == HB_SENDER ? "S%u:%u | " : "R%u:%u | ", cpu,
		    (unsigned)msgs);
}

static struct ss_hackbench_sink sink_of(struct rec *r)
{
	return (struct ss_hackbench_sink){.ctx = r, .send = rec_send, .recv = rec_recv,
				.turn_end = rec_turn};
}

/* One group of 2 receivers (sockets 0, 1) and 2 senders, 2 loops, 2 CPUs,
 * quantum 2.  Receivers 0, 1 on CPUs 0, 1; senders start half-way round:
 * sender 0 on CPU 1, sender 1 on CPU 0.  Run lists: CPU 0 = [r0, s1],
 * CPU 1 = [r1, s0].
 *   turn 1: r0, r1 find nothing
 *   turn 2: s1 (CPU 0) writes to sockets 0, 1; s0 (CPU 1) the same
 *   turn 3: r0 reads 2 from socket 0, r1 2 from socket 1
 *   turn 4: s1, s0 write their second loop and exit
 *   turn 5: r0, r1 read the rest and exit. */
static void test_two_by_two(void **state)
{
	struct ss_hackbench_config c = {.groups = 1, .fds = 2, .cpus = 2, .quantum = 2,
			      .window = 278, .loops = 2};
	struct rec r = {0};
	struct ss_hackbench_sink s = sink_of(&r);
	struct ss_hackbench_stats st;
	struct ss_error err;
	(void)state;

	assert_int_equal(ss_hackbench_task_cpu(&c, 0, HB_RECEIVER, 1), 1);
	assert_int_equal(ss_hackbench_task_cpu(&c, 0, HB_SENDER, 0), 1);
	assert_int_equal(ss_hackbench_task_cpu(&c, 0, HB_SENDER, 1), 0);
	assert_int_equal(ss_hackbench_run(&c, &s, &st, &err), 0);
	assert_string_equal(r.log,
		"s0>0 s0>1 S0:2 | s1>0 s1>1 S1:2 | "
		"r0<0 r0<0 R0:2 | r1<1 r1<1 R1:2 | "
		"s0>0 s0>1 S0:2 | s1>0 s1>1 S1:2 | "
		"r0<0 r0<0 R0:2 | r1<1 r1<1 R1:2 | ");
	assert_int_equal(st.messages, 8);
	assert_int_equal(ss_hackbench_messages(&c), 8);
	/* every sender writes one message of each loop to its own CPU's
	 * receiver: half the messages are remote */
	assert_int_equal(st.remote, 4);
	assert_int_equal(st.turns, 8);
	assert_int_equal(st.blocked, 0);
	assert_int_equal(st.max_inflight, 4);
}

/* One sender, one receiver, one CPU, window 2, 5 messages, quantum 10:
 * the sender blocks on the full socket twice. */
static void test_window_blocks(void **state)
{
	struct ss_hackbench_config c = {.groups = 1, .fds = 1, .cpus = 1, .quantum = 10,
			      .window = 2, .loops = 5};
	struct rec r = {0};
	struct ss_hackbench_sink s = sink_of(&r);
	struct ss_hackbench_stats st;
	struct ss_error err;
	(void)state;

	assert_int_equal(ss_hackbench_run(&c, &s, &st, &err), 0);
	assert_string_equal(r.log,
		"s0>0 s0>0 S0:2 | r0<0 r0<0 R0:2 | "
		"s0>0 s0>0 S0:2 | r0<0 r0<0 R0:2 | "
		"s0>0 S0:1 | r0<0 R0:1 | ");
	assert_int_equal(st.blocked, 2);
	assert_int_equal(st.max_inflight, 2);
	assert_int_equal(st.messages, 5);
}

/* The seed's shape on 8 CPUs: 20 receivers and 20 senders per group.
 * Receiver r of group g is the (20g + r)-th, on CPU (20g + r) mod 8;
 * sender s on CPU (20g + s + 4) mod 8: local when s + 4 = r (mod 8).
 * For s = 0..19 the residue s + 4 mod 8 is 4..7 (2 receivers each) for
 * s in 0-3, 8-11, 16-19 and 0..3 (3 receivers each) for s in 4-7, 12-15:
 * 12 x 2 + 8 x 3 = 48 local pairs of 400, in every group. */
static void test_remote_share_8cpus(void **state)
{
	struct ss_hackbench_config c = {.groups = 20, .fds = 20, .cpus = 8, .quantum = 64,
			      .window = 278, .loops = 1};
	struct rec r = {0};
	struct ss_hackbench_sink s = {.ctx = &r, .send = rec_send, .recv = rec_recv,
			    .turn_end = rec_turn};
	struct ss_hackbench_stats st;
	struct ss_error err;
	unsigned senders[8] = {0}, receivers[8] = {0};
	(void)state;

	/* the log overflows harmlessly: only the counts matter here */
	assert_int_equal(ss_hackbench_run(&c, &s, &st, &err), 0);
	assert_int_equal(st.messages, 8000);
	assert_int_equal(st.remote, 8000 - 20 * 48);
	for (unsigned g = 0; g < 20; g++)
		for (unsigned i = 0; i < 20; i++) {
			senders[ss_hackbench_task_cpu(&c, g, HB_SENDER, i)]++;
			receivers[ss_hackbench_task_cpu(&c, g, HB_RECEIVER, i)]++;
		}
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		assert_int_equal(senders[cpu], 50);
		assert_int_equal(receivers[cpu], 50);
	}
}

static void test_limits_and_sink_failure(void **state)
{
	struct ss_hackbench_config c = {.groups = 1, .fds = 2, .cpus = 2, .quantum = 2,
			      .window = 278, .loops = 2};
	struct rec r = {.fail_after = 3};
	struct ss_hackbench_sink s = sink_of(&r);
	struct ss_hackbench_stats st;
	struct ss_error err = {{0}};
	(void)state;

	assert_int_equal(ss_hackbench_run(&c, &s, &st, &err), -1);
	assert_string_equal(err.msg, ""); /* the sink's to report */
	c.cpus = 0;
	assert_int_equal(ss_hackbench_config_check(&c, &err), -1);
	assert_non_null(strstr(err.msg, "cpus"));
	c.cpus = 1;
	c.loops = 0;
	assert_int_equal(ss_hackbench_config_check(&c, &err), -1);
	c.loops = 1ull << 40;
	assert_int_equal(ss_hackbench_config_check(&c, &err), -1);
	assert_non_null(strstr(err.msg, "2^40"));
	c.loops = 1;
	c.groups = 1u << 20;
	assert_int_equal(ss_hackbench_config_check(&c, &err), -1);
	assert_non_null(strstr(err.msg, "tasks"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skb_sizes),
		cmocka_unit_test(test_two_by_two),
		cmocka_unit_test(test_window_blocks),
		cmocka_unit_test(test_remote_share_8cpus),
		cmocka_unit_test(test_limits_and_sink_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
