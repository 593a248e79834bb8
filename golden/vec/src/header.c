/* header.c -- the .mxv header: one table of keys drives writing, parsing and comparing it
 * (docs/vectors.md "Header").  The policy keys come from policies.def.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include "internal.h"

const char *const mxv_op_names[MXV_OP_COUNT] = { "quantize", "cast", "decode", "dequantize",
                                                 "dot", "gemm", "nvfp4", "mxs" };
const char *const mxv_emit_names[MXV_EMIT_COUNT] = { "mxv", "bin", "readmemh", "jsonl" };

void
mxv_header_init (mxv_header *h)
{
  memset (h, 0, sizeof *h);
  h->op = MXV_QUANTIZE;
  h->scale = mx_format_get (MX_E8M0);
  h->in = mx_format_get (MX_FP32);
  h->out = mx_format_get (MX_FP32);
  h->k = MX_BLOCK;
  h->pol = mx_policy_ocp ();
  h->rnd = MX_RNE;
  h->out_rnd = MX_RNE;
  h->packing = MX_PACKING_UNPACKED;
  strcpy (h->profile, "ocp");
  h->seed = 1;
  h->level = 1;
  h->cases = -1;
  h->nblocks = 1;
  h->gm = h->gn = 2;
  h->gkdim = 64;
  h->dp = mx_dot_policy_default ();
  h->rows = 16;
  h->cols = 16;
  h->mxs = MX_MXS_MX9;
  snprintf (h->generator, sizeof h->generator, "mxgold %s (git %s)", mx_version (),
            mxv__git_hash ());
}

/*------------------------------------------------------------- the values -*/
/* Each key writes its value into v[n] (returns 0 to skip the key for this header) and parses
 * it back (0, or -1 with the reason in err[en]). */
typedef int (*put_fn) (const mxv_header *h, char *v, size_t n);
typedef int (*get_fn) (mxv_header *h, const char *v, char *err, size_t en);

#define BAD(...) return snprintf (err, en, __VA_ARGS__), -1
#define PUT(...) return snprintf (v, n, __VA_ARGS__), 1

static int
is_dot (const mxv_header *h)
{
  return h->op == MXV_DOT || h->op == MXV_GEMM;
}

static int
num (unsigned long long *x, const char *key, const char *v, unsigned long long lo,
     unsigned long long hi, char *err, size_t en)
{
  if (mx_parse_uint (x, v, 10, lo, hi) != MX_OK)
    BAD ("%s '%s' is not an integer in %llu..%llu", key, v, lo, hi);
  return 0;
}

static int put_version (const mxv_header *h, char *v, size_t n) { (void) h; PUT ("%d", MXV_VERSION); }
static int
get_version (mxv_header *h, const char *v, char *err, size_t en)
{
  (void) h;
  if (strcmp (v, "1") != 0)
    BAD ("mxv-version '%s' is not supported (this mxgold reads version 1)", v);
  return 0;
}

static int put_generator (const mxv_header *h, char *v, size_t n) { PUT ("%s", h->generator); }
static int
get_generator (mxv_header *h, const char *v, char *err, size_t en)
{
  (void) err, (void) en;
  snprintf (h->generator, sizeof h->generator, "%s", v);
  return 0;
}

static int put_command (const mxv_header *h, char *v, size_t n) { PUT ("%s", h->command); }
static int
get_command (mxv_header *h, const char *v, char *err, size_t en)
{
  (void) err, (void) en;
  snprintf (h->command, sizeof h->command, "%s", v);
  return 0;
}

static int put_spec (const mxv_header *h, char *v, size_t n) { (void) h; PUT ("OCP MX v1.0"); }
static int get_info (mxv_header *h, const char *v, char *err, size_t en) { (void) h, (void) v, (void) err, (void) en; return 0; }

static int put_op (const mxv_header *h, char *v, size_t n) { PUT ("%s", mxv_op_names[h->op]); }
static int
get_op (mxv_header *h, const char *v, char *err, size_t en)
{
  int i = mx_name_lookup (mxv_op_names, MXV_OP_COUNT, v);
  if (i < 0)
    BAD ("unknown op '%s' (quantize cast decode dequantize dot gemm nvfp4 mxs)", v);
  h->op = (mxv_op) i;
  return 0;
}

