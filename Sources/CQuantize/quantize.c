#include "quantize.h"

#include <math.h>
#include <string.h>

// No fused multiply-add: the product is rounded to Float before it is rounded to an integer,
// as in Swift.
#pragma STDC FP_CONTRACT OFF

void tilecast_quantize(const float *values, int32_t *quantized, size_t count, float inverse) {
    for (size_t i = 0; i < count; i++) {
        float scaled = values[i] * inverse;
        // Round to nearest, ties to even, without a call: below 2^23, adding and removing
        // 2^23 (of the value's sign) leaves the integer the FPU's default rounding picked;
        // from 2^23 on every float is an integer already. NaN stays NaN.
        float magic = copysignf(0x1p23f, scaled);
        float rounded = fabsf(scaled) < 0x1p23f ? (scaled + magic) - magic : scaled;
        // NaN and infinities fail both tests.
        quantized[i] = (rounded > -2.0e9f && rounded < 2.0e9f) ? (int32_t)rounded : INT32_MIN;
    }
}

void tilecast_add_to_running_totals(int32_t *row, double *totals, size_t count, double step) {
    for (size_t i = 0; i < count; i++) {
        int32_t bits = row[i];
        float amount;
        memcpy(&amount, &bits, sizeof amount);
        int missing = amount != amount;
        double total = totals[i] + (double)amount;
        totals[i] = missing ? totals[i] : total;
        double x = total / step;
        // Beyond +-2.1e9 (and NaN, infinities) the rounded value is outside (-2e9, 2e9)
        // anyway: missing. Inside, truncating to int32 is exact and defined in every lane.
        int inside = fabs(x) < 2.1e9;
        double bounded = inside ? x : 0.0;
        double whole = (double)(int32_t)bounded;
        double fraction = bounded - whole;
        double rounded = fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole;
        int stored = !missing && inside && rounded > -2.0e9 && rounded < 2.0e9;
        row[i] = stored ? (int32_t)rounded : INT32_MIN;
    }
}
