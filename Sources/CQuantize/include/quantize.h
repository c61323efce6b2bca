// The writer's quantizing loop in C: Swift's Float-to-Int32 conversion traps out of range and
// its rounding calls libm's rintf on the baseline x86-64 target, so its loop ran a call and
// three branches per value; this one compiles to SIMD (4 floats per instruction on SSE2).
#ifndef TILECAST_QUANTIZE_H
#define TILECAST_QUANTIZE_H

#include <stddef.h>
#include <stdint.h>

/// quantized[i] = values[i] x inverse rounded to the nearest integer (ties to even), or
/// INT32_MIN (the store's missing value) when that is not finite or not inside
/// (-2e9, 2e9) (see `Quantizer.quantize(_:into:)`).
void tilecast_quantize(const float *values, int32_t *quantized, size_t count, float inverse);

/// Running totals in place: for each of `count` cells, `row[i]` holds an amount (a Float's
/// bits); a NaN amount becomes INT32_MIN (missing) and adds nothing, any other is added to
/// `totals[i]` (Double) and `row[i]` becomes the total / step rounded to the nearest integer,
/// ties away from zero, or INT32_MIN when that is not finite or not inside (-2e9, 2e9). In
/// SIMD: Swift's loop ran a division, a rounding and four branches per value (4 % of an
/// extraction's instructions).
void tilecast_add_to_running_totals(int32_t *row, double *totals, size_t count, double step);

#endif
