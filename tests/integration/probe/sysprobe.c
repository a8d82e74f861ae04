/* sysprobe: try kernel operations a jailed command must not be able to do, and
 * report each as one line the integration tests grep:
 *
 *   OK:<check>              the kernel did it (or got past its permission checks)
 *   ERR:<check>:<ERRNO>     it failed with that errno
 *   KILLED:<check>:<SIG>    the process trying it was killed (a forked child)
 *
 * Every operation is harmless when it succeeds: it touches only the probe's
 * own process, a forked child, a target process the test started for the
 * purpose, the process group the test made for it (killgroup), or a
 * directory the test names. Statically linked, so it runs in
 * any filesystem view.
 *
 * Usage: sysprobe CHECK...   (see the table in main)
 *        sysprobe target      (a ptrace/kill target: prints its pid, pauses)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/openat2.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* Read by process_vm_readv from another sysprobe: the binary is static and not
 * position independent, so the address is the same in every copy. */
volatile uint64_t g_marker = 0x616a2d70726f6265ULL; /* "aj-probe" */

static const char* errname(int e) {
  switch (e) {
    case EPERM: return "EPERM";
    case ENOENT: return "ENOENT";
    case ESRCH: return "ESRCH";
    case EINTR: return "EINTR";
    case EIO: return "EIO";
    case EBADF: return "EBADF";
    case EAGAIN: return "EAGAIN";
    case ENOMEM: return "ENOMEM";
    case EACCES: return "EACCES";
    case EFAULT: return "EFAULT";
    case EBUSY: return "EBUSY";
    case EINVAL: return "EINVAL";
    case ENOTTY: return "ENOTTY";
    case ENOSPC: return "ENOSPC";
    case EROFS: return "EROFS";
    case ENOSYS: return "ENOSYS";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    case EAFNOSUPPORT: return "EAFNOSUPPORT";
    case ECONNREFUSED: return "ECONNREFUSED";
    case ENETUNREACH: return "ENETUNREACH";
    case ENOKEY: return "ENOKEY";
    case EUSERS: return "EUSERS";
    case ESTALE: return "ESTALE";
    default: {
      static char buf[16];
      snprintf(buf, sizeof buf, "E%d", e);
      return buf;
    }
  }
}

/* rc < 0: errno holds the error. */
static void report(const char* check, long rc) {
  if (rc < 0)
    printf("ERR:%s:%s\n", check, errname(errno));
  else
    printf("OK:%s\n", check);
  fflush(stdout);
}

/* Runs fn in a forked child; reports its outcome: the child exits with 0 for
 * OK, 1..255 for an errno, or dies of a signal. Keeps the probe itself intact
 * (namespaces joined, signals taken). */
static void in_child(const char* check, int (*fn)(const char* arg), const char* arg) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    report(check, -1);
    return;
  }
  if (pid == 0) {
    int e = fn(arg);
    _exit(e);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    const char* sig = sigabbrev_np(WTERMSIG(status));
    printf("KILLED:%s:SIG%s\n", check, sig ? sig : "?");
  } else if (WEXITSTATUS(status) == 0) {
    printf("OK:%s\n", check);
  } else {
    printf("ERR:%s:%s\n", check, errname(WEXITSTATUS(status)));
  }
  fflush(stdout);
}

static int ret_errno(long rc) { return rc < 0 ? (errno ? errno : 255) : 0; }

static int do_userns(const char* arg) {
  (void)arg;
  return ret_errno(unshare(CLONE_NEWUSER));
}
static int do_unshare_mnt(const char* arg) {
  (void)arg;
  return ret_errno(unshare(CLONE_NEWNS));
}
static int do_clone_newuser(const char* arg) {
  (void)arg;
  long pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
  if (pid == 0) syscall(SYS_exit, 0);
  if (pid < 0) return errno;
  waitpid((pid_t)pid, NULL, 0);
  return 0;
}
static int do_clone3(const char* arg) {
  (void)arg;
  struct clone_args ca;
  memset(&ca, 0, sizeof ca);
  ca.exit_signal = SIGCHLD;
  long pid = syscall(SYS_clone3, &ca, sizeof ca);
  if (pid == 0) syscall(SYS_exit, 0);
  if (pid < 0) return errno;
  waitpid((pid_t)pid, NULL, 0);
  return 0;
}
/* i386 getpid through int 0x80: a syscall of another architecture. */
static int do_int80(const char* arg) {
  (void)arg;
  long ret = 20; /* __NR_getpid on i386 */
  __asm__ volatile("int $0x80" : "+a"(ret) : : "memory");
  return ret > 0 ? 0 : (int)(-ret);
}