static int
get_format (const mx_format **f, const char *key, const char *v, char *err, size_t en)
{
  if ((*f = mx_format_by_name (v)) == NULL)
    BAD ("unknown format '%s' in header key '%s'", v, key);
  return 0;
}
/* mxs: the element format follows from key "mxs" (its E1M(m-1) has no name in formats.def) */
static int put_elem (const mxv_header *h, char *v, size_t n) { if (h->op == MXV_MXS) return 0; PUT ("%s", h->elem ? h->elem->name : "?"); }
static int get_elem (mxv_header *h, const char *v, char *err, size_t en) { return get_format (&h->elem, "elem", v, err, en); }
static int put_scale (const mxv_header *h, char *v, size_t n) { PUT ("%s", h->scale->name); }
static int get_scale (mxv_header *h, const char *v, char *err, size_t en) { return get_format (&h->scale, "scale", v, err, en); }
static int put_input (const mxv_header *h, char *v, size_t n) { PUT ("%s", h->in->name); }
static int get_input (mxv_header *h, const char *v, char *err, size_t en) { return get_format (&h->in, "input", v, err, en); }
static int put_output (const mxv_header *h, char *v, size_t n) { PUT ("%s", h->out->name); }
static int get_output (mxv_header *h, const char *v, char *err, size_t en) { return get_format (&h->out, "output", v, err, en); }

static int put_block (const mxv_header *h, char *v, size_t n) { PUT ("%zu", h->k); }
static int
get_block (mxv_header *h, const char *v, char *err, size_t en)
{
  unsigned long long x;
  if (num (&x, "block", v, 1, MXV_MAX_K, err, en))
    return -1;
  h->k = (size_t) x;
  return 0;
}

/* nvfp4 has no policy: TE's recipe is fixed (docs/semantics.md section 9) */
static int put_profile (const mxv_header *h, char *v, size_t n) { if (h->op == MXV_NVFP4) return 0; PUT ("%s", h->profile); }
static int
get_profile (mxv_header *h, const char *v, char *err, size_t en)
{
  if (strlen (v) >= sizeof h->profile)
    BAD ("profile '%s' is longer than %zu characters", v, sizeof h->profile - 1);
  strcpy (h->profile, v);
  return 0;
}

static int
get_rounding (mx_rounding *r, const char *key, const char *v, char *err, size_t en)
{
  int i = mx_rounding_parse (v);
  if (i < 0)
    BAD ("unknown %s '%s'", key, v);
  *r = (mx_rounding) i;
  return 0;
}
static int put_rounding (const mxv_header *h, char *v, size_t n) { PUT ("%s", mx_rounding_name (h->rnd)); }
static int get_rounding_key (mxv_header *h, const char *v, char *err, size_t en) { return get_rounding (&h->rnd, "rounding", v, err, en); }

static int put_packing (const mxv_header *h, char *v, size_t n) { if (h->op >= MXV_NVFP4) return 0; PUT ("%s", mx_packing_name (h->packing)); }
static int
get_packing (mxv_header *h, const char *v, char *err, size_t en)
{
  int i = mx_packing_parse (v);
  if (i < 0)
    BAD ("unknown packing '%s'", v);
  h->packing = (mx_packing) i;
  return 0;
}

static int put_elem_b (const mxv_header *h, char *v, size_t n) { if (!is_dot (h)) return 0; PUT ("%s", (h->elem_b ? h->elem_b : h->elem)->name); }
static int get_elem_b (mxv_header *h, const char *v, char *err, size_t en) { return get_format (&h->elem_b, "elem-b", v, err, en); }

static int put_accum (const mxv_header *h, char *v, size_t n) { if (!is_dot (h)) return 0; PUT ("%s", mx_accum_name (h->dp.accum)); }
static int
get_accum (mxv_header *h, const char *v, char *err, size_t en)
{
  int i = mx_accum_parse (v);
  if (i < 0)
    BAD ("unknown accum '%s'", v);
  h->dp.accum = (mx_accum) i;
  return 0;
}

