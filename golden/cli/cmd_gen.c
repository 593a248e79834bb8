/* cmd_gen.c -- mxgold gen: conformance vectors (docs/vectors.md).  The cases are counted first
 * (fast: nothing is computed), so the header can declare them, and then streamed: memory stays
 * bounded whatever -n is.
 * SPDX-License-Identifier: MIT */
#include <string.h>
#include <unistd.h>
#include "cli.h"

typedef struct
{
  mxv_writer w;
  long long n, total;
  int progress;
} sink;

static int
emit (void *ctx, mxv_case *c)
{
  sink *s = ctx;
  mxv_writer_case (&s->w, c);
  if (++s->n % 4096 == 0)
    {
      if (cli_out_failed ())
        return 1; /* the output is failing: stop now */
      if (s->progress)
        fprintf (stderr, "\rgen: %lld of %lld cases", s->n, s->total);
    }
  return 0;
}

/* The command as typed, without the output file and --quiet: part of the file's content. */
static void
record_command (const cli_args *a, char *cmd, size_t n)
{
  size_t len = (size_t) snprintf (cmd, n, "mxgold");
  for (int i = 0; i < a->argc && len < n; i++)
    {
      const char *s = a->argv[i];
      int file_next = strcmp (s, "-o") == 0 || strcmp (s, "--output-file") == 0
                      || (strcmp (s, "--output") == 0 && i + 1 < a->argc
                          && (mx_format_by_name (a->argv[i + 1]) == NULL
                              || mx_format_by_name (a->argv[i + 1])->role != MX_ROLE_IEEE));
      if (file_next)
        {
          i++;
          continue;
        }
      if ((strncmp (s, "-o", 2) == 0 && s[2]) || strncmp (s, "--output-file=", 14) == 0
          || strncmp (s, "--output=", 9) == 0 || strcmp (s, "--quiet") == 0)
        continue;
      len += (size_t) snprintf (cmd + len, n - len, " %s", s);
    }
}

/* Options that mean nothing for the op are errors, not silently ignored. */
static void
check_applies (const cli_args *a, mxv_op op)
{
  enum { TWO_LEVEL = 1u << MXV_NVFP4 | 1u << MXV_MXS };
  static const struct
  {
    int id;
    unsigned ops; /* bit per mxv_op */
  } rules[] = {
    { O_INPUT, 1u << MXV_QUANTIZE | 1u << MXV_CAST | TWO_LEVEL },
    { O_OUTPUT_FORMAT, 1u << MXV_DECODE | 1u << MXV_DEQUANTIZE | 1u << MXV_DOT | 1u << MXV_GEMM | TWO_LEVEL },
    { O_FORMAT_B, 1u << MXV_DOT | 1u << MXV_GEMM },
    { O_ACCUM, 1u << MXV_DOT | 1u << MXV_GEMM },
    { O_GROUP, 1u << MXV_DOT | 1u << MXV_GEMM },
    { O_BLOCKS, 1u << MXV_DOT },
    { O_GEMM_M, 1u << MXV_GEMM }, { O_GEMM_N, 1u << MXV_GEMM }, { O_GEMM_K, 1u << MXV_GEMM },
    { O_PACKING, 1u << MXV_QUANTIZE | 1u << MXV_DEQUANTIZE },
    { O_SCALE_FORMAT, ~(1u << MXV_CAST | 1u << MXV_DECODE | TWO_LEVEL) },
    /* the two-level ops fix their element format, scale and block */
    { O_FORMAT, ~TWO_LEVEL }, { O_BLOCK, ~TWO_LEVEL },
    { O_ROWS, 1u << MXV_NVFP4 }, { O_COLS, 1u << MXV_NVFP4 }, { O_TILE, 1u << MXV_NVFP4 },
    { O_AMAX, 1u << MXV_NVFP4 }, { O_MXS_FORMAT, 1u << MXV_MXS },
    /* TE's recipe has no policy */
    { O_PROFILE, ~(1u << MXV_NVFP4) },
  };
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
    if (a->v[rules[i].id] && !((rules[i].ops >> op) & 1))
      {
        char name[32];
        int id = rules[i].id;
        snprintf (name, sizeof name, "%s", id == O_INPUT ? "input" : id == O_OUTPUT_FORMAT ? "output-format"
                                           : id == O_FORMAT_B ? "format-b" : id == O_ACCUM ? "accum"
                                           : id == O_GROUP ? "group"
                                           : id == O_BLOCKS ? "blocks" : id == O_PACKING ? "packing"
                                           : id == O_SCALE_FORMAT ? "scale-format"
                                           : id == O_FORMAT ? "format" : id == O_BLOCK ? "block"
                                           : id == O_ROWS ? "rows" : id == O_COLS ? "cols"
                                           : id == O_TILE ? "tile" : id == O_AMAX ? "amax"
                                           : id == O_MXS_FORMAT ? "mxs-format"
                                           : id == O_PROFILE ? "profile" : "gemm-*");
        cli_usage_error (a, "--%s does not apply to --op %s", name, mxv_op_names[op]);
      }
  if (op == MXV_NVFP4)
    for (int f = 0; f < MX_POLICY_FIELD_COUNT; f++)
      if (a->v[O_FIELD (f)])
        cli_usage_error (a, "--%s does not apply to --op nvfp4 (TransformerEngine's recipe has no "
                         "policy fields)", mx_policy_field_get ((mx_policy_field) f)->name);
}

