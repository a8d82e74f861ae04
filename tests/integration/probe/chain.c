// chain DEPTH READY MARKER: a chain of DEPTH processes, each the child of the
// one before, all pausing (MARKER is only there for the host to find them by
// their command line). The last one creates READY. Used to show that a
// session's deepest descendants die with it.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  int depth = atoi(argv[1]);
  for (int level = 1; level < depth; ++level) {
    pid_t pid = fork();
    if (pid < 0) break;  // a limit: the chain ends here
    if (pid > 0) {
      for (;;) pause();
    }
  }
  int fd = open(argv[2], O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd >= 0) close(fd);
  for (;;) pause();
}