static int put_out_rounding (const mxv_header *h, char *v, size_t n) { if (!is_dot (h)) return 0; PUT ("%s", mx_rounding_name (h->out_rnd)); }
static int get_out_rounding (mxv_header *h, const char *v, char *err, size_t en) { return get_rounding (&h->out_rnd, "out-rounding", v, err, en); }

/* tc: group G frac-bits F align R out R cin-in-group 0|1 scale-point product|group
 *     [denorm-products 0]   (written only when it is not the presets' 1) */
static int
put_tc (const mxv_header *h, char *v, size_t n)
{
  const mx_tc_model *m = &h->dp.tc;
  if (!is_dot (h) || h->dp.accum != MX_ACCUM_TENSOR_CORE)
    return 0;
  int len = snprintf (v, n, "group %u frac-bits %d align %s out %s cin-in-group %d scale-point %s",
                      m->group, m->frac_bits, mx_rounding_name (m->align), mx_rounding_name (m->out),
                      m->cin_in_group, m->scale_point == MX_TC_SCALE_GROUP ? "group" : "product");
  if (!m->denorm_products && len > 0 && (size_t) len < n)
    snprintf (v + len, n - (size_t) len, " denorm-products 0");
  return 1;
}

static int
get_tc (mxv_header *h, const char *v, char *err, size_t en)
{
  char buf[256], *save = NULL;
  static const char *const keys[] = { "group", "frac-bits", "align", "out", "cin-in-group",
                                      "scale-point", "denorm-products" };
  const char *val[7] = { 0 };
  mx_tc_model m = h->dp.tc;
  unsigned long long x;
  int i = 0;
  m.denorm_products = 1;
  if (strlen (v) >= sizeof buf)
    goto bad;
  strcpy (buf, v);
  for (char *w = strtok_r (buf, " ", &save); w; w = strtok_r (NULL, " ", &save), i++)
    {
      char *val_w = strtok_r (NULL, " ", &save);
      if (i >= 7 || val_w == NULL || strcmp (w, keys[i]) != 0)
        goto bad;
      val[i] = val_w;
    }
  if (i < 6)
    goto bad;
  if (mx_parse_uint (&x, val[0], 10, 1, MX_TC_GROUP_MAX) != MX_OK)
    BAD ("tc group '%s' is not an integer in 1..%d", val[0], MX_TC_GROUP_MAX);
  m.group = (unsigned) x;
  if (mx_parse_uint (&x, val[1], 10, 0, MX_TC_FRAC_BITS_MAX) != MX_OK)
    BAD ("tc frac-bits '%s' is not an integer in 0..%d", val[1], MX_TC_FRAC_BITS_MAX);
  m.frac_bits = (int) x;
  int a = mx_rounding_parse (val[2]), o = mx_rounding_parse (val[3]);
  if (a != MX_RTZ && a != MX_RDN && a != MX_RNE)
    BAD ("tc align '%s' is not rtz, rdn or rne", val[2]);
  if (o < 0 || o == MX_SR)
    BAD ("tc out '%s' is not a deterministic rounding", val[3]);
  m.align = (mx_rounding) a;
  m.out = (mx_rounding) o;
  if (mx_parse_uint (&x, val[4], 10, 0, 1) != MX_OK)
    BAD ("tc cin-in-group '%s' is not 0 or 1", val[4]);
  m.cin_in_group = (int) x;
  if (strcmp (val[5], "group") != 0 && strcmp (val[5], "product") != 0)
    BAD ("tc scale-point '%s' is not product or group", val[5]);
  m.scale_point = val[5][0] == 'g' ? MX_TC_SCALE_GROUP : MX_TC_SCALE_PRODUCT;
  if (val[6] && mx_parse_uint (&x, val[6], 10, 0, 1) != MX_OK)
    BAD ("tc denorm-products '%s' is not 0 or 1", val[6]);
  if (val[6])
    m.denorm_products = (int) x;
  h->dp.tc = m;
  return 0;
bad:
  BAD ("tc '%s' is not 'group G frac-bits F align R out R cin-in-group 0|1 scale-point product|group'", v);
}

