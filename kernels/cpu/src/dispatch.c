/* dispatch.c -- the path the mxk_* functions run: probed once by cpuid (pthread_once), or
 * forced by mxk_use_path (an atomic store: safe while other threads run kernels, since every
 * path gives the same bits).
 * SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdatomic.h>
#include "internal.h"
#if defined(__x86_64__) && defined(MXK_HAVE_X86)
#include <cpuid.h>

/* F16C: CPUID leaf 1, ECX bit 29 (not every compiler's __builtin_cpu_supports knows it) */
static int
has_f16c (void)
{
  unsigned a, b, c, d;
  return __get_cpuid (1, &a, &b, &c, &d) && (c >> 29) & 1;
}
#endif

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static mxk_path best_path = MXK_PATH_GENERIC;
static _Atomic int forced = MXK_PATH_AUTO;

int
mxk_path_supported (mxk_path p)
{
  switch (p)
    {
    case MXK_PATH_AUTO: case MXK_PATH_REF: case MXK_PATH_GENERIC: return 1;
#if defined(__x86_64__) && defined(MXK_HAVE_X86)
    case MXK_PATH_AVX2: return __builtin_cpu_supports ("avx2") && has_f16c ();
    case MXK_PATH_AVX512:
      return __builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512bw")
             && __builtin_cpu_supports ("avx512vl");
    case MXK_PATH_AVX512VBMI:
      return mxk_path_supported (MXK_PATH_AVX512) && __builtin_cpu_supports ("avx512vbmi");
#endif
    default: return 0;
    }
}

static void
probe (void)
{
  best_path = mxk_path_supported (MXK_PATH_AVX512VBMI) ? MXK_PATH_AVX512VBMI
              : mxk_path_supported (MXK_PATH_AVX512) ? MXK_PATH_AVX512
              : mxk_path_supported (MXK_PATH_AVX2) ? MXK_PATH_AVX2 : MXK_PATH_GENERIC;
}

int
mxk_use_path (mxk_path p)
{
  if ((unsigned) p >= MXK_PATH_COUNT || !mxk_path_supported (p))
    return MX_EINVAL;
  atomic_store (&forced, (int) p);
  return MX_OK;
}

mxk_path
mxk_current_path (void)
{
  mxk_path p = (mxk_path) atomic_load (&forced);
  if (p != MXK_PATH_AUTO)
    return p;
  pthread_once (&probe_once, probe);
  return best_path;
}

const char *
mxk_path_name (mxk_path p)
{
  static const char *const names[] = { "auto", "ref", "generic", "avx2", "avx512", "avx512vbmi" };
  return (unsigned) p < MXK_PATH_COUNT ? names[p] : "?";
}

const mxk__ops *
mxk__ops_now (void)
{
  switch (mxk_current_path ())
    {
    case MXK_PATH_REF: return &mxk__ops_ref;
#if defined(__x86_64__) && defined(MXK_HAVE_X86)
    case MXK_PATH_AVX2: return &mxk__ops_avx2;
    case MXK_PATH_AVX512: return &mxk__ops_avx512;
    case MXK_PATH_AVX512VBMI: return &mxk__ops_avx512vbmi;
#endif
    default: return &mxk__ops_generic;
    }
}

int
mxk_quantize (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
              mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, mx_packing packing)
{
  return mxk__ops_now ()->quantize (scales, codes, in, in_fmt, n, elem, rule, rnd, NULL, packing);
}

int
mxk_quantize_sr (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
                 mx_format_id elem, mx_scale_rule rule, const uint16_t *rbits, mx_packing packing)
{
  return mxk__ops_now ()->quantize (scales, codes, in, in_fmt, n, elem, rule, MX_SR, rbits,
                                    packing);
}

int
mxk_dequantize (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes,
                size_t n, mx_format_id elem, mx_packing packing)
{
  return mxk__ops_now ()->dequantize (out, out_fmt, scales, codes, n, elem, packing);
}

int
mxk_dot (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa, const uint8_t *sb,
         const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin)
{
  return mxk__ops_now ()->dot (out, sa, a, fa, sb, b, fb, n, cin);
}
