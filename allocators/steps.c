/* steps.c - names of the steps. */
#include "steps.h"

#include <string.h>

static const char *const step_names[] = {
#define X(id, name, unit) name,
	SS_STEP_LIST(X)
#undef X
};

static const char *const step_units[] = {
#define X(id, name, unit) unit,
	SS_STEP_LIST(X)
#undef X
};

const char *ss_step_name(enum ss_step s)
{
	return (unsigned)s < SS_NR_STEPS ? step_names[s] : "?";
}

const char *ss_step_unit(enum ss_step s)
{
	return (unsigned)s < SS_NR_STEPS ? step_units[s] : "?";
}

int ss_step_find(const char *name)
{
	for (int i = 0; i < SS_NR_STEPS; i++)
		if (!strcmp(step_names[i], name))
			return i;
	return -1;
}

const char *ss_fn_name(enum ss_fn f)
{
	static const char *const names[] = {
#define X(id, name) name,
		SS_FN_LIST(X)
#undef X
	};

	return (unsigned)f < SS_NR_FNS ? names[f] : "?";
}
