// A STREAM-like probe for B2: copy (b = a) and triad (a = b + s * c) over arrays of N floats,
// on one thread and then on two (each thread its half), best of several passes; prints GB/s
// and the two-thread speed-up of each. The B1 kernel writes 29 MB of output per batch from a
// field in L3, so what the memory system gives two cores bounds its all-cores speed-up (B2).
//   stream [MB per array]   (default 64: far beyond the caches)
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static float *a, *b, *c;
static long n;
static int kind;   // 0 copy, 1 triad

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *part(void *argument) {
    long index = (long)argument >> 8, parts = (long)argument & 0xFF;
    long start = n * index / parts, end = n * (index + 1) / parts;
    if (kind == 0) for (long i = start; i < end; i++) b[i] = a[i];
    else for (long i = start; i < end; i++) a[i] = b[i] + 3.0f * c[i];
    return 0;
}

static double best(int threads) {
    double fastest = 1e9;
    for (int pass = 0; pass < 10; pass++) {
        pthread_t ids[2];
        double t0 = now();
        for (long k = 0; k < threads; k++) pthread_create(&ids[k], 0, part, (void *)((k << 8) | threads));
        for (int k = 0; k < threads; k++) pthread_join(ids[k], 0);
        double t = now() - t0;
        if (t < fastest) fastest = t;
    }
    return fastest;
}

int main(int argc, char **argv) {
    long megabytes = argc > 1 ? atol(argv[1]) : 64;
    n = megabytes * (1L << 20) / sizeof(float);
    a = malloc(n * sizeof(float)); b = malloc(n * sizeof(float)); c = malloc(n * sizeof(float));
    if (!a || !b || !c) return 1;
    for (long i = 0; i < n; i++) { a[i] = 1; b[i] = 2; c[i] = 0.5f; }
    const char *names[] = {"copy", "triad"};
    double bytes[] = {2.0 * n * sizeof(float), 3.0 * n * sizeof(float)};
    for (kind = 0; kind < 2; kind++) {
        double one = best(1), two = best(2);
        printf("%s %ld MB: 1 thread %.1f GB/s, 2 threads %.1f GB/s, speedup %.2f\n", names[kind], megabytes,
               bytes[kind] / one / 1e9, bytes[kind] / two / 1e9, one / two);
    }
    return 0;
}