/* group: G, the products per group of accum fused-group (mxv_header_validate: divides block) */
static int put_group (const mxv_header *h, char *v, size_t n) { if (!is_dot (h) || h->dp.accum != MX_ACCUM_FUSED_GROUP) return 0; PUT ("%zu", h->dp.group); }
static int
get_group (mxv_header *h, const char *v, char *err, size_t en)
{
  unsigned long long x;
  if (num (&x, "group", v, 1, MXV_MAX_K, err, en))
    return -1;
  h->dp.group = (size_t) x;
  return 0;
}

static int put_blocks (const mxv_header *h, char *v, size_t n) { if (h->op != MXV_DOT) return 0; PUT ("%zu", h->nblocks); }
static int
get_blocks (mxv_header *h, const char *v, char *err, size_t en)
{
  unsigned long long x;
  if (num (&x, "blocks", v, 1, MXV_MAX_NB, err, en))
    return -1;
  h->nblocks = (size_t) x;
  return 0;
}

static int put_gemm (const mxv_header *h, char *v, size_t n) { if (h->op != MXV_GEMM) return 0; PUT ("m %zu n %zu kdim %zu", h->gm, h->gn, h->gkdim); }
static int
get_gemm (mxv_header *h, const char *v, char *err, size_t en)
{
  char m[32], nn[32], k[32], rest[2];
  unsigned long long x[3];
  if (sscanf (v, "m %31s n %31s kdim %31s %1s", m, nn, k, rest) != 3)
    BAD ("gemm '%s' is not 'm M n N kdim K'", v);
  const char *w[3] = { m, nn, k };
  for (int i = 0; i < 3; i++)
    if (mx_parse_uint (&x[i], w[i], 10, 1, MXV_MAX_WORDS) != MX_OK)
      BAD ("gemm '%s': '%s' is not an integer in 1..%d", v, w[i], MXV_MAX_WORDS);
  h->gm = (size_t) x[0], h->gn = (size_t) x[1], h->gkdim = (size_t) x[2];
  return 0;
}

/* nvfp4: rows R cols C tile 1d|2d amax tensor|given */
static int
put_nvfp4 (const mxv_header *h, char *v, size_t n)
{
  if (h->op != MXV_NVFP4)
    return 0;
  PUT ("rows %zu cols %zu tile %s amax %s", h->rows, h->cols, h->tile_2d ? "2d" : "1d",
       h->amax_given ? "given" : "tensor");
}
static int
get_nvfp4 (mxv_header *h, const char *v, char *err, size_t en)
{
  char r[32], c[32], t[32], a[32], rest[2];
  unsigned long long x[2];
  if (sscanf (v, "rows %31s cols %31s tile %31s amax %31s %1s", r, c, t, a, rest) != 4)
    BAD ("nvfp4 '%s' is not 'rows R cols C tile 1d|2d amax tensor|given'", v);
  const char *w[2] = { r, c };
  for (int i = 0; i < 2; i++)
    if (mx_parse_uint (&x[i], w[i], 10, 1, MXV_MAX_WORDS) != MX_OK)
      BAD ("nvfp4 '%s': '%s' is not an integer in 1..%d", v, w[i], MXV_MAX_WORDS);
  if (strcmp (t, "1d") != 0 && strcmp (t, "2d") != 0)
    BAD ("nvfp4 tile '%s' is not 1d or 2d", t);
  if (strcmp (a, "tensor") != 0 && strcmp (a, "given") != 0)
    BAD ("nvfp4 amax '%s' is not tensor or given", a);
  h->rows = (size_t) x[0], h->cols = (size_t) x[1];
  h->tile_2d = t[0] == '2';
  h->amax_given = a[0] == 'g';
  return 0;
}

static int put_mxs (const mxv_header *h, char *v, size_t n) { if (h->op != MXV_MXS) return 0; PUT ("%s", mx_mxs_get (h->mxs)->name); }
static int
get_mxs (mxv_header *h, const char *v, char *err, size_t en)
{
  int i = mx_mxs_parse (v);
  if (i < 0)
    BAD ("unknown mxs format '%s' (mx9 mx6 mx4)", v);
  h->mxs = (mx_mxs_format) i;
  /* an 'elem' key read before stays, for validation to reject: the keys come in any order */
  int ours = h->elem == NULL;
  for (int f = 0; f < MX_MXS_COUNT; f++)
    ours |= h->elem == mx_mxs_get ((mx_mxs_format) f)->elem;
  if (ours)
    h->elem = mx_mxs_get (h->mxs)->elem;
  return 0;
}