/* The two-level ops' own options: nvfp4's tensor, mxs's format. */
static void
two_level_args (const cli_args *a, mxv_header *h)
{
  char q[64];
  if (h->op == MXV_MXS)
    {
      int f = a->v[O_MXS_FORMAT] ? mx_mxs_parse (a->v[O_MXS_FORMAT]) : MX_MXS_MX9;
      if (f < 0)
        cli_usage_error (a, "unknown --mxs-format '%s' (mx9 mx6 mx4)",
                         mxv_quote (q, sizeof q, a->v[O_MXS_FORMAT]));
      h->mxs = (mx_mxs_format) f;
      h->elem = mx_mxs_get (h->mxs)->elem;
      h->k = mx_mxs_get (h->mxs)->k1;
      return;
    }
  h->elem = mx_format_get (MX_E2M1);
  h->scale = mx_format_get (MX_UE4M3);
  h->k = MX_NVFP4_BLOCK;
  h->rows = (size_t) cli_uint (a, O_ROWS, 1, MXV_MAX_WORDS, 16);
  h->cols = (size_t) cli_uint (a, O_COLS, MX_NVFP4_BLOCK, MXV_MAX_WORDS, 16);
  const char *t = a->v[O_TILE] ? a->v[O_TILE] : "1d", *am = a->v[O_AMAX] ? a->v[O_AMAX] : "tensor";
  if (strcmp (t, "1d") != 0 && strcmp (t, "2d") != 0)
    cli_usage_error (a, "--tile wants 1d or 2d, not '%s'", mxv_quote (q, sizeof q, t));
  if (strcmp (am, "tensor") != 0 && strcmp (am, "given") != 0)
    cli_usage_error (a, "--amax wants tensor or given, not '%s'", mxv_quote (q, sizeof q, am));
  h->tile_2d = t[0] == '2';
  h->amax_given = am[0] == 'g';
}

