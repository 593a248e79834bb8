/* fuzz_cli -- the stdin parsers of the line commands (quantize, dequantize, cast, dot): byte 0
 * chooses a command line, the rest is its standard input.
 * SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include "fuzz.h"
#include "cli.h"

static const char *const lines[][16] = {
  { "mxgold", "quantize", "--format", "e4m3", "--flags", NULL },
  { "mxgold", "quantize", "--format", "e2m1", "--input", "bf16", "--block", "4", "--rounding", "sr", "--random-bits", "5", NULL },
  { "mxgold", "quantize", "--format", "int8", "--input", "fp64", "--block", "2", "--scale-rule", "floor-log2f", "--flags", NULL },
  { "mxgold", "quantize", "--format", "e2m1", "--scale-format", "ue4m3", "--block", "3", "--profile", "te-mxfp8", NULL },
  { "mxgold", "dequantize", "--format", "e5m2", "--block", "3", "--output-format", "fp16", "--flags", NULL },
  { "mxgold", "dequantize", "--format", "e2m3", "--block", "2", "--scale-format", "ue4m3", NULL },
  { "mxgold", "cast", "--from", "e5m2", "--flags", NULL },
  { "mxgold", "cast", "--to", "e2m1", "--rounding", "sr", "--random-bits", "FFFF", "--sr-bits", "3", NULL },
  { "mxgold", "cast", "--from", "fp64", "--to", "e8m0", "--rounding", "rto", NULL },
  { "mxgold", "dot", "--format", "e4m3", "--format-b", "int8", "--block", "2", "--blocks", "2", "--flags", NULL },
  { "mxgold", "dot", "--format", "e2m1", "--block", "4", "--accum", "tensor-core", "--tc-group", "3", NULL },
  { "mxgold", "dot", "--format", "e3m2", "--block", "1", "--accum", "block-fp32", "--output-format", "bf16", NULL },
};
#define NLINES (sizeof lines / sizeof lines[0])

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static int fd = -1;
  if (size < 1)
    return 0;
  if (fd < 0 && (fd = open (fuzz_path ("stdin"), O_RDWR | O_CREAT | O_TRUNC, 0600)) < 0)
    abort ();
  if (ftruncate (fd, 0) != 0 || lseek (fd, 0, SEEK_SET) != 0
      || (size > 1 && write (fd, data + 1, size - 1) != (ssize_t) (size - 1))
      || lseek (fd, 0, SEEK_SET) != 0 || dup2 (fd, 0) != 0)
    abort ();
  const char *const *l = lines[data[0] % NLINES];
  char *argv[16];
  int argc = 0;
  while (l[argc])
    argv[argc] = (char *) l[argc], argc++;
  argv[argc] = NULL;
  mxgold_main (argc, argv);
  clearerr (stdout);
  return 0;
}
