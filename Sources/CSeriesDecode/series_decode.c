#include "series_decode.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define TILECAST_DECODE4_AVX2 1
#endif

int tilecast_decode4_available(void) {
#ifdef TILECAST_DECODE4_AVX2
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    return 0;
#endif
}

#ifdef TILECAST_DECODE4_AVX2
__attribute__((target("avx2")))
void tilecast_decode4(const uint8_t *block, const tilecast_decode_lanes *lanes, int64_t commonWidth,
                      float step, int64_t count) {
    float *o0 = lanes->output[0], *o1 = lanes->output[1], *o2 = lanes->output[2], *o3 = lanes->output[3];
    const uint64_t commonMask = commonWidth >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << commonWidth) - 1);
    int64_t commonBit = 16;
    const __m256i seven = _mm256_set1_epi64x(7), one = _mm256_set1_epi64x(1), zero = _mm256_setzero_si256();
    const __m256i widths = _mm256_loadu_si256((const __m256i *)lanes->width);
    const __m256i masks = _mm256_loadu_si256((const __m256i *)lanes->mask);
    // The low 32 bits of each 64-bit lane, as four Int32 in the low half.
    const __m256i low = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    const __m128 scale = _mm_set1_ps(step);
    __m256i bits = _mm256_loadu_si256((const __m256i *)lanes->bit);
    __m256i current = _mm256_loadu_si256((const __m256i *)lanes->base);
    float values[4];
    for (int64_t t = 0; t < count; t++) {
        if (t > 0) {
            uint64_t word;
            memcpy(&word, block + (commonBit >> 3), 8);
            const uint64_t c = (word >> (commonBit & 7)) & commonMask;
            const int64_t common = (int64_t)((c >> 1) ^ (0 - (c & 1)));
            commonBit += commonWidth;
            // Each cell's 8 bytes from its delta's byte, shifted to the delta's bit, masked.
            __m256i words = _mm256_i64gather_epi64((const long long *)block, _mm256_srli_epi64(bits, 3), 1);
            words = _mm256_and_si256(_mm256_srlv_epi64(words, _mm256_and_si256(bits, seven)), masks);
            const __m256i deltas = _mm256_xor_si256(_mm256_srli_epi64(words, 1), _mm256_sub_epi64(zero, _mm256_and_si256(words, one)));
            current = _mm256_add_epi64(current, _mm256_add_epi64(deltas, _mm256_set1_epi64x(common)));
            bits = _mm256_add_epi64(bits, widths);
        }
        // In Int32 (the caller checked the range), then as Swift's Float(q) * step: the same
        // rounding (the MXCSR's, to nearest) for the conversion and the product.
        const __m128i q = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(current, low));
        _mm_storeu_ps(values, _mm_mul_ps(_mm_cvtepi32_ps(q), scale));
        o0[t] = values[0];
        o1[t] = values[1];
        o2[t] = values[2];
        o3[t] = values[3];
    }
}
#else
// Never called: `tilecast_decode4_available()` is 0 on this target, and the caller then runs
// its Swift loop.
void tilecast_decode4(const uint8_t *block, const tilecast_decode_lanes *lanes, int64_t commonWidth,
                      float step, int64_t count) {
    (void)block; (void)lanes; (void)commonWidth; (void)step; (void)count;
}
#endif
