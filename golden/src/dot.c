/* mx_dot, mx_dot_prefix -- OCP MX 6.1/6.2 dot product of MX block pairs under an explicit
 * accumulation model (mx_dot_prefix: the result after every block, in one pass).
 *   exact        one exact sum (a GMP integer accumulator), one rounding
 *   block-fp32   each block's exact dot x X_A x X_B rounded once to FP32 (rnd), then
 *                blocks added in order in FP32 with RNE, C_in first (one of the RTL MAC's models)
 *   tensor-core  groups of products (plus the accumulator) aligned to the largest term with
 *                F fraction bits, summed exactly, rounded to FP32 (Fasi et al. 2021; Khattak &
 *                Mikaitis 2025)
 *   fused-group  chained fused groups, as MXDOTP (pulp-platform cvfpu fpnew_mxdotp_multi):
 *                acc <- rnd(acc + X_A X_B sum of g consecutive products), the accumulator in
 *                the output format, from C_in
 * SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdlib.h>
#include "acc.h"

/* Multiply the accumulator's value by the two scale values (exact). */
static void
apply_scales (mx__acc *a, const mx__exact *sa, const mx__exact *sb)
{
  if (sa->cls == MX__NAN || sb->cls == MX__NAN)
    {
      a->nan = 1; /* OCP 5.1: a NaN scale makes the block NaN */
      return;
    }
  if (sa->cls == MX__ZERO || sb->cls == MX__ZERO) /* a linear scale of 0 */
    {
      if (a->pinf || a->ninf)
        a->nan = 1;
      mpz_set_ui (a->sum, 0);
      return;
    }
  /* a scale format has no sign and no infinity (mx__check_dot: role SCALE) */
  if (sa->m != 1)
    mpz_mul_ui (a->sum, a->sum, sa->m);
  if (sb->m != 1)
    mpz_mul_ui (a->sum, a->sum, sb->m);
  mx__acc_scale (a, sa->e + sb->e);
}

/* The exponents of f's finite nonzero values m 2^e: e in [*lo, *hi], m below 2^*mb; 0 for an
 * EkM0 format (mx__decode_exact's 2^e). */
static int
value_span (const mx_format *f, long *lo, long *hi, long *mb)
{
  if (f->special == MX_SPECIAL_POW2)
    return 0;
  if (f->special == MX_SPECIAL_INT)
    *lo = *hi = -(long) f->mbits, *mb = (long) f->bits;
  else
    *lo = (long) f->emin - (long) f->mbits, *hi = (long) f->emax - (long) f->mbits,
    *mb = (long) f->mbits + 1;
  return 1;
}

/* The exact dot of k products times the scales, into b (a block, or a fused group of it).
 * Where every product's bits fit one 128-bit window (every MX element pair: E5M2 x E5M2 spans
 * 2^-32..2^32), the finite products are summed in a signed 128-bit integer with its lsb at the
 * least exponent two codes can have, and added to b once: the same exact sum as a GMP addition
 * per product (which took a fifth of the co-simulation's CPU time), with no allocation. */
static void
block_dot (mx__acc *b, const uint64_t *ca, const mx_format *ea, const uint64_t *cb,
           const mx_format *eb, uint64_t scale_a, uint64_t scale_b, const mx_format *sf, size_t k)
{
  mx__exact xa, xb;
  long loa = 0, hia, mba, lob = 0, hib, mbb;
  mx__acc_reset (b);
  int narrow = k <= 64 && value_span (ea, &loa, &hia, &mba) && value_span (eb, &lob, &hib, &mbb)
               && (hia - loa) + (hib - lob) + mba + mbb + 7 <= 127; /* 7: the sign and 64 terms */
  __int128 s = 0;
  for (size_t i = 0; i < k; i++)
    {
      mx__decode_exact (&xa, ea, ca[i]);
      mx__decode_exact (&xb, eb, cb[i]);
      if (!narrow || xa.cls != MX__FINITE || xb.cls != MX__FINITE)
        {
          mx__acc_add_exact_product (b, &xa, &xb); /* zeros and specials; a wide pair, all */
          continue;
        }
      __int128 p = ((__int128) xa.m * (__int128) xb.m) << (xa.e + xb.e - loa - lob);
      s += xa.neg != xb.neg ? -p : p;
      b->terms++;
      b->all_negzero = b->all_poszero = 0;
    }
  mx__acc_add_i128 (b, s, loa + lob);
  mx__decode_exact (&xa, sf, scale_a);
  mx__decode_exact (&xb, sf, scale_b);
  apply_scales (b, &xa, &xb);
}