static int
run (cli_args *a)
{
  static mxv_header h;
  char err[256], q[64];
  mxv_header_init (&h);
  if (!a->v[O_OP])
    cli_usage_error (a, "gen needs --op quantize|cast|decode|dequantize|dot|gemm|nvfp4|mxs");
  int op = mx_name_lookup (mxv_op_names, MXV_OP_COUNT, a->v[O_OP]);
  if (op < 0)
    cli_usage_error (a, "unknown --op '%s' (quantize cast decode dequantize dot gemm nvfp4 mxs)",
                     mxv_quote (q, sizeof q, a->v[O_OP]));
  h.op = (mxv_op) op;
  check_applies (a, h.op);
  int dotlike = h.op == MXV_DOT || h.op == MXV_GEMM;
  unsigned any = ROLE (MX_ROLE_ELEM) | ROLE (MX_ROLE_SCALE) | ROLE (MX_ROLE_IEEE);
  if (h.op != MXV_NVFP4 && h.op != MXV_MXS)
    h.elem = cli_format (a, O_FORMAT, h.op == MXV_DECODE ? any : ROLE (MX_ROLE_ELEM), NULL);
  if (a->v[O_FORMAT_B])
    h.elem_b = cli_format (a, O_FORMAT_B, ROLE (MX_ROLE_ELEM), NULL);
  h.scale = cli_format (a, O_SCALE_FORMAT, ROLE (MX_ROLE_SCALE), "e8m0");
  h.in = cli_format (a, O_INPUT, ROLE (MX_ROLE_IEEE), "fp32");
  h.out = cli_format (a, O_OUTPUT_FORMAT, ROLE (MX_ROLE_IEEE), "fp32");
  h.k = (size_t) cli_uint (a, O_BLOCK, 1, MXV_MAX_K, MX_BLOCK);
  if (h.op == MXV_NVFP4 || h.op == MXV_MXS)
    two_level_args (a, &h);
  cli_policy (a, &h.pol, &h.rnd);
  cli_check_scale_codes (a, &h.pol, h.scale);
  if (dotlike && h.rnd == MX_SR)
    cli_usage_error (a, "dot and gemm take a deterministic output rounding, not sr");
  h.out_rnd = h.rnd;
  h.dp = cli_dot_policy (a);
  cli_check_group (a, &h.dp, h.k);
  h.nblocks = (size_t) cli_uint (a, O_BLOCKS, 1, MXV_MAX_NB, 1);
  h.gm = (size_t) cli_uint (a, O_GEMM_M, 1, MXV_MAX_WORDS, 2);
  h.gn = (size_t) cli_uint (a, O_GEMM_N, 1, MXV_MAX_WORDS, 2);
  h.gkdim = (size_t) cli_uint (a, O_GEMM_K, 1, MXV_MAX_WORDS, 64);
  snprintf (h.profile, sizeof h.profile, "%s", a->v[O_PROFILE] ? a->v[O_PROFILE] : "ocp");
  h.level = (int) cli_uint (a, O_LEVEL, 1, 2, 1);
  if (a->v[O_SEED] && mx_parse_uint (&h.seed, a->v[O_SEED], 10, 0, ~0ull) != MX_OK)
    cli_usage_error (a, "--seed wants an integer 0..%llu, not '%s'", ~0ull,
                     mxv_quote (q, sizeof q, a->v[O_SEED]));
  long long nrand = (long long) cli_uint (a, O_NRANDOM, 0, (unsigned long long) MXV_MAX_CASES, 0);
  int exhaustive = a->v[O_EXHAUSTIVE] != NULL;
  int em = MXV_EMIT_MXV;
  if (a->v[O_EMIT] && (em = mx_name_lookup (mxv_emit_names, MXV_EMIT_COUNT, a->v[O_EMIT])) < 0)
    cli_usage_error (a, "unknown --emit '%s' (mxv bin readmemh jsonl)", mxv_quote (q, sizeof q, a->v[O_EMIT]));
  if (a->v[O_PACKING])
    {
      int p = mx_packing_parse (a->v[O_PACKING]);
      if (p < 0)
        cli_usage_error (a, "unknown --packing '%s' (unpacked fp4-lo-first fp4-j-j16 fp6-3byte)",
                         mxv_quote (q, sizeof q, a->v[O_PACKING]));
      h.packing = (mx_packing) p;
    }
  if (mxv_header_validate (&h, err, sizeof err) != 0)
    cli_usage_error (a, "%s", err);
  record_command (a, h.command, sizeof h.command);

  /* count, then write the header with the count and stream the cases */
  h.cases = mxv_generate (&h, nrand, exhaustive, NULL, NULL, err, sizeof err);
  if (h.cases < 0)
    cli_usage_error (a, "%s", err);
  sink s = { { 0 }, 0, h.cases, !a->v[O_QUIET] && isatty (2) };
  FILE *o = cli_out_open (a);
  mxv_writer_begin (&s.w, o, (mxv_emit) em, &h);
  long long got = mxv_generate (&h, nrand, exhaustive, emit, &s, err, sizeof err);
  if (s.progress)
    fprintf (stderr, "\rgen: %lld cases%20s\n", s.n, "");
  if (got != h.cases || mxv_writer_end (&s.w) != 0)
    {
      if (cli_out_failed ())
        {
          cli_out_close (a); /* says why; the target is left as it was */
          return 1;
        }
      if (got < 0)
        fprintf (stderr, "mxgold gen: %s\n", err);
      else
        fprintf (stderr, "mxgold gen: internal error: counted %lld cases, generated %lld\n",
                 h.cases, got);
      cli_out_discard ();
      return 1;
    }
  return cli_out_close (a);
}

static const int options[] = { O_OP, O_FORMAT, O_FORMAT_B, O_BLOCK, O_INPUT, O_OUTPUT_FORMAT,
                               O_SCALE_FORMAT, O_PROFILE, O_ROUNDING, O_ACCUM, O_GROUP, O_BLOCKS,
                               O_TC_PRESET, O_TC_GROUP, O_TC_FRAC, O_TC_ALIGN, O_TC_OUT, O_TC_CIN,
                               O_TC_SP, O_TC_DENORM, O_GEMM_M, O_GEMM_N, O_GEMM_K, O_LEVEL,
                               O_NRANDOM, O_EXHAUSTIVE, O_SEED, O_EMIT, O_PACKING, O_QUIET,
                               O_OUTPUT, O_ROWS, O_COLS, O_TILE, O_AMAX, O_MXS_FORMAT, O_POLICY, 0 };

const cli_command cli_gen = {
  "gen", "Write conformance vectors: a provenance header, then one line per case with its inputs "
  "and the expected outputs (docs/vectors.md).",
  "--op OP --format F [OPTIONS] [-o FILE]",
  "The same command and seed give byte-identical files on every machine (SplitMix64).\n"
  "With -o FILE the file appears only when complete; progress goes to stderr on a terminal.\n"
  "The case limits (docs/vectors.md \"Limits\") are those every reader reads: block <= 4096;\n"
  "dot: blocks <= 64, blocks x block <= 4096; gemm: m*k, n*k, m*n <= 4096.  Exit 1: the output\n"
  "could not be written; 2: bad usage.  --format-a is a synonym of --format.",
  options, 0, run
};