static int put_seed (const mxv_header *h, char *v, size_t n) { PUT ("%llu", h->seed); }
static int get_seed (mxv_header *h, const char *v, char *err, size_t en) { return num (&h->seed, "seed", v, 0, ~0ull, err, en); }
static int put_level (const mxv_header *h, char *v, size_t n) { PUT ("%d", h->level); }
static int
get_level (mxv_header *h, const char *v, char *err, size_t en)
{
  unsigned long long x;
  if (num (&x, "level", v, 1, 2, err, en))
    return -1;
  h->level = (int) x;
  return 0;
}
static int put_cases (const mxv_header *h, char *v, size_t n) { PUT ("%lld", h->cases); }
static int
get_cases (mxv_header *h, const char *v, char *err, size_t en)
{
  unsigned long long x;
  if (num (&x, "cases", v, 1, (unsigned long long) MXV_MAX_CASES, err, en))
    return -1;
  h->cases = (long long) x;
  return 0;
}
static int put_flags_enc (const mxv_header *h, char *v, size_t n) { (void) h; PUT ("01 inexact, 02 underflow, 04 overflow, 10 invalid, 20 scale-clamped"); }

/*-------------------------------------------------------------- the table -*/
/* In file order.  SEM: the key changes what the cases mean, so a results file that declares it
 * must agree with the vectors.  The policy fields are expanded where POLICY stands. */
enum { INFO = 0, SEM = 1, POLICY = 2 };
static const struct
{
  const char *name;
  put_fn put;
  get_fn get;
  int kind;
} keys[] = {
  { "mxv-version", put_version, get_version, INFO },
  { "generator", put_generator, get_generator, INFO },
  { "command", put_command, get_command, INFO },
  { "spec", put_spec, get_info, INFO },
  { "op", put_op, get_op, SEM },
  { "elem", put_elem, get_elem, SEM },
  { "scale", put_scale, get_scale, SEM },
  { "input", put_input, get_input, SEM },
  { "output", put_output, get_output, SEM },
  { "block", put_block, get_block, SEM },
  { "profile", put_profile, get_profile, INFO },
  { "rounding", put_rounding, get_rounding_key, SEM },
  { NULL, NULL, NULL, POLICY },
  { "packing", put_packing, get_packing, SEM },
  { "elem-b", put_elem_b, get_elem_b, SEM },
  { "accum", put_accum, get_accum, SEM },
  { "out-rounding", put_out_rounding, get_out_rounding, SEM },
  { "tc", put_tc, get_tc, SEM },
  { "group", put_group, get_group, SEM },
  { "blocks", put_blocks, get_blocks, SEM },
  { "gemm", put_gemm, get_gemm, SEM },
  { "nvfp4", put_nvfp4, get_nvfp4, SEM },
  { "mxs", put_mxs, get_mxs, SEM },
  { "seed", put_seed, get_seed, INFO },
  { "level", put_level, get_level, INFO },
  { "cases", put_cases, get_cases, INFO },
  { "flags-encoding", put_flags_enc, get_info, INFO },
};
#define NKEYS (sizeof keys / sizeof keys[0])
/* bit of a key in h->seen: its table index, or NKEYS + the policy field */
#define POLICY_BIT(f) (NKEYS + (size_t) (f))

int
mxv__header_each (const mxv_header *h, mxv__header_fn fn, void *ctx)
{
  char v[2200];
  for (size_t i = 0; i < NKEYS; i++)
    {
      if (keys[i].kind == POLICY)
        {
          for (int f = 0; f < MX_POLICY_FIELD_COUNT && h->op != MXV_NVFP4; f++)
            {
              mx_policy_value_format (v, sizeof v, (mx_policy_field) f,
                                      mx_policy_get (&h->pol, (mx_policy_field) f));
              if (fn (ctx, mx_policy_field_get ((mx_policy_field) f)->name, v) != 0)
                return -1;
            }
          continue;
        }
      if (keys[i].put (h, v, sizeof v) && fn (ctx, keys[i].name, v) != 0)
        return -1;
    }
  return 0;
}

