/* mxvec.h -- libmxvec: the .mxv conformance-vector format of mxgold (docs/vectors.md): header,
 * case lines, the generator, the verifier, and the line reader every mxgold tool reads through.
 *
 * Guarantees of every reader: a line is at most MXV_MAX_LINE bytes and holds no NUL byte; a .gz
 * file is read through zlib and any stream error (bad CRC, truncation, trailing data) is an
 * error; every number goes through mx_parse_uint / mx_parse_hex; the case count the header
 * declares must match the file.  Errors are printed to stderr as "FILE:LINE: what was expected".
 * SPDX-License-Identifier: MIT */
#ifndef MXVEC_H
#define MXVEC_H
#include <stdio.h>
#include "mx.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MXV_VERSION 1

/* Size limits, stated once (docs/vectors.md "Limits"): the generator accepts exactly what every
 * reader reads, and the CLI's line commands take the same. */
#define MXV_MAX_K 4096         /* elements per block */
#define MXV_MAX_WORDS 4096     /* words per field: a dot's nblocks * k; a gemm's m*kdim, n*kdim,
                                  m*n and block scales per operand */
#define MXV_MAX_NB 64          /* dot: block pairs per case */
#define MXV_MAX_LINE (1 << 20) /* bytes per line, newline excluded */
#define MXV_MAX_CASES (1LL << 40)

typedef enum { MXV_QUANTIZE, MXV_CAST, MXV_DECODE, MXV_DEQUANTIZE, MXV_DOT, MXV_GEMM,
               MXV_NVFP4, MXV_MXS, MXV_OP_COUNT } mxv_op;
typedef enum { MXV_EMIT_MXV, MXV_EMIT_BIN, MXV_EMIT_READMEMH, MXV_EMIT_JSONL,
               MXV_EMIT_COUNT } mxv_emit;
extern const char *const mxv_op_names[MXV_OP_COUNT];
extern const char *const mxv_emit_names[MXV_EMIT_COUNT];

/*-------------------------------------------------------------------- header -*/
typedef struct
{
  mxv_op op;
  const mx_format *elem, *scale, *in, *out;
  const mx_format *elem_b;   /* dot, gemm: B's element format (NULL: the same as elem) */
  size_t k;                  /* block size */
  size_t nblocks;            /* dot: block pairs per case */
  size_t gm, gn, gkdim;      /* gemm: C is gm x gn, K = gkdim */
  size_t rows, cols;         /* nvfp4: the tensor is rows x cols (key "nvfp4") */
  int tile_2d;               /* nvfp4: one scale per 16x16 tile (1) or per 1x16 block (0) */
  int amax_given;            /* nvfp4: the amax is an input of each case (1) or computed (0) */
  mx_mxs_format mxs;         /* mxs: the format (key "mxs") */
  mx_policy pol;
  mx_rounding rnd;           /* element rounding (key "rounding") */
  mx_dot_policy dp;          /* dot, gemm */
  mx_rounding out_rnd;       /* dot, gemm: output rounding (key "out-rounding") */
  mx_packing packing;
  char profile[32];
  unsigned long long seed;
  int level;
  long long cases;           /* -1: the header declares no count */
  char command[2048];
  char generator[128];
  unsigned long long seen;   /* which keys were read (internal to the header functions) */
} mxv_header;

/* The defaults of every key (OCP policy, FP32 in and out, block 32, seed 1, level 1). */
void mxv_header_init (mxv_header *h);
/* 0, or -1 with the reason in err[n] (formats of the wrong role, sizes beyond the limits, a
 * packing or policy that does not fit, an invalid tensor-core model). */
int mxv_header_validate (const mxv_header *h, char *err, size_t n);
/* Parse one "# key: value" line into h: 0, 1 for a plain comment or an informative key, -1 with
 * the reason in err[n] for a bad value. */
int mxv_header_line (mxv_header *h, const char *line, char *err, size_t n);
/* 0 if every semantic key that b's file declared has a's value; else -1 with the key in err. */
int mxv_header_compare (const mxv_header *a, const mxv_header *b, char *err, size_t n);

/*--------------------------------------------------------------------- cases -*/
/* One case (288 KiB: allocate it, do not put it on the stack).  Which fields are used depends
 * on the op (docs/vectors.md "Body"). */
