/* smack_cmd.h - `slabsim gen smack17k`: options, then rules and/or a trace. */
#ifndef SS_SMACK_CMD_H
#define SS_SMACK_CMD_H

/* argv[0] is "smack17k".  Returns the exit code: 0 ok, 1 bad rule file or a
 * failed write (no output left behind), 2 bad usage. */
int ss_smack_gen_main(int argc, char **argv);

#endif