static void check_keyctl(void) {
  report("keyctl", syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 1));
}

static void check_bpf(void) {
  struct bpf_insn prog[] = {
      {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
      {.code = BPF_JMP | BPF_EXIT},
  };
  union bpf_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
  attr.insns = (uint64_t)(uintptr_t)prog;
  attr.insn_cnt = 2;
  attr.license = (uint64_t)(uintptr_t)"GPL";
  long fd = syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof attr);
  report("bpf", fd);
  if (fd >= 0) close((int)fd);
}

static void check_perf(void) {
  struct perf_event_attr pe;
  memset(&pe, 0, sizeof pe);
  pe.type = PERF_TYPE_SOFTWARE;
  pe.size = sizeof pe;
  pe.config = PERF_COUNT_SW_TASK_CLOCK;
  pe.disabled = 1;
  pe.exclude_kernel = 1;
  pe.exclude_hv = 1;
  long fd = syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0);
  report("perf", fd);
  if (fd >= 0) close((int)fd);
}

static void check_io_uring(void) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  long fd = syscall(SYS_io_uring_setup, 4, &p);
  report("io_uring", fd);
  if (fd >= 0) close((int)fd);
}

/* mount:DIR mounts a 4 KiB tmpfs on DIR and unmounts it again. */
static void check_mount(const char* dir) {
  long rc = mount("aj-probe", dir, "tmpfs", 0, "size=4k");
  report("mount", rc);
  if (rc == 0) umount2(dir, MNT_DETACH);
}

static void check_fsopen(void) {
  long fd = syscall(SYS_fsopen, "tmpfs", 1 /* FSOPEN_CLOEXEC */);
  report("fsopen", fd);
  if (fd >= 0) close((int)fd);
}

static void check_handles(void) {
  struct {
    struct file_handle fh;
    unsigned char bytes[128];
  } h;
  h.fh.handle_bytes = sizeof h.bytes;
  int mount_id = 0;
  long rc = syscall(SYS_name_to_handle_at, AT_FDCWD, "/", &h.fh, &mount_id, 0);
  report("name_to_handle_at", rc);
  int root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (rc < 0) {
    /* Still try the dangerous half with a made-up handle: the permission
     * check comes before the handle is decoded. */
    memset(&h, 0, sizeof h);
    h.fh.handle_bytes = 8;
    h.fh.handle_type = 1;
  }
  long fd = syscall(SYS_open_by_handle_at, root, &h.fh, O_RDONLY | O_CLOEXEC);
  if (fd < 0 && rc < 0 && errno == ESTALE) {
    printf("OK:open_by_handle_at\n"); /* got past the permission check */
  } else {
    report("open_by_handle_at", fd);
  }
  if (fd >= 0) close((int)fd);
  if (root >= 0) close(root);
}

/* ptrace:PID attaches to PID, waits for the stop, detaches. */
static void check_ptrace(const char* pidstr) {
  pid_t pid = (pid_t)atoi(pidstr);
  long rc = ptrace(PTRACE_ATTACH, pid, 0, 0);
  report("ptrace", rc);
  if (rc == 0) {
    waitpid(pid, NULL, __WALL);
    ptrace(PTRACE_DETACH, pid, 0, 0);
  }
}

/* vmread:PID reads g_marker out of another sysprobe's memory. */
static void check_vmread(const char* pidstr) {
  uint64_t value = 0;
  struct iovec local = {&value, sizeof value};
  struct iovec remote = {(void*)&g_marker, sizeof value};
  long n = process_vm_readv((pid_t)atoi(pidstr), &local, 1, &remote, 1, 0);
  report("process_vm_readv", n);
}

/* kill:PID sends signal 0 and SIGUSR1 (the target ignores it). */
static void check_kill(const char* pidstr) {
  pid_t pid = (pid_t)atoi(pidstr);
  report("kill0", kill(pid, 0));
  report("killusr1", kill(pid, SIGUSR1));
}

/* killgroup: kill(0, SIGUSR1), which signals the caller's process group (this
 * probe ignores SIGUSR1; the test's caller traps it), once plainly and once
 * with high bits set in the pid (the kernel reads an int, so a filter must
 * too); then kill(-1, 0), every process the probe may signal, with signal 0
 * so that nothing is hurt if it is not refused. */