/*------------------------------------------------------- tensor-core model -*/
/* One group: terms t[0..n) (exact), accumulator acc (FP32 value, in/out). */
static unsigned
tc_group (mpfr_t acc, mpfr_t *t, const long *te, size_t n, const mx__exact *sa, const mx__exact *sb,
          const mx_tc_model *m)
{
  mx__acc s;
  mx__acc_init (&s);
  long E = LONG_MIN;
  int special = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (!mpfr_number_p (t[i]))
        special = 1;
      else if (!mpfr_zero_p (t[i]))
        {
          long e = m->denorm_products ? te[i] : (long) mpfr_get_exp (t[i]) - 1;
          if (e > E)
            E = e;
        }
    }
  int in_group = m->cin_in_group && m->scale_point == MX_TC_SCALE_PRODUCT;
  if (in_group)
    {
      if (!mpfr_number_p (acc))
        special = 1;
      else if (!mpfr_zero_p (acc) && (long) mpfr_get_exp (acc) - 1 > E)
        E = (long) mpfr_get_exp (acc) - 1;
    }
  mpfr_rnd_t ar = m->align == MX_RNE ? MPFR_RNDN : m->align == MX_RDN ? MPFR_RNDD : MPFR_RNDZ;
  mpfr_t q;
  mpfr_init2 (q, 256);
  for (size_t i = 0; i < n + (size_t) in_group; i++)
    {
      mpfr_srcptr x = i < n ? t[i] : acc;
      if (special || mpfr_zero_p (x) || E == LONG_MIN)
        {
          mx__acc_add (&s, x); /* specials and zeros keep their IEEE meaning */
          continue;
        }
      /* align to the quantum 2^(E-F): keep F fraction bits below the largest leading bit */
      long Q = E - m->frac_bits;
      mpfr_mul_2si (q, x, -Q, MPFR_RNDN);
      mpfr_rint (q, q, ar);
      mpfr_mul_2si (q, q, Q, MPFR_RNDN);
      if (mpfr_zero_p (q))
        mpfr_set_zero (q, mpfr_signbit (x) ? -1 : 1);
      mx__acc_add (&s, q);
    }
  if (m->scale_point == MX_TC_SCALE_GROUP)
    apply_scales (&s, sa, sb);
  if (!in_group)
    mx__acc_add (&s, acc);
  unsigned fl;
  const mx_format *f32 = mx_format_get (MX_FP32);
  mx__decode (acc, f32, mx__acc_round (&s, f32, &fl, m->out));
  mpfr_clear (q);
  mx__acc_clear (&s);
  return fl;
}

/* An operand's exponent in the unnormalized product representation: floor(log2 |x|), but at
 * least the format's emin (a subnormal keeps emin and a significand below 1).  Zero operands
 * give a zero product, which takes no part in the alignment. */
static long
op_exp (mpfr_srcptr x, const mx_format *f)
{
  long emin = f->emin; /* INT8: 0, a fixed-point significand below 2 (docs/semantics.md 7) */
  if (!mpfr_regular_p (x))
    return LONG_MIN / 4;
  long e = (long) mpfr_get_exp (x) - 1;
  return e > emin ? e : emin;
}

