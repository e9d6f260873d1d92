/* registry.c - the table of workloads behind `slabsim gen`. */
#include <string.h>

#include "audit/audit_cmd.h"
#include "audit/audit_report.h"
#include "hackbench/hb_cmd.h"
#include "hackbench/hb_report.h"
#include "smack17k/smack_cmd.h"
#include "workload.h"

static const struct ss_workload workloads[] = {
	{"smack17k", "smackctl loading ~17K Smack rules, 3.10 ARM (2013 patch set)",
	 ss_smack_gen_main, NULL},
	{"hackbench", "hackbench -g 20 -l 1000 messaging under slub_debug=P, x86_64 4.5/4.6/6.1 (2016 series)",
	 ss_hackbench_gen_main, &ss_hackbench_report},
	{"audit", "stat/access/open loop, SELinux MLS, syscall audit off/on, 2.6.16 (146% hit)",
	 ss_audit_gen_main, &ss_audit_report},
};

const struct ss_workload *ss_workloads(size_t *nr)
{
	*nr = sizeof(workloads) / sizeof(workloads[0]);
	return workloads;
}

const struct ss_workload *ss_workload_find(const char *name)
{
	size_t nr;
	const struct ss_workload *w = ss_workloads(&nr);

	for (size_t i = 0; i < nr; i++)
		if (!strcmp(w[i].name, name))
			return &w[i];
	return NULL;
}
