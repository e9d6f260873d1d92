/* hb_cmd.h - `slabsim gen hackbench`: options, then one trace. */
#ifndef SS_HB_CMD_H
#define SS_HB_CMD_H

/* argv[0] is "hackbench".  Returns the exit code: 0 ok, 1 failed write
 * (no output left behind), 2 bad usage. */
int ss_hackbench_gen_main(int argc, char **argv);

#endif