static int
dot_tc (mpfr_t acc, unsigned *flp, const uint64_t scale_a[], const uint64_t codes_a[],
        const mx_format *ea, const uint64_t scale_b[], const uint64_t codes_b[],
        const mx_format *eb, const mx_format *sf, size_t k, size_t nb, const mx_tc_model *m)
{
  size_t g = m->group; /* 1..MX_TC_GROUP_MAX: mx_tc_model_check */
  if (m->scale_point == MX_TC_SCALE_GROUP && g > k)
    g = k; /* a group cannot straddle two blocks' scales */
  mpfr_t *t = malloc (g * sizeof *t), pa, pb, sa, sb;
  mx__exact xsa, xsb;
  long *te = malloc (g * sizeof *te);
  unsigned fl = 0;
  size_t nt = 0;
  if (t == NULL || te == NULL)
    {
      free (t);
      free (te);
      return MX_ENOMEM;
    }
  for (size_t i = 0; i < g; i++)
    mpfr_init2 (t[i], 160);
  mpfr_inits2 (64, pa, pb, sa, sb, (mpfr_ptr) 0);
  for (size_t j = 0; j < nb; j++)
    {
      mx__decode (sa, sf, scale_a[j]);
      mx__decode (sb, sf, scale_b[j]);
      mx__decode_exact (&xsa, sf, scale_a[j]);
      mx__decode_exact (&xsb, sf, scale_b[j]);
      for (size_t i = 0; i < k; i++)
        {
          mx__decode (pa, ea, codes_a[j * k + i]);
          mx__decode (pb, eb, codes_b[j * k + i]);
          mpfr_mul (t[nt], pa, pb, MPFR_RNDN); /* exact: 160 bits */
          /* the unnormalized exponent e_a + e_b (+ the scales' exponents) */
          te[nt] = op_exp (pa, ea) + op_exp (pb, eb);
          if (m->scale_point == MX_TC_SCALE_PRODUCT && mpfr_regular_p (sa) && mpfr_regular_p (sb))
            te[nt] += (long) mpfr_get_exp (sa) + (long) mpfr_get_exp (sb) - 2;
          if (m->scale_point == MX_TC_SCALE_PRODUCT)
            {
              if (mpfr_nan_p (sa) || mpfr_nan_p (sb))
                mpfr_set_nan (t[nt]);
              else
                {
                  mpfr_mul (t[nt], t[nt], sa, MPFR_RNDN);
                  mpfr_mul (t[nt], t[nt], sb, MPFR_RNDN);
                }
            }
          nt++;
          int block_end = i + 1 == k;
          if (nt == g || (m->scale_point == MX_TC_SCALE_GROUP && block_end)
              || (j + 1 == nb && block_end))
            {
              fl |= tc_group (acc, t, te, nt, &xsa, &xsb, m);
              nt = 0;
            }
        }
    }
  for (size_t i = 0; i < g; i++)
    mpfr_clear (t[i]);
  free (t);
  free (te);
  mpfr_clears (pa, pb, sa, sb, (mpfr_ptr) 0);
  *flp = fl;
  return MX_OK;
}

/*------------------------------------------------------ fused-group model -*/
/* Every group of g consecutive products of a block (g divides k: mx__check_dot), summed exactly
 * and times both scales, is added to the accumulator with one rounding by rnd into the output
 * format of; C_in (FP32) starts it.  The exact-zero sign of each step is IEEE 754 6.3's for the
 * whole sum acc + products (mx__acc_value). */
static void
dot_fused (uint64_t *out, unsigned *flp, const mx_format *of, const uint64_t scale_a[],
           const uint64_t codes_a[], const mx_format *ea, const uint64_t scale_b[],
           const uint64_t codes_b[], const mx_format *eb, const mx_format *sf, size_t k,
           size_t nb, uint64_t cin, size_t g, mx_rounding rnd, uint64_t *each,
           unsigned *each_fl)
{
  mx__acc s, grp;
  mpfr_t acc;
  unsigned fl = 0, f;
  mx__acc_init (&s);
  mx__acc_init (&grp);
  mpfr_init2 (acc, 64);
  mx__decode (acc, mx_format_get (MX_FP32), cin);
  uint64_t code = 0;
  for (size_t j = 0; j < nb; j++)
    {
      for (size_t i0 = j * k; i0 < (j + 1) * k; i0 += g)
        {
          /* the group's exact dot times the block's scales */
          block_dot (&grp, codes_a + i0, ea, codes_b + i0, eb, scale_a[j], scale_b[j], sf, g);
          mx__acc_reset (&s);
          mx__acc_add (&s, acc);
          mx__acc_add_acc (&s, &grp);
          code = mx__acc_round (&s, of, &f, rnd);
          fl |= f;
          mx__decode (acc, of, code);
        }
      if (each)
        each[j] = code, each_fl[j] = fl;
    }
  *out = code;
  *flp = fl;
  mx__acc_clear (&s);
  mx__acc_clear (&grp);
  mpfr_clear (acc);
}