static void check_killgroup(void) {
  signal(SIGUSR1, SIG_IGN);
  report("killgroup", kill(0, SIGUSR1));
  report("killgroup_high", syscall(SYS_kill, 0x100000000L, SIGUSR1));
  report("killall0", kill(-1, 0));
}

/* TIOCSTI on stdin, plainly and with high bits set in the request (the
 * kernel truncates the request to 32 bits, so a filter must too). Pushes a
 * space into the terminal's input. */
static void check_tiocsti(void) {
  char c = ' ';
  if (!isatty(0)) {
    printf("ERR:tiocsti:NOTTY\nERR:tiocsti_hibits:NOTTY\n");
    return;
  }
  report("tiocsti", syscall(SYS_ioctl, 0, (unsigned long)TIOCSTI, &c));
  report("tiocsti_hibits", syscall(SYS_ioctl, 0, (unsigned long)TIOCSTI | 0x100000000UL, &c));
}

static void check_socket(const char* name, int family, int type) {
  int fd = socket(family, type | SOCK_CLOEXEC, 0);
  report(name, fd);
  if (fd >= 0) close(fd);
}

/* forkbomb:N forks up to N children that wait; prints "FORKS:<count>" and,
 * when it stopped early, the errno; then kills and reaps them all. */
static void check_forkbomb(const char* nstr) {
  int n = atoi(nstr);
  pid_t* kids = calloc((size_t)n, sizeof *kids);
  int count = 0, err = 0;
  while (kids && count < n) {
    pid_t pid = fork();
    if (pid < 0) {
      err = errno;
      break;
    }
    if (pid == 0) {
      for (;;) pause();
    }
    kids[count++] = pid;
  }
  if (err)
    printf("FORKS:%d:%s\n", count, errname(err));
  else
    printf("FORKS:%d\n", count);
  fflush(stdout);
  for (int i = 0; i < count; ++i) kill(kids[i], SIGKILL);
  for (int i = 0; i < count; ++i) waitpid(kids[i], NULL, 0);
  free(kids);
}

/* hog:MB allocates and touches MB mebibytes in 16 MiB steps, printing
 * "HOG:<mb so far>" after each step and "HOG:DONE" or "HOG:FAILED:<errno>". */
static void check_hog(const char* mbstr) {
  long target = atol(mbstr);
  const size_t step = 16u << 20;
  for (long mb = 0; mb < target; mb += 16) {
    char* p = malloc(step);
    if (!p) {
      printf("HOG:FAILED:%s\n", errname(errno));
      return;
    }
    memset(p, 0x5a, step);
    printf("HOG:%ld\n", mb + 16);
    fflush(stdout);
  }
  printf("HOG:DONE\n");
}

/* Reports a set-ID attempt on PATH: ERR with the errno when the call failed;
 * OK when it worked and PATH now has the bit; NOBIT when it worked but the
 * kernel left the bit off. */
static void report_setid(const char* check, long rc, const char* path, mode_t bit) {
  struct stat st;
  if (rc < 0) {
    report(check, rc);
  } else if (stat(path, &st) == 0 && (st.st_mode & bit)) {
    printf("OK:%s\n", check);
  } else {
    printf("NOBIT:%s\n", check);
  }
  fflush(stdout);
}

/* setid:DIR tries every way to leave a set-user-ID or set-group-ID file in
 * DIR (chmod and its relatives, a mode given when creating, an O_TMPFILE
 * linked in, mknod, openat2), plus what must keep working (chmod 0755, a
 * plain create, a sticky directory). Files are named after the checks. */
