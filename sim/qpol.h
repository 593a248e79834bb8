/* qpol.h -- mx_quantize's policy word pol_i: which policy fields the RTL takes at run time, and
 * where each lies.  One list for both sides: mxgold-derive writes the layout into rtl/mx_pkg.svh
 * (MX_QPOL_*), and mxsim and the sweep pack an mx_policy into the word with the same functions.
 *
 * Field i occupies bits [lsb +: width], in list order from bit 0; its width holds every value of
 * the field (names: their count; numbers: hi).  A value the field's row does not name (inf-block
 * 6 and 7, say) is refused by the RTL as an unsupported rule is: NaN scale, codes 0, INVALID.
 *
 * The fields left out are those that cannot change an FP32 or BF16 block quantized to E8M0
 * (wide-input, scale-cast, scale-bottom, scale-round) and those the RTL does not implement:
 * scale-bump once (a second quantization of the whole block), sr-frac other than trunc and
 * sr-bits other than the unit's SR_BITS (mxsim refuses such vector files).
 * SPDX-License-Identifier: MIT */
#ifndef MX_QPOL_H
#define MX_QPOL_H
#include <stdint.h>
#include "mx.h"

static const mx_policy_field mx_qpol_fields[] = {
  MX_POLICY_OVERFLOW,       MX_POLICY_NAN_BLOCK,      MX_POLICY_INF_BLOCK,
  MX_POLICY_SUBNORMALS,     MX_POLICY_ZERO_SIGN,      MX_POLICY_INT_RANGE,
  MX_POLICY_SCALE_OVERFLOW, MX_POLICY_NAN_ELEM,       MX_POLICY_NAN_CODE,
  MX_POLICY_MIN_SCALE_ELEM, MX_POLICY_SCALE_DIV,      MX_POLICY_SCALE_MIN,
  MX_POLICY_ZERO_SCALE,
};
#define MX_QPOL_COUNT ((int) (sizeof mx_qpol_fields / sizeof mx_qpol_fields[0]))

/* bits that hold every value of field f */
static inline int
mx_qpol_width (mx_policy_field f)
{
  const mx_policy_field_desc *d = mx_policy_field_get (f);
  long top = d->nvalues > 0 ? d->nvalues - 1 : d->hi;
  int w = 1;
  while ((top >> w) != 0)
    w++;
  return w;
}

/* the lowest bit of field i of the list */
static inline int
mx_qpol_lsb (int i)
{
  int lsb = 0;
  for (int j = 0; j < i; j++)
    lsb += mx_qpol_width (mx_qpol_fields[j]);
  return lsb;
}

/* bits of the whole word */
static inline int
mx_qpol_bits (void)
{
  return mx_qpol_lsb (MX_QPOL_COUNT);
}

/* field i of the list as it lies in the word w */
static inline long
mx_qpol_field (uint64_t w, int i)
{
  return (long) ((w >> mx_qpol_lsb (i)) & (((uint64_t) 1 << mx_qpol_width (mx_qpol_fields[i])) - 1));
}

/* p as the RTL's policy word */
static inline uint64_t
mx_qpol_pack (const mx_policy *p)
{
  uint64_t w = 0;
  for (int i = 0; i < MX_QPOL_COUNT; i++)
    w |= (uint64_t) mx_policy_get (p, mx_qpol_fields[i]) << mx_qpol_lsb (i);
  return w;
}

/* Sets p's fields of the word from w (the others are left as they are); 0 if a field of w holds a
 * value its row does not name, which the RTL refuses. */
static inline int
mx_qpol_unpack (mx_policy *p, uint64_t w)
{
  for (int i = 0; i < MX_QPOL_COUNT; i++)
    if (mx_policy_set (p, mx_qpol_fields[i], mx_qpol_field (w, i)) != MX_OK)
      return 0;
  return 1;
}

/* 1 if every field of p the word leaves out is one the RTL can run (see above) */
static inline int
mx_qpol_outside_ok (const mx_policy *p, mx_rounding rnd, unsigned sr_bits)
{
  return p->scale_bump == MX_SCALE_BUMP_NONE
         && (rnd != MX_SR || (p->sr_frac == MX_SR_FRAC_TRUNC && p->sr_bits == sr_bits));
}
#endif
