/* capture_meta.c - read a capture's meta file (capture_meta.h). */
#include "capture_meta.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define HEADER "slabsim-capture "

/* Copy v into dst (size n): a value longer than dst is cut, never an
 * error (the list is for people to read). */
static void copy_cut(char *dst, size_t n, const char *v)
{
	snprintf(dst, n, "%s", v);
}

/* untraced_cpu_ms: a finite, non-negative number */
static int parse_ms(const char *v, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(v, &end);
	return errno || end == v || *end || !isfinite(*out) || *out < 0 ? -1 : 0;
}

/* a count, into a field that is -1 when the meta does not say */
static int parse_count(const char *v, long long *out)
{
	uint64_t u;

	if (ss_parse_u64(v, INT64_MAX, &u))
		return -1;
	*out = (long long)u;
	return 0;
}

static int take(struct ss_capture_meta *m, const char *key, const char *v)
{
	if (!strcmp(key, "untraced_tasks")) {
		if (!strcmp(v, "unknown")) {
			m->untraced_tasks = -1;
			return 0;
		}
		return parse_count(v, &m->untraced_tasks);
	} else if (!strcmp(key, "untraced_cpu_ms")) {
		return parse_ms(v, &m->untraced_cpu_ms);
	} else if (!strcmp(key, "untraced_task_list")) {
		copy_cut(m->untraced_list, sizeof(m->untraced_list), v);
	} else if (!strcmp(key, "untraced_sched_lost")) {
		return ss_parse_u64(v, UINT64_MAX, &m->untraced_sched_lost);
	} else if (!strcmp(key, "lossy")) {
		if (strcmp(v, "yes") && strcmp(v, "no"))
			return -1;
		m->lossy = !strcmp(v, "yes");
	} else if (!strcmp(key, "lossy_reason")) {
		copy_cut(m->lossy_reason, sizeof(m->lossy_reason), v);
	} else if (!strcmp(key, "subreaper")) {
		if (strcmp(v, "yes") && strcmp(v, "no"))
			return -1;
		m->subreaper = !strcmp(v, "yes");
	} else if (!strcmp(key, "orphans_reaped")) {
		return parse_count(v, &m->orphans_reaped);
	} else if (!strcmp(key, "orphans_left")) {
		return parse_count(v, &m->orphans_left);
	} else if (!strcmp(key, "init_zombies_before")) {
		return parse_count(v, &m->init_zombies_before);
	} else if (!strcmp(key, "name")) {
		copy_cut(m->name, sizeof(m->name), v);
	} else if (!strcmp(key, "command")) {
		copy_cut(m->command, sizeof(m->command), v);
	} else if (!strcmp(key, "kernel")) {
		copy_cut(m->kernel, sizeof(m->kernel), v);
	} else if (!strcmp(key, "machine")) {
		copy_cut(m->machine, sizeof(m->machine), v);
	} else if (!strcmp(key, "duration_us")) {
		return parse_count(v, &m->duration_us);
	} else if (!strcmp(key, "events")) {
		return parse_count(v, &m->events);
	} else if (!strcmp(key, "tool_pids")) {
		copy_cut(m->tool_pids, sizeof(m->tool_pids), v);
	} else if (!strcmp(key, "tool_events")) {
		return parse_count(v, &m->tool_events);
	} else if (!strcmp(key, "kmem_events")) {
		char words[512], *save = NULL;

		copy_cut(words, sizeof(words), v);
		for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
			m->page_frees |= !strcmp(w, "mm_page_free");
	}
	return 0;
}

int ss_capture_meta_load(struct ss_capture_meta *m, const char *path, struct ss_error *err)
{
	FILE *fp;
	char line[4096];
	unsigned long ln = 0;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->untraced_tasks = -1;
	m->subreaper = -1;
	m->orphans_reaped = m->orphans_left = m->init_zombies_before = -1;
	m->duration_us = m->events = m->tool_events = -1;
	copy_cut(m->path, sizeof(m->path), path);
	fp = fopen(path, "r");
	if (!fp)
		return ss_error_at(err, path, 0, "cannot open: %s", strerror(errno));
	while (!rc && fgets(line, sizeof(line), fp)) {
		size_t len = strlen(line);
		char *eq;

		ln++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		else if (!feof(fp))
			rc = ss_error_at(err, path, ln, "line longer than %zu bytes", sizeof(line) - 2);
		if (rc)
			break;
		if (ln == 1 && !strncmp(line, HEADER, strlen(HEADER)))
			continue;
		eq = strchr(line, '=');
		if (!eq || eq == line) {
			rc = ss_error_at(err, path, ln, "not KEY=VALUE: '%.60s' (a make capture meta file)", line);
			break;
		}
		*eq = '\0';
		if (take(m, line, eq + 1))
			rc = ss_error_at(err, path, ln, "bad %s value '%.60s'", line, eq + 1);
	}
	if (!rc && ferror(fp))
		rc = ss_error_at(err, path, ln, "read error");
	fclose(fp);
	return rc;
}