static void check_setid(const char* dir) {
  char f[4096], g[4096];
  umask(022);
  int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) {
    report("setid_dir", -1);
    return;
  }
  snprintf(f, sizeof f, "%s/setid-target", dir);
  int fd = open(f, O_CREAT | O_WRONLY | O_CLOEXEC, 0700);
  report("setid_create", fd);
  report_setid("chmod_suid", chmod(f, 04755), f, S_ISUID);
  report_setid("chmod_sgid", chmod(f, 02755), f, S_ISGID);
  report_setid("chmod_suid_hibits", syscall(SYS_chmod, f, 04755UL | (1UL << 32)), f, S_ISUID);
  report_setid("fchmod_suid", fchmod(fd, 04755), f, S_ISUID);
  report_setid("fchmodat_suid", fchmodat(dfd, "setid-target", 04755, 0), f, S_ISUID);
  report_setid("fchmodat2_suid", syscall(452, dfd, "setid-target", 04755, 0), f, S_ISUID);
  report("chmod_plain", chmod(f, 0755));
  if (fd >= 0) close(fd);

  snprintf(g, sizeof g, "%s/setid-open", dir);
  fd = (int)syscall(SYS_open, g, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 04755);
  report_setid("open_creat_suid", fd, g, S_ISUID);
  if (fd >= 0) close(fd);
  snprintf(g, sizeof g, "%s/setid-openat", dir);
  fd = openat(dfd, "setid-openat", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 02755);
  report_setid("openat_creat_sgid", fd, g, S_ISGID);
  if (fd >= 0) close(fd);
  snprintf(g, sizeof g, "%s/setid-creat", dir);
  fd = (int)syscall(SYS_creat, g, 04755);
  report_setid("creat_suid", fd, g, S_ISUID);
  if (fd >= 0) close(fd);
  snprintf(g, sizeof g, "%s/setid-tmpfile", dir);
  fd = openat(dfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 04755);
  if (fd >= 0) {
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    long rc = linkat(AT_FDCWD, self, dfd, "setid-tmpfile", AT_SYMLINK_FOLLOW);
    report_setid("tmpfile_suid", rc, g, S_ISUID);
    close(fd);
  } else {
    report("tmpfile_suid", fd);
  }
  snprintf(g, sizeof g, "%s/setid-mknod", dir);
  report_setid("mknod_suid", mknod(g, S_IFREG | 04755, 0), g, S_ISUID);
  snprintf(g, sizeof g, "%s/setid-openat2", dir);
  struct open_how how = {.flags = O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, .mode = 04755};
  fd = (int)syscall(SYS_openat2, dfd, "setid-openat2", &how, sizeof how);
  report_setid("openat2_creat_suid", fd, g, S_ISUID);
  if (fd >= 0) close(fd);

  snprintf(g, sizeof g, "%s/setid-plain", dir);
  fd = open(g, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
  report("open_creat_plain", fd);
  if (fd >= 0) close(fd);
  snprintf(g, sizeof g, "%s/setid-sticky", dir);
  report("mkdir_plain", mkdir(g, 0755));
  report("chmod_sticky", chmod(g, 01777));
  close(dfd);
}

__attribute__((noreturn)) static void run_target(void) {
  /* Let any same-user process trace us (Yama), ignore SIGUSR1, wait. */
  prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
  signal(SIGUSR1, SIG_IGN);
  printf("%d\n", (int)getpid());
  fflush(stdout);
  for (;;) pause();
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "target") == 0) run_target();
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* colon = strchr(a, ':');
    const char* arg = colon ? colon + 1 : "";
    size_t len = colon ? (size_t)(colon - a) : strlen(a);
#define IS(name) (len == strlen(name) && strncmp(a, name, len) == 0)
    if (IS("keyctl")) check_keyctl();
    else if (IS("bpf")) check_bpf();
    else if (IS("perf")) check_perf();
    else if (IS("io_uring")) check_io_uring();
    else if (IS("mount")) check_mount(arg);
    else if (IS("fsopen")) check_fsopen();
    else if (IS("handles")) check_handles();
    else if (IS("userns")) in_child("userns", do_userns, arg);
    else if (IS("clone_newuser")) in_child("clone_newuser", do_clone_newuser, arg);
    else if (IS("unshare_mnt")) in_child("unshare_mnt", do_unshare_mnt, arg);
    else if (IS("clone3")) in_child("clone3", do_clone3, arg);
    else if (IS("int80")) in_child("int80", do_int80, arg);
    else if (IS("ptrace")) check_ptrace(arg);
    else if (IS("vmread")) check_vmread(arg);
    else if (IS("kill")) check_kill(arg);
    else if (IS("killgroup")) check_killgroup();
    else if (IS("tiocsti")) check_tiocsti();
    else if (IS("setid")) check_setid(arg);
    else if (IS("forkbomb")) check_forkbomb(arg);
    else if (IS("hog")) check_hog(arg);
    else if (IS("af_packet")) check_socket("af_packet", AF_PACKET, SOCK_RAW);
    else if (IS("af_inet")) check_socket("af_inet", AF_INET, SOCK_STREAM);
    else if (IS("af_unix")) check_socket("af_unix", AF_UNIX, SOCK_STREAM);
    else {
      fprintf(stderr, "sysprobe: unknown check '%s'\n", a);
      return 2;
    }
#undef IS
  }
  return 0;
}
