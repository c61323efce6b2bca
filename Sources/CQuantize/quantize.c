#include "quantize.h"

#include <math.h>

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
