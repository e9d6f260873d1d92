/* cmd_convert.c - `slabsim convert IN OUT`: a trace into another format. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "trace_convert.h"

static void convert_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim convert [--to FORMAT] IN OUT\n\n"
		"Copy the trace IN into OUT in another format (docs/trace-format.md).\n"
		"IN may be any format, plain or zstd-compressed: it is detected from its\n"
		"first bytes.  OUT's format comes from its name unless --to says:\n"
		"  *.sbt      binary            *.sbt.zst  binary, zstd-compressed\n"
		"  *.zst      text, zstd        anything else (and -)  text\n\n"
		"  --to FORMAT   text, text.zst, sbt or sbt.zst\n\n"
		"Events, cache declarations and meta lines are copied; comments are not.\n"
		"IN and OUT may be - (stdin, stdout).  OUT is written whole or not at all.\n");
}

int cmd_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"to", required_argument, 0, 't'},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	const char *to = NULL;
	enum ss_trace_format fmt;
	struct ss_error err = {{0}};
	uint64_t events;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 't': to = optarg; break;
		case 'h': convert_usage(stdout); return 0;
		default:
			fprintf(stderr, "slabsim convert: unknown option '%s'\n", argv[optind - 1]);
			goto usage;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "slabsim convert: want IN and OUT\n");
		goto usage;
	}
	if (to && ss_trace_format_parse(to, &fmt)) {
		fprintf(stderr, "slabsim convert: bad --to '%s' (text, text.zst, sbt, sbt.zst)\n", to);
		goto usage;
	}
	if (!to)
		fmt = ss_trace_format_for_path(argv[optind + 1]);
	if (ss_trace_convert(argv[optind], argv[optind + 1], fmt, &events, &err)) {
		fprintf(stderr, "slabsim convert: %s\n", err.msg);
		return 1;
	}
	fprintf(strcmp(argv[optind + 1], "-") ? stdout : stderr,
		"slabsim convert: %s -> %s (%s): %llu events\n", argv[optind],
		argv[optind + 1], ss_trace_format_name(fmt), (unsigned long long)events);
	return 0;
usage:
	fprintf(stderr, "Try 'slabsim convert --help'.\n");
	return 2;
}
