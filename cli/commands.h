/* commands.h - the subcommands of `slabsim`, one file each (cli/cmd_*.c).
 * Each takes argc/argv starting at its own name, prints --help, and returns
 * the process exit code: 0 ok, 1 bad input or failed run, 2 bad usage. */
#ifndef SS_COMMANDS_H
#define SS_COMMANDS_H

int cmd_gen(int argc, char **argv);	 /* cli/cmd_gen.c */
int cmd_run(int argc, char **argv);	 /* cli/cmd_run.c */
int cmd_geometry(int argc, char **argv); /* cli/cmd_geometry.c */
int cmd_validate(int argc, char **argv); /* cli/cmd_validate.c */
int cmd_report(int argc, char **argv);	 /* cli/cmd_report.c */
int cmd_compare(int argc, char **argv); /* cli/cmd_compare.c */
int cmd_sweep(int argc, char **argv);	 /* cli/cmd_sweep.c */
int cmd_index(int argc, char **argv);	 /* cli/cmd_index.c */
int cmd_convert(int argc, char **argv); /* cli/cmd_convert.c */
int cmd_import(int argc, char **argv);	 /* cli/cmd_import.c */
int cmd_bench(int argc, char **argv);	 /* cli/cmd_bench.c */
int cmd_topology(int argc, char **argv); /* cli/cmd_topology.c */
int cmd_calibrate(int argc, char **argv); /* cli/cmd_calibrate.c */
int cmd_diff(int argc, char **argv);	 /* cli/cmd_diff.c */
int cmd_list(int argc, char **argv);	 /* cli/cmd_list.c */
int cmd_costs(int argc, char **argv);	 /* cli/cmd_costs.c */
int cmd_sensitivity(int argc, char **argv); /* cli/cmd_sensitivity.c */
int cmd_advise(int argc, char **argv);	 /* cli/cmd_advise.c */
int cmd_kernel_table(int argc, char **argv); /* cli/cmd_kernel_table.c */
int cmd_reap(int argc, char **argv);	 /* cli/cmd_reap.c */
int cmd_slabpages(int argc, char **argv); /* cli/cmd_slabpages.c */
int cmd_pick_target(int argc, char **argv); /* cli/cmd_pick_target.c */

#endif
