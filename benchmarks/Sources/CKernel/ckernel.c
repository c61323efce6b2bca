/* The C reference kernel: the same stencil rules and the same Float sums, in the same
 * order, as Sources/Interpolation (BilinearStencil.swift, SeriesInterpolation.swift), so
 * the two agree bit for bit and the benchmark compares equal work.
 *
 * Built with -O3 (portable) or -O3 -march=native (fast) and -ffp-contract=off: clang
 * otherwise fuses w * a + s into an FMA, which Swift never does, and the results would
 * differ in the last bit. `restrict` tells the compiler the output does not overlap the
 * corner series (the corners may alias each other; they are only read), so it vectorises
 * the time loop without run-time overlap checks: this is the practical ceiling. */
#include "ckernel.h"

#include <math.h>

static const double snap_tolerance = 0x1p-30;

/* One axis of the stencil: 0 when x is outside 0...count-1 or NaN. */
static inline int axis(double x, long count, long *lower, long *upper, double *fraction) {
    if (!(count >= 1 && x >= 0 && x <= (double)(count - 1))) return 0;
    if (count == 1) {
        *lower = *upper = 0;
        *fraction = 0;
        return 1;
    }
    long lo = (long)x;
    if (lo > count - 2) lo = count - 2;
    double f = x - (double)lo;
    if (f < snap_tolerance) {
        *lower = *upper = lo;
        *fraction = 0;
    } else if (f > 1 - snap_tolerance) {
        *lower = *upper = lo + 1;
        *fraction = 1;
    } else {
        *lower = lo;
        *upper = lo + 1;
        *fraction = f;
    }
    return 1;
}

static void series(const float *restrict c00, const float *restrict c10,
                   const float *restrict c01, const float *restrict c11,
                   float w00, float w10, float w01, float w11, long steps, float *restrict out) {
    for (long t = 0; t < steps; t++) {
        float sum = w00 * c00[t];
        sum += w10 * c10[t];
        sum += w01 * c01[t];
        sum += w11 * c11[t];
        out[t] = sum;
    }
}

void ck_interpolate(const float *field, long westEast, long southNorth, long steps,
                    const double *positions, long count, float *out) {
    for (long p = 0; p < count; p++) {
        float *row = out + p * steps;
        long i0, i1, j0, j1;
        double fi, fj;
        if (!axis(positions[2 * p], westEast, &i0, &i1, &fi) ||
            !axis(positions[2 * p + 1], southNorth, &j0, &j1, &fj)) {
            for (long t = 0; t < steps; t++) row[t] = NAN;
            continue;
        }
        double gi = 1 - fi, gj = 1 - fj;
        const float *c00 = field + (j0 * westEast + i0) * steps;
        const float *c10 = field + (j0 * westEast + i1) * steps;
        const float *c01 = field + (j1 * westEast + i0) * steps;
        const float *c11 = field + (j1 * westEast + i1) * steps;
        series(c00, c10, c01, c11, (float)(gi * gj), (float)(fi * gj), (float)(gi * fj), (float)(fi * fj),
               steps, row);
    }
}

int ck_compiled_with_avx2(void) {
#ifdef __AVX2__
    return 1;
#else
    return 0;
#endif
}

int ck_fp_contract_enabled(void) {
    /* A probe the compiler cannot fold: volatile inputs. a * b = 1 + 2^-11 + 2^-24 exactly;
     * rounded to Float first it loses the 2^-24, fused into an FMA it keeps it. */
    volatile float a = 1.0f + 0x1p-12f, b = 1.0f + 0x1p-12f, c = -1.0f;
    float result = a * b + c;
    return result != 0x1p-11f;
}
