/* The C reference kernel for benchmark B1: the same layout and the same work as the Swift
 * kernel in Sources/Interpolation, written as plain C for the compiler to optimise. */
#ifndef TILECAST_CKERNEL_H
#define TILECAST_CKERNEL_H

#ifdef __cplusplus
extern "C" {
#endif

/* For each of `count` positions (i, j pairs of doubles, 0-based fractional mass-grid
 * indices), computes the bilinear stencil on a westEast x southNorth grid and writes the
 * point's `steps` values to out + p * steps; rows of positions outside the grid are NaN.
 * `field` is laid out [j][i][t] with westEast * southNorth * steps values. */
void ck_interpolate(const float *field, long westEast, long southNorth, long steps,
                    const double *positions, long count, float *out);

/* 1 when this file was compiled with AVX2 enabled (-march=native on an AVX2 machine),
 * so the report can say which C build it measured. */
int ck_compiled_with_avx2(void);

/* 1 when the compiler may fuse a * b + c into an FMA here (it must not: the reference
 * computes the same roundings as Swift). */
int ck_fp_contract_enabled(void);

#ifdef __cplusplus
}
#endif

#endif