/* The FP32 accumulator into the output format; its flags. */
static unsigned
to_output (uint64_t *out, const mx_format *of, mpfr_srcptr acc, mx_rounding rnd)
{
  unsigned f;
  mx__encode (out, &f, of, acc, 0, &mx__ieee, rnd);
  return mpfr_nan_p (acc) ? f | MX_FLAG_INVALID : f;
}

/*------------------------------------------------------------------ mx_dot -*/
/* MX_OK if the formats, sizes, model and rounding make a dot product. */
int
mx__check_dot (const mx_format *of, const mx_format *ea, const mx_format *eb,
               const mx_format *sf, size_t k, size_t nb, const mx_dot_policy *dp,
               mx_rounding rnd)
{
  size_t n;
  if (of == NULL || ea == NULL || eb == NULL || sf == NULL || dp == NULL
      || of->role != MX_ROLE_IEEE || ea->role != MX_ROLE_ELEM || eb->role != MX_ROLE_ELEM
      || sf->role != MX_ROLE_SCALE || k == 0 || nb == 0 || mx__mul_overflow (k, nb, &n)
      || (unsigned) rnd >= MX_ROUNDING_COUNT || rnd == MX_SR
      || (unsigned) dp->accum >= MX_ACCUM_COUNT)
    return MX_EINVAL;
  if (dp->accum == MX_ACCUM_FUSED_GROUP && (dp->group == 0 || dp->group > k || k % dp->group))
    return MX_EINVAL; /* a group lies inside one block */
  return dp->accum == MX_ACCUM_TENSOR_CORE ? mx_tc_model_check (&dp->tc) : MX_OK;
}

/* The dot of nb blocks into *out and *flags; with each (and each_fl) not NULL, also the result
 * and flags of every prefix, blocks 0..j, into each[j] (each_fl[j]): one pass where the model
 * allows (exact, block-fp32, fused-group), a dot per prefix for tensor-core (whose groups may
 * straddle blocks and close at the dot's end). */
static int
dot_run (uint64_t *out, unsigned *flags, const mx_format *of, const uint64_t scale_a[],
         const uint64_t codes_a[], const mx_format *ea, const uint64_t scale_b[],
         const uint64_t codes_b[], const mx_format *eb, const mx_format *sf, size_t k,
         size_t nb, uint64_t cin, const mx_dot_policy *dp, mx_rounding rnd, uint64_t *each,
         unsigned *each_fl)
{
  const mx_format *f32 = mx_format_get (MX_FP32);
  mx__acc total, b;
  mpfr_t d, acc;
  unsigned fl = 0, f;
  int rc = MX_OK;
  mx__acc_init (&total);
  mx__acc_init (&b);
  mpfr_inits2 (64, d, acc, (mpfr_ptr) 0);
  mx__decode (acc, f32, cin);

  switch (dp->accum)
    {
    case MX_ACCUM_EXACT:
      mx__acc_add (&total, acc);
      for (size_t j = 0; j < nb; j++)
        {
          block_dot (&b, codes_a + j * k, ea, codes_b + j * k, eb, scale_a[j],
                     scale_b[j], sf, k);
          mx__acc_add_acc (&total, &b);
          if (each && j + 1 < nb)
            each[j] = mx__acc_round (&total, of, &each_fl[j], rnd);
        }
      *out = mx__acc_round (&total, of, &fl, rnd);
      break;

    case MX_ACCUM_BLOCK_FP32:
      for (size_t j = 0; j < nb; j++)
        {
          block_dot (&b, codes_a + j * k, ea, codes_b + j * k, eb, scale_a[j],
                     scale_b[j], sf, k);
          mx__decode (d, f32, mx__acc_round (&b, f32, &f, rnd)); /* d_j in FP32 */
          fl |= f;
          mx__acc_reset (&total);
          mx__acc_add (&total, acc);
          mx__acc_add (&total, d);
          mx__decode (acc, f32, mx__acc_round (&total, f32, &f, MX_RNE)); /* acc + d_j, RNE */
          fl |= f;
          if (each && j + 1 < nb)
            each_fl[j] = fl | to_output (&each[j], of, acc, rnd);
        }
      fl |= to_output (out, of, acc, rnd);
      break;

    case MX_ACCUM_FUSED_GROUP:
      dot_fused (out, &fl, of, scale_a, codes_a, ea, scale_b, codes_b, eb, sf, k, nb, cin,
                 dp->group, rnd, each, each_fl);
      break;

    default:
      for (size_t j = each ? 0 : nb - 1; j < nb && rc == MX_OK; j++)
        {
          /* this prefix's dot from C_in */
          mx__decode (acc, f32, cin);
          rc = dot_tc (acc, &fl, scale_a, codes_a, ea, scale_b, codes_b, eb, sf, k, j + 1,
                       &dp->tc);
          if (rc == MX_OK && j + 1 < nb)
            each_fl[j] = fl | to_output (&each[j], of, acc, rnd);
        }
      if (rc == MX_OK)
        fl |= to_output (out, of, acc, rnd);
      break;
    }
  mx__acc_clear (&total);
  mx__acc_clear (&b);
  mpfr_clears (d, acc, (mpfr_ptr) 0);
  if (flags)
    *flags = fl;
  if (each && rc == MX_OK)
    each[nb - 1] = *out, each_fl[nb - 1] = fl;
  return rc;
}