int
mxv_header_line (mxv_header *h, const char *line, char *err, size_t en)
{
  char key[64];
  const char *p = line + 1, *colon;
  while (*p == ' ')
    p++;
  colon = strchr (p, ':');
  if (colon == NULL || (size_t) (colon - p) >= sizeof key)
    return 1; /* a plain comment */
  memcpy (key, p, (size_t) (colon - p));
  key[colon - p] = 0;
  p = colon + 1;
  while (*p == ' ')
    p++;
  size_t len = strlen (p);
  while (len && (p[len - 1] == '\r' || p[len - 1] == ' '))
    len--;
  char *val = malloc (len + 1);
  if (val == NULL)
    BAD ("out of memory");
  memcpy (val, p, len);
  val[len] = 0;

  int rc = 1, f = mx_policy_field_parse (key);
  if (f >= 0)
    {
      long x;
      int pr = mx_policy_value_parse (&x, (mx_policy_field) f, val);
      if (pr == MX_OK)
        {
          mx_policy_set (&h->pol, (mx_policy_field) f, x);
          h->seen |= 1ull << POLICY_BIT (f);
          rc = 0;
        }
      else
        {
          const mx_policy_field_desc *d = mx_policy_field_get ((mx_policy_field) f);
          if (d->nvalues)
            snprintf (err, en, "unknown %s value '%.40s'", key, val);
          else
            snprintf (err, en, "%s '%.40s' is not a base-%d number in %lX..%lX", key, val,
                      d->base, d->lo, d->hi);
          rc = -1;
        }
    }
  else
    for (size_t i = 0; i < NKEYS; i++)
      if (keys[i].name && strcmp (keys[i].name, key) == 0)
        {
          rc = keys[i].get (h, val, err, en);
          if (rc == 0)
            h->seen |= 1ull << i;
          rc = rc == 0 && keys[i].kind == INFO ? 1 : rc;
          break;
        }
  free (val);
  return rc; /* unknown keys are informative */
}

/*------------------------------------------------------------- comparison -*/
typedef struct
{
  const char *key;
  char value[2200];
} lookup_ctx;

static int
find_value (void *ctx, const char *key, const char *value)
{
  lookup_ctx *l = ctx;
  if (strcmp (key, l->key) == 0)
    snprintf (l->value, sizeof l->value, "%s", value);
  return 0;
}

/* The text of key in h ("" where h does not write it). */
static void
value_of (const mxv_header *h, const char *key, char *out, size_t n)
{
  lookup_ctx l;
  l.key = key;
  l.value[0] = 0;
  mxv__header_each (h, find_value, &l);
  snprintf (out, n, "%s", l.value);
}

int
mxv_header_compare (const mxv_header *a, const mxv_header *b, char *err, size_t en)
{
  char va[256], vb[256];
  for (size_t i = 0; i < NKEYS; i++)
    {
      if (keys[i].kind == POLICY)
        {
          for (int f = 0; f < MX_POLICY_FIELD_COUNT; f++)
            if ((b->seen >> POLICY_BIT (f)) & 1
                && mx_policy_get (&a->pol, (mx_policy_field) f) != mx_policy_get (&b->pol, (mx_policy_field) f))
              {
                const char *name = mx_policy_field_get ((mx_policy_field) f)->name;
                value_of (a, name, va, sizeof va);
                value_of (b, name, vb, sizeof vb);
                BAD ("header '%s: %s' does not match the vectors' '%s'", name, vb, va);
              }
          continue;
        }
      if (keys[i].kind != SEM || !((b->seen >> i) & 1))
        continue;
      value_of (a, keys[i].name, va, sizeof va);
      value_of (b, keys[i].name, vb, sizeof vb);
      if (strcmp (va, vb) != 0)
        BAD ("header '%s: %.60s' does not match the vectors' '%.60s'", keys[i].name, vb, va);
    }
  return 0;
}

