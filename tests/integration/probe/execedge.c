/* execedge: execs /bin/echo with the path and argv laid out at page edges,
 * where the supervisor's page-sized reads of an exec's arguments must fall
 * back to reading the rest on its own:
 *
 *   execedge path-end   the path's NUL is the last byte of a page, and the
 *                       next page is unmapped
 *   execedge argv-end   argv's terminating NULL pointer is the last 8 bytes
 *                       of a page, and the next page is unmapped
 *   execedge split      the path and one argument start a few bytes before
 *                       a page ends and go on into the next page
 *   execedge page-arg   one argument fills a whole page (4096 bytes on
 *                       x86_64), its NUL the first byte of the next: as long
 *                       as the journal keeps an argument, and not cut
 *
 * echo prints "edge-<mode> <argument>" ("split" prints its long argument).
 * Statically linked, so it runs in any filesystem view.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern char** environ;

/* Two pages; the second unmapped when `guard`. Returns the first. */
static char* two_pages(long page, int guard) {
  char* p =
      mmap(NULL, (size_t)(2 * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    perror("mmap");
    exit(2);
  }
  if (guard) munmap(p + page, (size_t)page);
  return p;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: execedge path-end|argv-end|split|page-arg\n");
    return 2;
  }
  const long page = sysconf(_SC_PAGESIZE);
  const char* mode = argv[1];
  static char tag[64];
  snprintf(tag, sizeof tag, "edge-%s", mode);
  char* args[4] = {"echo", tag, "done", NULL};
  const char* path = "/bin/echo";

  if (strcmp(mode, "path-end") == 0) {
    char* p = two_pages(page, 1);
    size_t n = strlen(path) + 1;
    char* at = p + page - n;
    memcpy(at, path, n);
    path = at;
  } else if (strcmp(mode, "argv-end") == 0) {
    char* p = two_pages(page, 1);
    char** at = (char**)(p + page - sizeof args);
    memcpy(at, args, sizeof args);
    execve(path, at, environ);
    perror("execve");
    return 127;
  } else if (strcmp(mode, "split") == 0) {
    char* p = two_pages(page, 0);
    const size_t len = 300;
    char* at = p + page - 3;
    memset(at, 'x', len);
    memcpy(at, "SPL", 3);
    at[len] = '\0';
    args[2] = at;
    char* q = two_pages(page, 0);
    char* path_at = q + page - 4;
    memcpy(path_at, path, strlen(path) + 1);
    path = path_at;
  } else if (strcmp(mode, "page-arg") == 0) {
    char* p = two_pages(page, 0);
    memset(p, 'y', (size_t)page);
    p[page] = '\0';
    args[2] = p;
  } else {
    fprintf(stderr, "execedge: unknown mode '%s'\n", mode);
    return 2;
  }
  execve(path, args, environ);
  perror("execve");
  return 127;
}
