// swapdirs DIR A B SECONDS: exchanges DIR/A and DIR/B (renameat2
// RENAME_EXCHANGE) as fast as it can for SECONDS, as a hostile session
// writing a shared workspace would, to race another jail's start-up. Leaves
// A and B as they were and prints the number of exchanges.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int exchange(int dir, const char* a, const char* b) {
  return (int)syscall(SYS_renameat2, dir, a, dir, b, 2 /* RENAME_EXCHANGE */);
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: swapdirs DIR A B SECONDS\n");
    return 2;
  }
  int dir = open(argv[1], O_PATH | O_DIRECTORY);
  if (dir < 0) {
    perror(argv[1]);
    return 1;
  }
  struct timespec now, end;
  clock_gettime(CLOCK_MONOTONIC, &end);
  end.tv_sec += atoi(argv[4]);
  unsigned long swaps = 0;
  do {
    for (int i = 0; i < 1000; ++i)
      if (exchange(dir, argv[2], argv[3]) == 0) ++swaps;
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while (now.tv_sec < end.tv_sec);
  if (swaps % 2) exchange(dir, argv[2], argv[3]);
  printf("%lu\n", swaps);
  return 0;
}
