/* commands.h - the subcommands of `slabsim`, one file each (sim/cmd_*.c).
 * Each takes argc/argv starting at its own name, prints --help, and returns
 * the process exit code: 0 ok, 1 bad input or failed run, 2 bad usage. */
#ifndef SS_COMMANDS_H
#define SS_COMMANDS_H

int cmd_gen(int argc, char **argv);	 /* sim/cmd_gen.c */
int cmd_run(int argc, char **argv);	 /* sim/cmd_run.c */
int cmd_geometry(int argc, char **argv); /* sim/cmd_geometry.c */
int cmd_validate(int argc, char **argv); /* sim/cmd_validate.c */
int cmd_report(int argc, char **argv);	 /* analysis/cmd_report.c */

#endif
