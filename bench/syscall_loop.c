/* Tight loop of a cheap syscall, for bench/syscall: prints ns per call.
 * getppid goes to the kernel every time (no vDSO, no caching in libc), so the
 * loop measures syscall entry/exit plus whatever the seccomp filter adds. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 5000000;
    if (n <= 0) {
        fprintf(stderr, "usage: syscall_loop N\n");
        return 2;
    }
    /* Warm up caches and the branch predictor before timing. */
    for (long i = 0; i < n / 10; i++) syscall(SYS_getppid);
    long long t0 = now_ns();
    for (long i = 0; i < n; i++) syscall(SYS_getppid);
    long long t1 = now_ns();
    printf("%.3f\n", (double)(t1 - t0) / (double)n);
    return 0;
}
