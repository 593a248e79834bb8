/* mxv.h -- the .mxv conformance-vector format (docs/vectors.md): header, cases, emitters,
 * generator and verifier shared by the mxgold CLI and bench-gen.
 * SPDX-License-Identifier: MIT */
#ifndef MXV_H
#define MXV_H
#include <stdio.h>
#include "mx.h"

#define MXV_VERSION 1
#define MXV_MAX_K 1024

typedef enum { MXV_QUANTIZE, MXV_CAST, MXV_DECODE, MXV_DEQUANTIZE, MXV_DOT, MXV_GEMM,
               MXV_OP_COUNT } mxv_op;
#define MXV_MAX_NB 32 /* dot: blocks per case; gemm: m*nb and n*nb */
typedef enum { MXV_UNPACKED, MXV_FP4_LO_FIRST, MXV_FP4_J_J16, MXV_FP6_3BYTE } mxv_packing;
typedef enum { MXV_EMIT_MXV, MXV_EMIT_BIN, MXV_EMIT_READMEMH, MXV_EMIT_JSONL } mxv_emit;

extern const char *const mxv_op_names[MXV_OP_COUNT];
extern const char *const mxv_packing_names[4];
extern const char *const mxv_emit_names[4];

typedef struct
{
  mxv_op op;
  const mx_format *elem, *scale, *in, *out;
  const mx_format *elem_b;   /* dot, gemm: B's element format */
  size_t k;
  size_t nblocks;            /* dot: block pairs per case */
  size_t gm, gn, gkdim;      /* gemm: C is gm x gn, K = gkdim */
  mx_dot_policy dp;          /* dot, gemm */
  mx_policy pol;
  char profile[32];
  mxv_packing packing;
  unsigned long long seed;
  int level;
  long cases;
  char command[2048];
  char generator[128];
} mxv_header;

/* One case.  Which fields are used depends on the op (docs/vectors.md "Body"). */
typedef struct
{
  uint64_t in[MXV_MAX_K];    /* quantize: K inputs; cast: in[0]; decode: in[0] = code */
  uint64_t rbits[MXV_MAX_K]; /* sr random words (quantize, cast) */
  uint64_t scale;            /* quantize: expected scale; dequantize: input scale */
  uint64_t codes[MXV_MAX_K]; /* quantize: expected codes; cast: codes[0]; dequantize: inputs */
  unsigned flags;
  uint64_t out[MXV_MAX_K];   /* dequantize: K outputs; decode, dot: out[0]; gemm: C */
  uint64_t codes_b[MXV_MAX_K];       /* dot, gemm: B's codes (codes holds A's) */
  uint64_t scale_a[MXV_MAX_NB * 8];  /* dot, gemm: block scales (in[] holds C_in) */
  uint64_t scale_b[MXV_MAX_NB * 8];
} mxv_case;

/* A field of a case line: count words of width hex digits, each < 2^bits. */
typedef struct
{
  const char *name;
  size_t count;
  int width;
  unsigned bits;
  int output;    /* an expected result (compared by verify) */
  uint64_t *v;   /* the words (packed bytes for packed codes) */
  int codes;     /* 1: element codes, 2: packed element codes, 3: scale, 4: out format value */
  const mx_format *fmt; /* the format of the words (for decoding them in reports), or NULL */
} mxv_field;

#define MXV_MAX_FIELDS (4 * MXV_MAX_NB + 8)
/* The fields of op's lines, pointing into c (and into packed, for packed codes). */
int mxv_fields (const mxv_header *h, mxv_case *c, uint64_t *packed, mxv_field f[MXV_MAX_FIELDS]);

/* Compute the expected outputs of c from its inputs with libmxgold. */
void mxv_compute (const mxv_header *h, mxv_case *c);

/* Index of s in names[0..n-1], or -1. */
int mxv_lookup (const char *const *names, int n, const char *s);

/* Header */
void mxv_header_init (mxv_header *h);
int mxv_header_validate (const mxv_header *h, char *err, size_t errlen);
void mxv_write_header (FILE *o, const mxv_header *h, const char *prefix);
/* Parse one "# key: value" line into h; returns 0, 1 for an unknown key, -1 on a bad value. */
int mxv_header_line (mxv_header *h, const char *line, char *err, size_t errlen);

/* Packing */
size_t mxv_packed_bytes (const mxv_header *h);
void mxv_pack (const mxv_header *h, const uint64_t *codes, uint64_t *bytes);
void mxv_unpack (const mxv_header *h, const uint64_t *bytes, uint64_t *codes);

/* Writer for every emit form.  mxv_writer_case pack/compute nothing: c must be complete. */
typedef struct
{
  FILE *o;
  mxv_emit emit;
  const mxv_header *h;
  long n;
} mxv_writer;
void mxv_writer_begin (mxv_writer *w, FILE *o, mxv_emit emit, const mxv_header *h);
void mxv_writer_case (mxv_writer *w, mxv_case *c);
void mxv_writer_end (mxv_writer *w);

/* SplitMix64, the documented PRNG of the generator (docs/vectors.md "Randomness"). */
typedef struct { unsigned long long s; } mxv_rng;
static inline unsigned long long
mxv_rng_next (mxv_rng *r)
{
  unsigned long long z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Generator: calls emit for every case of h (level, n random, exhaustive), inputs filled and
 * expected outputs computed.  progress (may be NULL) is called now and then with a count. */
typedef void (*mxv_emit_fn) (void *ctx, mxv_case *c);
long mxv_generate (const mxv_header *h, long n_random, int exhaustive, mxv_emit_fn emit,
                   void *ctx, char *err, size_t errlen);

/* Verifier options */
typedef struct
{
  long errors;        /* report at most this many mismatches (0: all) */
  int check_nans, check_zero_sign, ignore_flags, strict;
  long passed, failed, first_failed; /* out: counts, and the 1-based index of the first failure */
} mxv_verify_opts;

/* Read a .mxv file (full case lines, or lines with the inputs only), compute every case and
 * write its outputs as bare output lines.  Returns 0, or 2 on malformed input. */
int mxv_compute_file (const char *path, FILE *out);

/* Call fn for every case of a .mxv file (full lines: inputs and expected outputs), with the
 * header and the file and line of the case.  Returns 0, 2 on malformed input, or fn's first
 * nonzero return. */
typedef int (*mxv_case_fn) (void *ctx, const mxv_header *h, mxv_case *c, const char *file,
                            unsigned long line);
int mxv_each_case (const char *path, mxv_case_fn fn, void *ctx);

/* verify: returns 0 all passed, 1 mismatches, 2 malformed input (message printed). */
int mxv_verify_file (const char *vectors, const char *results, mxv_verify_opts *o);
#endif
