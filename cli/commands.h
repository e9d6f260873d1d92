/* commands.h - the subcommands of `slabsim`, one file each (cli/cmd_*.c).
 * Each takes argc/argv starting at its own name, prints --help, and returns
 * the process exit code: 0 ok, 1 bad input or failed run, 2 bad usage. */
#ifndef SS_COMMANDS_H
#define SS_COMMANDS_H

int ss_cmd_gen(int argc, char **argv);	 /* cli/cmd_gen.c */
int ss_cmd_run(int argc, char **argv);	 /* cli/cmd_run.c */
int ss_cmd_geometry(int argc, char **argv); /* cli/cmd_geometry.c */
int ss_cmd_validate(int argc, char **argv); /* cli/cmd_validate.c */
int ss_cmd_report(int argc, char **argv);	 /* cli/cmd_report.c */
int ss_cmd_compare(int argc, char **argv); /* cli/cmd_compare.c */
int ss_cmd_sweep(int argc, char **argv);	 /* cli/cmd_sweep.c */
int ss_cmd_index(int argc, char **argv);	 /* cli/cmd_index.c */
int ss_cmd_convert(int argc, char **argv); /* cli/cmd_convert.c */
int ss_cmd_import(int argc, char **argv);	 /* cli/cmd_import.c */
int ss_cmd_bench(int argc, char **argv);	 /* cli/cmd_bench.c */
int ss_cmd_topology(int argc, char **argv); /* cli/cmd_topology.c */
int ss_cmd_calibrate(int argc, char **argv); /* cli/cmd_calibrate.c */
int ss_cmd_diff(int argc, char **argv);	 /* cli/cmd_diff.c */
int ss_cmd_list(int argc, char **argv);	 /* cli/cmd_list.c */
int ss_cmd_costs(int argc, char **argv);	 /* cli/cmd_costs.c */
int ss_cmd_sensitivity(int argc, char **argv); /* cli/cmd_sensitivity.c */
int ss_cmd_advise(int argc, char **argv);	 /* cli/cmd_advise.c */
int ss_cmd_kernel_table(int argc, char **argv); /* cli/cmd_kernel_table.c */
int ss_cmd_reap(int argc, char **argv);	 /* cli/cmd_reap.c */
int ss_cmd_slabpages(int argc, char **argv); /* cli/cmd_slabpages.c */
int ss_cmd_pick_target(int argc, char **argv); /* cli/cmd_pick_target.c */

#endif