int
mx__dot (uint64_t *out, unsigned *flags, const mx_format *of, const uint64_t scale_a[],
         const uint64_t codes_a[], const mx_format *ea, const uint64_t scale_b[],
         const uint64_t codes_b[], const mx_format *eb, const mx_format *sf, size_t k,
         size_t nb, uint64_t cin, const mx_dot_policy *dp, mx_rounding rnd)
{
  return dot_run (out, flags, of, scale_a, codes_a, ea, scale_b, codes_b, eb, sf, k, nb, cin, dp,
                  rnd, NULL, NULL);
}

int
mx_dot (uint64_t *out, unsigned *flags, const mx_format *of, const uint64_t scale_a[],
        const uint64_t codes_a[], const mx_format *ea, const uint64_t scale_b[],
        const uint64_t codes_b[], const mx_format *eb, const mx_format *sf, size_t k, size_t nb,
        uint64_t cin, const mx_dot_policy *dp, mx_rounding rnd)
{
  int rc = mx__check_dot (of, ea, eb, sf, k, nb, dp, rnd);
  if (rc != MX_OK)
    return rc;
  mx__state s = mx__enter ();
  rc = mx__dot (out, flags, of, scale_a, codes_a, ea, scale_b, codes_b, eb, sf, k, nb, cin, dp,
                rnd);
  mx__leave (s);
  return rc;
}

int
mx_dot_prefix (uint64_t out[], unsigned flags[], const mx_format *of, const uint64_t scale_a[],
               const uint64_t codes_a[], const mx_format *ea, const uint64_t scale_b[],
               const uint64_t codes_b[], const mx_format *eb, const mx_format *sf, size_t k,
               size_t nb, uint64_t cin, const mx_dot_policy *dp, mx_rounding rnd)
{
  int rc = mx__check_dot (of, ea, eb, sf, k, nb, dp, rnd);
  if (rc != MX_OK)
    return rc;
  if (out == NULL)
    return MX_EINVAL;
  /* flags may be NULL, as for mx_dot: the prefixes' flags then go to scratch */
  unsigned few[4], *fl = flags ? flags : nb <= 4 ? few : calloc (nb, sizeof *fl);
  if (fl == NULL)
    return MX_ENOMEM;
  mx__state s = mx__enter ();
  uint64_t last;
  unsigned lf;
  rc = dot_run (&last, &lf, of, scale_a, codes_a, ea, scale_b, codes_b, eb, sf, k, nb, cin, dp,
                rnd, out, fl);
  mx__leave (s);
  if (fl != flags && fl != few)
    free (fl);
  return rc;
}