/*------------------------------------------------------------- validation -*/
/* a * b <= lim, without overflow */
static int
fits (size_t a, size_t b, size_t lim)
{
  size_t p;
  return !__builtin_mul_overflow (a, b, &p) && p <= lim;
}

/* The checks of the two-level ops: nvfp4's fixed formats and sizes, and what mxs accepts. */
static int
validate_two_level (const mxv_header *h, char *err, size_t en)
{
  if (h->in->role != MX_ROLE_IEEE || h->out->role != MX_ROLE_IEEE)
    BAD ("input and output are fp32 bf16 fp16 or fp64, not '%s'",
         (h->in->role != MX_ROLE_IEEE ? h->in : h->out)->name);
  if (h->packing != MX_PACKING_UNPACKED)
    BAD ("packing applies to quantize and dequantize vectors only");
  if (h->op == MXV_MXS)
    {
      const mx_mxs_desc *d = mx_mxs_get (h->mxs);
      uint64_t zero[MXV_MAX_K] = { 0 }, sc, codes[MXV_MAX_K];
      uint8_t sh[MXV_MAX_K];
      if (d == NULL || h->elem == NULL)
        BAD ("mxs: no format (header 'mxs': mx9 mx6 mx4)");
      if (h->elem != d->elem)
        BAD ("mxs: the element format is the mxs format's (drop the 'elem' key)");
      if (h->scale != d->scale || h->k != d->k1)
        BAD ("mxs: %s has scale e8m0 and block %u", d->name, d->k1);
      if (h->rnd == MX_SR)
        BAD ("mxs takes a deterministic rounding, not sr");
      if (mx_quantize_mxs (&sc, sh, codes, NULL, h->mxs, h->in, zero, h->k, &h->pol, h->rnd) != MX_OK)
        BAD ("a policy field has no mxs meaning (docs/semantics.md section 5b: scale-rule floor, "
             "no scale-bump, min-scale-elem exact, scale-div exact, inf-block nan|sat|zero)");
      return 0;
    }
  mx_policy ocp = mx_policy_ocp ();
  for (int f = 0; f < MX_POLICY_FIELD_COUNT; f++)
    if (mx_policy_get (&h->pol, (mx_policy_field) f) != mx_policy_get (&ocp, (mx_policy_field) f))
      BAD ("nvfp4 has no policy fields ('%s' is set)", mx_policy_field_get ((mx_policy_field) f)->name);
  if (h->elem != mx_format_get (MX_E2M1) || h->scale != mx_format_get (MX_UE4M3)
      || h->k != MX_NVFP4_BLOCK)
    BAD ("nvfp4 is elem e2m1, scale ue4m3, block %d", MX_NVFP4_BLOCK);
  if (h->in->id == MX_FP64 || h->out->id == MX_FP64)
    BAD ("nvfp4 input and output are fp32, bf16 or fp16 (TransformerEngine's), not fp64");
  if (h->rnd != MX_RNE && h->rnd != MX_SR)
    BAD ("nvfp4 rounding is rne or sr (TransformerEngine's modes), not %s", mx_rounding_name (h->rnd));
  if (h->cols == 0 || h->cols % MX_NVFP4_BLOCK)
    BAD ("nvfp4: cols %zu is not a multiple of %d", h->cols, MX_NVFP4_BLOCK);
  if (h->rows == 0 || !fits (h->rows, h->cols, MXV_MAX_WORDS))
    BAD ("nvfp4: rows x cols must be at most %d", MXV_MAX_WORDS);
  return 0;
}