typedef struct
{
  uint64_t in[MXV_MAX_WORDS];    /* quantize, mxs: K inputs; cast: in[0]; decode: in[0] = code;
                                    dot: in[0] = C_in; gemm: C_in; nvfp4: the tensor */
  uint64_t rbits[MXV_MAX_WORDS]; /* sr random words (quantize, cast, nvfp4) */
  uint64_t scale;                /* quantize, mxs: expected scale; dequantize: input scale */
  uint64_t codes[MXV_MAX_WORDS]; /* quantize, mxs, nvfp4: expected codes; cast: codes[0];
                                    dequantize: input codes; dot, gemm: A's codes */
  uint64_t flags;                /* expected flags */
  uint64_t out[MXV_MAX_WORDS];   /* dequantize: K outputs; decode, dot: out[0]; gemm: C;
                                    nvfp4, mxs: the dequantized codes */
  uint64_t codes_b[MXV_MAX_WORDS];  /* dot, gemm: B's codes */
  uint64_t scale_a[MXV_MAX_WORDS]; /* dot, gemm: block scales; nvfp4: the expected scales */
  uint64_t scale_b[MXV_MAX_WORDS];
  uint64_t packed[MXV_MAX_K];    /* packed element bytes, while a line is read or written */
  uint64_t amax, senc;           /* nvfp4: the tensor amax (input or expected), expected S_enc */
  uint64_t shifts[MXV_MAX_K];    /* mxs: expected sub-block shifts */
} mxv_case;

/* What a field of a case line holds. */
typedef enum { MXV_F_INPUT, MXV_F_CODES, MXV_F_PACKED, MXV_F_SCALE, MXV_F_VALUE, MXV_F_FLAGS }
  mxv_field_kind;

/* A field: count words of width hex digits, each < 2^bits. */
typedef struct
{
  const char *name;
  size_t count;
  int width;
  unsigned bits;
  int output;           /* an expected result (compared by verify) */
  mxv_field_kind kind;
  uint64_t *v;          /* the words, inside the case */
  const mx_format *fmt; /* the words' format (for decoding them in reports), or NULL */
} mxv_field;

#define MXV_MAX_FIELDS (4 * MXV_MAX_NB + 8)
/* The number of elements of a case: rows * cols for nvfp4, else the block size. */
size_t mxv_elems (const mxv_header *h);
/* The fields of h's lines, pointing into c; returns their number. */
int mxv_fields (const mxv_header *h, mxv_case *c, mxv_field f[MXV_MAX_FIELDS]);

/* Compute c's expected outputs from its inputs with libmxgold: MX_OK or an mx_status. */
int mxv_compute (const mxv_header *h, mxv_case *c);

/*--------------------------------------------------------------------- lines -*/
/* Line input with the guarantees above.  path "-" is stdin; a name ending in .gz is gzip. */
typedef struct mxv_lines mxv_lines;
enum { MXV_LINES_FINAL_NEWLINE_OPTIONAL = 1 }; /* open flags: accept a last line without '\n' */
/* NULL after printing why ("cannot open", "is a directory"). */
mxv_lines *mxv_lines_open (const char *path, int flags);
/* The next line, NUL-terminated without its newline, writable until the next call: 1; 0 at the
 * end; -1 after printing the error. */
