/* mx_pack, mx_unpack, mx_packed_size -- element codes to and from the byte layouts of
 * packings.def (docs/vectors.md "Packing").
 * SPDX-License-Identifier: MIT */
#include "internal.h"

static const struct
{
  unsigned bits;
  size_t group;
} layout[MX_PACKING_COUNT] = {
#define MX_PACKING(id, nm, bits, group, desc) { bits, group },
#include "mx/packings.def"
#undef MX_PACKING
};

size_t
mx_packed_size (mx_packing p, size_t k)
{
  if ((unsigned) p >= MX_PACKING_COUNT || k % layout[p].group)
    return 0;
  return p == MX_PACKING_UNPACKED ? k : p == MX_PACKING_FP6_3BYTE ? k / 4 * 3 : k / 2;
}

static int
check (size_t k, const mx_format *elem, mx_packing p)
{
  if ((unsigned) p >= MX_PACKING_COUNT || elem == NULL || k % layout[p].group
      || (layout[p].bits && elem->bits != layout[p].bits) || elem->bits > 8)
    return MX_EINVAL;
  return MX_OK;
}

int
mx_pack (uint8_t *b, const uint8_t *c, size_t k, const mx_format *elem, mx_packing p)
{
  if (check (k, elem, p) != MX_OK)
    return MX_EINVAL;
  switch (p)
    {
    case MX_PACKING_FP4_LO_FIRST:
      for (size_t i = 0; i < k / 2; i++)
        b[i] = (uint8_t) ((c[2 * i] & 0xF) | (c[2 * i + 1] & 0xF) << 4);
      break;
    case MX_PACKING_FP4_J_J16:
      for (size_t g = 0; g < k; g += 32)
        for (size_t j = 0; j < 16; j++)
          b[g / 2 + j] = (uint8_t) ((c[g + j] & 0xF) | (c[g + j + 16] & 0xF) << 4);
      break;
    case MX_PACKING_FP6_3BYTE:
      for (size_t i = 0; i < k / 4; i++)
        {
          uint32_t w = (uint32_t) (c[4 * i] & 63) | (uint32_t) (c[4 * i + 1] & 63) << 6
                       | (uint32_t) (c[4 * i + 2] & 63) << 12 | (uint32_t) (c[4 * i + 3] & 63) << 18;
          b[3 * i] = (uint8_t) w;
          b[3 * i + 1] = (uint8_t) (w >> 8);
          b[3 * i + 2] = (uint8_t) (w >> 16);
        }
      break;
    default:
      for (size_t i = 0; i < k; i++)
        b[i] = c[i];
    }
  return MX_OK;
}

int
mx_unpack (uint8_t *c, const uint8_t *b, size_t k, const mx_format *elem, mx_packing p)
{
  if (check (k, elem, p) != MX_OK)
    return MX_EINVAL;
  switch (p)
    {
    case MX_PACKING_FP4_LO_FIRST:
      for (size_t i = 0; i < k / 2; i++)
        c[2 * i] = b[i] & 0xF, c[2 * i + 1] = b[i] >> 4;
      break;
    case MX_PACKING_FP4_J_J16:
      for (size_t g = 0; g < k; g += 32)
        for (size_t j = 0; j < 16; j++)
          c[g + j] = b[g / 2 + j] & 0xF, c[g + j + 16] = b[g / 2 + j] >> 4;
      break;
    case MX_PACKING_FP6_3BYTE:
      for (size_t i = 0; i < k / 4; i++)
        {
          uint32_t w = (uint32_t) b[3 * i] | (uint32_t) b[3 * i + 1] << 8 | (uint32_t) b[3 * i + 2] << 16;
          for (size_t j = 0; j < 4; j++)
            c[4 * i + j] = (uint8_t) ((w >> (6 * j)) & 63);
        }
      break;
    default:
      for (size_t i = 0; i < k; i++)
        c[i] = b[i];
    }
  return MX_OK;
}