int
mxv_header_validate (const mxv_header *h, char *err, size_t en)
{
  if (h->op == MXV_NVFP4 && h->elem == NULL)
    BAD ("no element format (header 'elem')");
  if (h->op == MXV_NVFP4 || h->op == MXV_MXS)
    return validate_two_level (h, err, en);
  if (h->elem == NULL)
    BAD ("no element format (header 'elem', option --format)");
  if (h->op == MXV_DECODE ? h->elem->bits > 16 : h->elem->role != MX_ROLE_ELEM)
    BAD (h->op == MXV_DECODE ? "decode lists every code: '%s' has more than 16 bits"
                             : "'%s' is not an element format", h->elem->name);
  if (h->scale->role != MX_ROLE_SCALE)
    BAD ("'%s' is not a scale format (e8m0 ue4m3 eKmM)", h->scale->name);
  if (h->in->role != MX_ROLE_IEEE || h->out->role != MX_ROLE_IEEE)
    BAD ("input and output are fp32 bf16 fp16 or fp64, not '%s'",
         (h->in->role != MX_ROLE_IEEE ? h->in : h->out)->name);
  if (h->k < 1 || h->k > MXV_MAX_K)
    BAD ("block size %zu is outside 1..%d", h->k, MXV_MAX_K);
  if (h->pol.zero_scale > (1u << h->scale->bits) - 1)
    BAD ("zero-scale %02X does not fit the %u-bit scale format %s", h->pol.zero_scale,
         h->scale->bits, h->scale->name);
  if (h->packing != MX_PACKING_UNPACKED)
    {
      if (h->op != MXV_QUANTIZE && h->op != MXV_DEQUANTIZE)
        BAD ("packing applies to quantize and dequantize vectors only");
      uint8_t zero[MXV_MAX_K] = { 0 }, out[MXV_MAX_K];
      if (mx_pack (out, zero, h->k, h->elem, h->packing) != MX_OK)
        BAD ("packing %s does not fit %s blocks of %zu (docs/vectors.md \"Packing\")",
             mx_packing_name (h->packing), h->elem->name, h->k);
    }
  if ((h->op == MXV_DOT || h->op == MXV_GEMM) && h->rnd == MX_SR)
    BAD ("dot and gemm take a deterministic output rounding, not sr");
  if ((h->op == MXV_DOT || h->op == MXV_GEMM) && h->out_rnd == MX_SR)
    BAD ("dot and gemm take a deterministic output rounding, not sr");
  if (h->op == MXV_DOT || h->op == MXV_GEMM)
    {
      const mx_format *b = h->elem_b ? h->elem_b : h->elem;
      if (b->role != MX_ROLE_ELEM)
        BAD ("'%s' is not an element format", b->name);
      if (h->dp.accum == MX_ACCUM_TENSOR_CORE && mx_tc_model_check (&h->dp.tc) != MX_OK)
        BAD ("invalid tensor-core model");
      if (h->dp.accum == MX_ACCUM_FUSED_GROUP && h->dp.group == 0)
        BAD ("accum fused-group needs a 'group' key: the products per group, a divisor of the "
             "block size");
      if (h->dp.accum == MX_ACCUM_FUSED_GROUP && (h->dp.group > h->k || h->k % h->dp.group))
        BAD ("group %zu does not divide the block size %zu (a group lies inside one block)",
             h->dp.group, h->k);
    }
  if (h->dp.group != 0 && !((h->op == MXV_DOT || h->op == MXV_GEMM)
                            && h->dp.accum == MX_ACCUM_FUSED_GROUP))
    BAD ("key 'group' goes with accum fused-group (dot and gemm)");
  if (h->op == MXV_DOT && (h->nblocks < 1 || h->nblocks > MXV_MAX_NB
                           || !fits (h->nblocks, h->k, MXV_MAX_WORDS)))
    BAD ("dot: blocks x block must be at most %d, with blocks in 1..%d", MXV_MAX_WORDS, MXV_MAX_NB);
  if (h->op == MXV_GEMM)
    {
      if (h->gkdim == 0 || h->gkdim % h->k)
        BAD ("gemm: kdim %zu is not a multiple of the block size %zu", h->gkdim, h->k);
      size_t nb = h->gkdim / h->k;
      if (h->gm == 0 || h->gn == 0 || !fits (h->gm, h->gkdim, MXV_MAX_WORDS)
          || !fits (h->gn, h->gkdim, MXV_MAX_WORDS) || !fits (h->gm, h->gn, MXV_MAX_WORDS)
          || !fits (h->gm, nb, MXV_MAX_WORDS) || !fits (h->gn, nb, MXV_MAX_WORDS))
        BAD ("gemm: m*kdim, n*kdim and m*n must be at most %d", MXV_MAX_WORDS);
    }
  return 0;
}