int mxv_lines_next (mxv_lines *r, char **line, size_t *len);
const char *mxv_lines_name (const mxv_lines *r);
unsigned long mxv_lines_number (const mxv_lines *r);
void mxv_lines_close (mxv_lines *r);
/* Print "NAME:LINE: " and the message to stderr (stdout flushed first); returns 2. */
int mxv_lines_error (const mxv_lines *r, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
/* s for an error message: at most 40 characters (then "..."), control bytes as \xHH. */
const char *mxv_quote (char *buf, size_t n, const char *s);
/* v in upper-case hex, at least width digits (width 0..16: as "%0*llX"; above 16, 16), into
 * buf[16], not NUL-terminated: the digit count.  Every word the writers put out goes through
 * it. */
int mxv_hex (char *buf, uint64_t v, int width);
/* v[0..n) to o by mxv_hex, a space before each but the first word of a line (first set): the
 * words of the line commands and of results files.  Errors show in ferror (o). */
void mxv_put_words (FILE *o, const uint64_t *v, size_t n, int width, int first);

/*------------------------------------------------------------- reading cases -*/
/* Which fields a case line may carry. */
typedef enum {
  MXV_LINE_FULL,            /* inputs and outputs */
  MXV_LINE_FULL_OR_INPUTS,  /* or the inputs alone (mxgold gemm, compute) */
  MXV_LINE_FULL_OR_OUTPUTS  /* or the outputs alone, with or without the flags (results) */
} mxv_line_form;

typedef struct mxv_file mxv_file;
/* Open a .mxv file and read its header into h (validated).  need_header: a vectors file must
 * have one, with its "cases:" count; a results file may have none (h then keeps its values).
 * NULL after printing why. */
mxv_file *mxv_open (const char *path, mxv_header *h, int need_header);
/* The next case into c: 1; 0 at the end (after checking the declared count); -1 after printing
 * the error.  *has_flags: whether the line carried the flags. */
int mxv_read_case (mxv_file *f, mxv_case *c, mxv_line_form form, int *has_flags);
/* The reader behind f, for its name and line number. */
mxv_lines *mxv_file_lines (mxv_file *f);
void mxv_close (mxv_file *f);

/* Call fn for every case of a .mxv file (full lines), with the header and the file and line of
 * the case.  Returns 0, 2 on malformed input, or fn's first nonzero return. */
typedef int (*mxv_case_fn) (void *ctx, const mxv_header *h, mxv_case *c, const char *file,
                            unsigned long line);
int mxv_each_case (const char *path, mxv_case_fn fn, void *ctx);

/* The same for files whose lines may carry the inputs only. */
int mxv_each_case_inputs (const char *path, mxv_case_fn fn, void *ctx);

/* Every case of a .mxv file (full lines or inputs only), its computed outputs written to out as
 * bare output lines.  Returns 0, 1 on a write error, or 2 on malformed input. */
int mxv_compute_file (const char *path, FILE *out);
/* The case function behind it (ctx: the FILE *), for callers that check cases first. */
int mxv_print_outputs (void *out, const mxv_header *h, mxv_case *c, const char *file,
                       unsigned long line);

/*------------------------------------------------------------------- writing -*/
typedef struct
{
  FILE *o;
  mxv_emit emit;
  const mxv_header *h;
  long long n;
} mxv_writer;
/* The header, in the emit form's framing.  Write errors show in ferror(o). */
void mxv_writer_begin (mxv_writer *w, FILE *o, mxv_emit emit, const mxv_header *h);
/* One complete case (inputs and expected outputs). */
void mxv_writer_case (mxv_writer *w, mxv_case *c);
/* 0, or -1 if any write failed (flushes o; does not close it). */
int mxv_writer_end (mxv_writer *w);

/*----------------------------------------------------------------- generator -*/
/* SplitMix64, the documented PRNG of the generator (docs/vectors.md "Randomness"): the one copy
 * every mxgold program uses, so a seed gives the same numbers on every machine and libc. */
typedef struct { unsigned long long s; } mxv_rng;
static inline unsigned long long
mxv_rng_next (mxv_rng *r)
{
  unsigned long long z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Call emit for every case of h (level, n_random seeded random cases, exhaustive), inputs filled
 * and expected outputs computed; emit returns 0 to go on.  With emit NULL, only count them
 * (fast: nothing is computed).  Returns the number of cases, or -1 with the reason in err[n]. */
typedef int (*mxv_emit_fn) (void *ctx, mxv_case *c);
long long mxv_generate (const mxv_header *h, long long n_random, int exhaustive, mxv_emit_fn emit,
                        void *ctx, char *err, size_t n);

/*------------------------------------------------------------------ verifier -*/
typedef struct
{
  long errors;        /* report at most this many mismatches (0: all) */
  int check_nans, check_zero_sign, ignore_flags, strict;
  long long passed, failed, first_failed; /* out: counts, and the 1-based first failure */
} mxv_verify_opts;

/* verify: 0 all passed, 1 mismatches, 2 malformed input (message printed). */
int mxv_verify_file (const char *vectors, const char *results, mxv_verify_opts *o);

#ifdef __cplusplus
}
#endif
#endif
