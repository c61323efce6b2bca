// The point read's shared decode (`SeriesCodec.decodeScaled`) for CPUs with AVX2: four cells of
// one block a step in one vector. The portable Swift loop runs about 110 instructions a step for
// four cells (each cell's shift is its own, and x86-64's baseline has no per-lane variable shift);
// this one about 40. The caller has checked everything (loads inside the block, sums in Int32)
// and keeps the Swift loop for CPUs without AVX2; both give the same bits.
#ifndef TILECAST_SERIES_DECODE_H
#define TILECAST_SERIES_DECODE_H

#include <stdint.h>

/// Four cells of one block. Lanes may repeat (two cells are passed as lanes 0, 1, 0, 1): a
/// repeated lane writes the same values to the same place again.
typedef struct {
    /// The bit where each cell's first packed delta starts, from the block's start.
    int64_t bit[4];
    /// Bits a delta (0 to 32).
    int64_t width[4];
    /// (1 << width) - 1.
    uint64_t mask[4];
    /// Each cell's first quantized value.
    int64_t base[4];
    /// Where each cell's `count` scaled values go.
    float *output[4];
} tilecast_decode_lanes;

/// 1 when this CPU runs `tilecast_decode4` (AVX2), else 0.
int tilecast_decode4_available(void);

/// output[k][t] = (float)q[k][t] * step for t < count, where q[k][0] = base[k] and
/// q[k][t] = q[k][t-1] + common[t] + delta[k][t]: each delta the zigzag-coded `width[k]` bits
/// at its cell's next place, each common term the zigzag-coded `commonWidth` bits from bit 16
/// of the block on (none when commonWidth is 0). Requires every 8-byte load inside the block
/// and every q inside Int32 (`SeriesCodec.decodeScaled` checks both), count >= 1, and
/// `tilecast_decode4_available()`.
void tilecast_decode4(const uint8_t *block, const tilecast_decode_lanes *lanes, int64_t commonWidth,
                      float step, int64_t count);

#endif
