/* fuzz_mxv -- the .mxv reader: byte 0 chooses how the rest is read (bit 0: as a .gz file; bit 1:
 * computed by mxgold gemm's path, mxv_compute_file, instead of verified with 'verify FILE').
 * SPDX-License-Identifier: MIT */
#include "fuzz.h"
#include "mxvec.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  const char *path = fuzz_path (data[0] & 1 ? "in.mxv.gz" : "in.mxv");
  fuzz_write (path, data + 1, size - 1);
  if (data[0] & 2)
    mxv_compute_file (path, stdout);
  else
    {
      mxv_verify_opts o = { 20, 0, 0, 0, 0, 0, 0, 0 };
      mxv_verify_file (path, NULL, &o);
    }
  return 0;
}
