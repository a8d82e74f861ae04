#!/bin/bash
# Every way of starting a program is journaled, not only execve of a path:
# fexecve (execveat with AT_EMPTY_PATH) of an opened file and of a memfd,
# execveat relative to a directory descriptor, and execve of /proc/self/fd/N
# and /dev/fd/N (paths the supervisor cannot look up from outside: "self"
# names the looker), and execve of a relative path from a working directory
# that was removed ("../echo"; its path ends in " (deleted)"). Each exec runs
# echo with a marker; each must appear as an exec event with that argv and a
# path that says what ran.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

J=$RUN/j.jsonl
mkfile_as_user "$WS/execs.py" 'import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
mode, mark = sys.argv[1], sys.argv[2]
if mode == "fexecve":
    os.execve(os.open("/usr/bin/echo", os.O_RDONLY), ["echo", mark], {})
elif mode == "memfd":
    fd = os.memfd_create("hidden-tool", 0)
    os.write(fd, open("/usr/bin/echo", "rb").read())
    os.execve(fd, ["echo", mark], {})
elif mode == "dirfd":
    argv = (ctypes.c_char_p * 3)(b"echo", mark.encode(), None)
    envp = (ctypes.c_char_p * 1)(None)
    d = os.open("/usr/bin", os.O_RDONLY | os.O_DIRECTORY)
    libc.syscall(322, d, b"echo", argv, envp, 0)  # execveat(d, "echo", argv, envp, 0)
elif mode == "deletedcwd":
    import shutil
    shutil.copy("/usr/bin/echo", "echo-copy")
    os.mkdir("gone")
    os.chdir("gone")
    os.rmdir("../gone")
    os.execv("../echo-copy", ["echo", mark])
else:
    fd = os.open("/usr/bin/echo", os.O_RDONLY)
    os.execve(("/proc/self/fd/%d" if mode == "procself" else "/dev/fd/%d") % fd, ["echo", mark], {})
print("EXEC-FAILED", mode, ctypes.get_errno())'
modes="fexecve memfd dirfd procself devfd deletedcwd"

capture jail --journal "$J" -- sh -c 'for m in '"$modes"'; do python3 execs.py "$m" "MARK-$m"; done'
check_capture "the jailed command ran (exit 0)" rc_is 0
for m in $modes; do
  check_capture "inside: echo ran by $m" out_has_line "MARK-$m"
done

# "MARK PATH" for each exec event of echo.
OUT=$(python3 - "$J" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    argv = e.get("argv") or []
    if e.get("event") == "exec" and len(argv) == 2 and argv[0] == "echo":
        print(argv[1], e.get("path"))
PY
) ERR="" RC=0
check_capture "journal: fexecve of /usr/bin/echo, as that file" out_has_line "MARK-fexecve /usr/bin/echo"
check_capture "journal: fexecve of a memfd, named as one" \
  out_has_line "MARK-memfd /memfd:hidden-tool (deleted)"
check_capture "journal: execveat(/usr/bin descriptor, \"echo\"), as /usr/bin/echo" \
  out_has_line "MARK-dirfd /usr/bin/echo"
check_capture "journal: execve of /proc/self/fd/N" out_matches "^MARK-procself /proc/self/fd/[0-9]+$"
check_capture "journal: execve of /dev/fd/N" out_matches "^MARK-devfd /dev/fd/[0-9]+$"
check_capture "journal: execve of ../echo-copy from a removed working directory" \
  out_has_line "MARK-deletedcwd ../echo-copy"

finish
