// The machine's share for pure CPU work right now: the same busy loop on one thread, then on
// two threads at once (twice the work). Prints the speed-up; 2.0 means both cores were ours.
// Used by perf_bench.py beside the all-cores figures (the machine is shared).
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static volatile long sink;

static void *work(void *argument) {
    long n = (long)argument, sum = 0;
    for (long i = 0; i < n; i++) sum += (i * i) ^ (i >> 3);
    sink = sum;
    return 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
    long n = 200000000;
    double t0 = now();
    work((void *)n);
    double t1 = now();
    pthread_t a, b;
    pthread_create(&a, 0, work, (void *)n);
    pthread_create(&b, 0, work, (void *)n);
    pthread_join(a, 0);
    pthread_join(b, 0);
    double t2 = now();
    printf("one thread %.3f s, two threads (twice the work) %.3f s, speedup %.2f\n", t1 - t0, t2 - t1, 2 * (t1 - t0) / (t2 - t1));
    return 0;
}
