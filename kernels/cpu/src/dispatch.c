/* dispatch.c -- choose a path once (cpuid), or the one forced by mxk_use_path().
 * SPDX-License-Identifier: MIT */
#include "internal.h"

static mxk_path current = MXK_PATH_AUTO;

int
mxk_path_supported (mxk_path p)
{
  switch (p)
    {
    case MXK_PATH_AUTO: case MXK_PATH_REF: case MXK_PATH_GENERIC: return 1;
#if defined(__x86_64__) && defined(MXK_HAVE_X86)
    case MXK_PATH_AVX2: return __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("f16c");
    case MXK_PATH_AVX512:
      return __builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512bw")
             && __builtin_cpu_supports ("avx512vl");
#endif
    default: return 0;
    }
}

static mxk_path
best (void)
{
  return mxk_path_supported (MXK_PATH_AVX512) ? MXK_PATH_AVX512
         : mxk_path_supported (MXK_PATH_AVX2) ? MXK_PATH_AVX2 : MXK_PATH_GENERIC;
}

int
mxk_use_path (mxk_path p)
{
  if ((unsigned) p >= MXK_PATH_COUNT || !mxk_path_supported (p))
    return -1;
  current = p == MXK_PATH_AUTO ? best () : p;
  return 0;
}

mxk_path
mxk_current_path (void)
{
  if (current == MXK_PATH_AUTO)
    current = best ();
  return current;
}

const char *
mxk_path_name (mxk_path p)
{
  static const char *const names[] = { "auto", "ref", "generic", "avx2", "avx512" };
  return (unsigned) p < MXK_PATH_COUNT ? names[p] : "?";
}

#define DISPATCH(op, ...)                                                                       \
  switch (mxk_current_path ())                                                                 \
    {                                                                                          \
    case MXK_PATH_REF: return op##_ref (__VA_ARGS__);                                          \
    case MXK_PATH_AVX2: return op##_avx2 (__VA_ARGS__);                                        \
    case MXK_PATH_AVX512: return op##_avx512 (__VA_ARGS__);                                    \
    default: return op##_generic (__VA_ARGS__);                                                \
    }

int
mxk_quantize (uint8_t *scales, uint8_t *codes, const void *in, mx_format_id in_fmt, size_t n,
              mx_format_id elem, mx_scale_rule rule, mx_rounding rnd, mxk_packing packing)
{
  DISPATCH (mxk_quantize, scales, codes, in, in_fmt, n, elem, rule, rnd, packing)
}

int
mxk_dequantize (void *out, mx_format_id out_fmt, const uint8_t *scales, const uint8_t *codes,
                size_t n, mx_format_id elem, mxk_packing packing)
{
  DISPATCH (mxk_dequantize, out, out_fmt, scales, codes, n, elem, packing)
}

int
mxk_dot (uint32_t *out, const uint8_t *sa, const uint8_t *a, mx_format_id fa, const uint8_t *sb,
         const uint8_t *b, mx_format_id fb, size_t n, uint32_t cin)
{
  DISPATCH (mxk_dot, out, sa, a, fa, sb, b, fb, n, cin)
}
