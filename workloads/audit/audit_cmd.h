/* audit_cmd.h - `slabsim gen audit`: options, then one variant's trace. */
#ifndef SS_AUDIT_CMD_H
#define SS_AUDIT_CMD_H

/* argv[0] is "audit".  Returns the exit code: 0 ok, 1 a failed write (no
 * output left behind), 2 bad usage (including a malformed context). */
int ss_audit_gen_main(int argc, char **argv);

#endif
