/* cmd_convert.c - `slabsim convert IN OUT`: a trace into another format. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "opts.h"
#include "trace_convert.h"

enum { O_TO, O_HELP, O_FILES, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_TO] = {"to", NULL, "FORMAT", "text, text.zst, sbt or sbt.zst"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
	[O_FILES] = {NULL, NULL, "IN OUT", NULL}, /* the synopsis says enough */
};

static void convert_usage(FILE *out);

static const struct ss_opt_set opt_set = {"convert", specs, NR_OPTS, convert_usage};

static void convert_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim convert [--to FORMAT] IN OUT\n\n"
		"Copy the trace IN into OUT in another format (docs/trace-format.md).\n"
		"IN may be any format, plain or zstd-compressed: it is detected from its\n"
		"first bytes.  OUT's format comes from its name unless --to says:\n"
		"  *.sbt      binary            *.sbt.zst  binary, zstd-compressed\n"
		"  *.zst      text, zstd        anything else (and -)  text\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out,
		"\nEvents, cache declarations and meta lines are copied; comments are not.\n"
		"IN and OUT may be - (stdin, stdout).  OUT is written whole or not at all.\n");
}

struct convert_opts {
	const char *to;
	const char *file[2]; /* IN, OUT */
	int nr_files;
};

static int take_convert_opt(void *ctx, int id, const char *v)
{
	struct convert_opts *o = ctx;

	if (id == O_TO) {
		o->to = v;
		return 0;
	}
	if (o->nr_files == 2)
		return ss_opt_usage_err(&opt_set, "want IN and OUT");
	o->file[o->nr_files++] = v;
	return 0;
}

int ss_cmd_convert(int argc, char **argv)
{
	struct convert_opts o = {0};
	enum ss_trace_format fmt;
	struct ss_error err = {{0}};
	uint64_t events;
	int rc = ss_opt_scan(&opt_set, argc, argv, take_convert_opt, &o);

	if (rc)
		return ss_opt_exit(rc);
	if (o.nr_files != 2)
		return ss_opt_exit(ss_opt_usage_err(&opt_set, "want IN and OUT"));
	if (o.to && ss_trace_format_parse(o.to, &fmt))
		return ss_opt_exit(ss_opt_usage_err(&opt_set,
			"bad value '%s' for --to (text, text.zst, sbt, sbt.zst)", o.to));
	if (!o.to)
		fmt = ss_trace_format_for_path(o.file[1]);
	if (ss_trace_convert(o.file[0], o.file[1], fmt, &events, &err)) {
		fprintf(stderr, "slabsim convert: %s\n", err.msg);
		return 1;
	}
	fprintf(strcmp(o.file[1], "-") ? stdout : stderr,
		"slabsim convert: %s -> %s (%s): %llu events\n", o.file[0],
		o.file[1], ss_trace_format_name(fmt), (unsigned long long)events);
	return 0;
}
