/* cli.h -- the mxgold command: one file per subcommand (cmd_*.c), behind the command table of
 * main.c.  Options are defined once, in the master table of options.c; each command lists the
 * ones it takes, and its --help and man page are generated from that list.
 * SPDX-License-Identifier: MIT */
#ifndef MX_CLI_H
#define MX_CLI_H
#include <stdio.h>
#include "mx.h"
#include "mxvec.h"

/* Every option of every command.  The policy fields follow O_POLICY, one per row of
 * policies.def: O_FIELD (f).  In a command's option list, O_POLICY stands for all of them. */
enum
{
  O_NONE,
  O_HELP, O_HELP_MAN, O_FORMAT, O_FORMAT_B, O_BLOCK, O_INPUT, O_OUTPUT_FORMAT, O_SCALE_FORMAT,
  O_TO, O_FROM, O_PROFILE, O_ROUNDING, O_RANDOM_BITS, O_FLAGS, O_ACCUM, O_BLOCKS, O_GROUP, O_TC_PRESET,
  O_TC_GROUP, O_TC_FRAC, O_TC_ALIGN, O_TC_OUT, O_TC_CIN, O_TC_SP, O_TC_DENORM, O_GEMM_M,
  O_GEMM_N, O_GEMM_K, O_OP, O_LEVEL, O_NRANDOM, O_EXHAUSTIVE, O_SEED, O_EMIT, O_PACKING,
  O_QUIET, O_OUTPUT, O_VECTORS, O_RESULTS, O_ERRORS, O_CHECK_NANS, O_CHECK_ZERO_SIGN,
  O_IGNORE_FLAGS, O_STRICT, O_COLS, O_ROWS, O_TILE, O_AMAX, O_MXS_FORMAT,
  O_POLICY,
  O_COUNT = O_POLICY + 1 + MX_POLICY_FIELD_COUNT
};
#define O_FIELD(f) (O_POLICY + 1 + (int) (f))

/* A command's parsed options: the value of each option given (the last one wins), and the
 * positional arguments. */
typedef struct
{
  const char *cmd;              /* the command's name */
  const char *v[O_COUNT];       /* the option's argument, or "" for a flag; NULL if not given */
  char **pos;
  int npos;
  int argc;                     /* the command line as typed (for gen's '# command:') */
  char **argv;
} cli_args;

typedef struct
{
  const char *name, *summary;
  const char *usage;            /* after "mxgold NAME " */
  const char *details;          /* paragraphs after the options, or NULL */
  const int *options;           /* the O_* it takes, 0-terminated */
  int max_pos;                  /* positional arguments it takes */
  int (*run) (cli_args *a);
} cli_command;

/* Run the command line argv (argv[1] the command); its exit status. */
int mxgold_main (int argc, char **argv);

extern const cli_command cli_quantize, cli_dequantize, cli_cast, cli_dot, cli_gemm, cli_gen,
  cli_verify, cli_formats, cli_profiles, cli_nvfp4;

/* options.c: parse argv (argv[0] is the command) into a; exits on --help, --help-man and on
 * usage errors. */
void cli_parse (const cli_command *c, int argc, char **argv, cli_args *a);
void cli_help (const cli_command *c, FILE *o);
void cli_man (const cli_command *c, FILE *o);

/* Print "mxgold CMD: message", then "(try 'mxgold CMD --help')", and exit 2. */
_Noreturn void cli_usage_error (const cli_args *a, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* Typed option values; each dies with a usage error that says what was expected.
 * role: the roles accepted (bit 1 << MX_ROLE_*); def: the format's name when not given. */
const mx_format *cli_format (const cli_args *a, int opt, unsigned roles, const char *def);
unsigned long long cli_uint (const cli_args *a, int opt, unsigned long long lo,
                             unsigned long long hi, unsigned long long def);
/* A block command's --format, --scale-format and --block. */
void cli_block_args (const cli_args *a, const mx_format **elem, const mx_format **sf, size_t *k);
/* The profile, then --rounding and each policy field over it. */
void cli_policy (const cli_args *a, mx_policy *pol, mx_rounding *rnd);
/* The --random-bits words into rbits[n]: all n filled (one word given: repeated); exactly when
 * rnd is MX_SR, else an error.  Returns the number of words given (0: none). */
size_t cli_random_bits (const cli_args *a, mx_rounding rnd, uint32_t *rbits, size_t n);
/* A zero-scale the scale format cannot hold is an error, never masked. */
void cli_check_scale_codes (const cli_args *a, const mx_policy *pol, const mx_format *sf);
/* --rounding for a result in an interchange format: a deterministic mode, *rne. */
mx_rounding cli_det_rounding (const cli_args *a);
/* The accumulation options of dot and gemm. */
mx_dot_policy cli_dot_policy (const cli_args *a);
/* Exit 2 unless dp's fused-group group divides the block size k. */
void cli_check_group (const cli_args *a, const mx_dot_policy *dp, size_t k);
#define ROLE(r) (1u << (r))

/* output.c: the output of a command: stdout, or -o FILE written through a temporary file and
 * renamed into place only when complete (special files and '-' are written directly; a symlink
 * is written through).  Every write is checked. */
FILE *cli_out_open (const cli_args *a);
/* 1 if a write has failed so far (long loops stop early). */
int cli_out_failed (void);
/* Flush, check, close, and rename into place: 0, or 1 after printing the error. */
int cli_out_close (const cli_args *a);
/* Discard the output (the temporary file is removed). */
void cli_out_discard (void);

/* input.c: the line commands' loop: open the output (-o), call fn on the words of every stdin
 * line ('#' lines skipped, blank ones rejected) with that output, stop at the first line fn
 * rejects, then close the output (or discard it after an error, so that -o FILE is never
 * half-written).  Returns 0, 2 on malformed input, or 1 on a write error. */
typedef int (*cli_line_fn) (void *ctx, FILE *o, char **w, size_t n, const mxv_lines *at);
int cli_filter (const cli_args *a, cli_line_fn fn, void *ctx);
/* Print n words of a bits-wide format in hex (a space before each but the first of a line). */
void cli_put_words (FILE *o, const uint64_t *v, size_t n, unsigned bits, int first);
/* End an output line: the flags if asked for, then the newline. */
void cli_end_line (FILE *o, int with_flags, unsigned flags);
/* n * size bytes, or a usage error. */
void *cli_alloc (const cli_args *a, size_t n, size_t size);
/* Parse n hex words of a bits-wide format into out; on a bad one print "stdin:LINE: word I
 * 'W' is not a WHAT ..." and return 2. */
int cli_hex_words (char **w, size_t n, unsigned bits, uint64_t *out, const mxv_lines *at,
                   size_t first, const char *what);

#endif
