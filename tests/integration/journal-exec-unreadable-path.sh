#!/bin/bash
# A path the kernel can read but the supervisor cannot: bytes in the vvar page
# (time data the vDSO reads; process_vm_readv refuses such pages) spell a
# short name, and a file of that name in the working directory is executed
# through a pointer into the page. Without the jail it runs (control); in the
# jail the supervisor cannot see what would run, so the exec is refused with
# EFAULT and journaled as syscall.deny. With --trace, an open through such a
# pointer is refused the same way. Likewise an argument kept in memfd_secret
# memory (which only its own process can read): echo would get it while the
# journal showed an empty string, so that exec is refused too. A process that
# made itself non-dumpable is readable by the supervisor when it owns the
# jail's user namespace (or is root), and its exec is journaled; with
# --no-userns as an ordinary user it is not, and its exec is refused.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

mkfile_as_user "$WS/vvar.py" 'import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
maps = [l for l in open("/proc/self/maps") if l.rstrip().endswith("[vvar]")]
if not maps:
    print("NO-VVAR"); sys.exit(0)
lo, hi = (int(x, 16) for x in maps[0].split()[0].split("-"))
page = lambda: ctypes.string_at(lo, min(hi - lo, 4096))
a = page(); time.sleep(0.05); b = page()
at, name = None, None
i = 0
while i < len(a) and at is None:  # a short run of bytes that stays put, then NUL
    if a[i] and (i == 0 or not a[i - 1]):
        j = a.index(0, i) if 0 in a[i:] else len(a)
        if 0 < j - i <= 8 and a[i:j + 1] == b[i:j + 1] and b"/" not in a[i:j] and a[i:j] not in (b".", b".."):
            at, name = lo + i, a[i:j]
        i = j
    i += 1
if at is None:
    print("NO-NAME"); sys.exit(0)
with open(name, "wb") as f:
    f.write(open("/usr/bin/echo", "rb").read())
os.chmod(name, 0o755)
sys.stdout.flush()
if sys.argv[1] == "open":
    fd = libc.syscall(257, -100, ctypes.c_void_p(at), os.O_RDONLY)  # openat(AT_FDCWD, ...)
    print("OPEN-FD" if fd >= 0 else "OPEN-ERR:%d" % ctypes.get_errno())
else:
    argv = (ctypes.c_char_p * 3)(b"echo", b"VVAR-RAN", None)
    libc.syscall(59, ctypes.c_void_p(at), argv, (ctypes.c_char_p * 1)(None))
    print("EXEC-ERR:%d" % ctypes.get_errno())
os.unlink(name)'

capture as_user sh -c 'cd "$1" && python3 vvar.py exec' sh "$WS"
if [ "$OUT" = NO-VVAR ] || [ "$OUT" = NO-NAME ]; then
  skip "this kernel's vvar page offers no usable name ($OUT)"
fi
check_capture "control: without the jail, the file named by the vvar bytes runs" out_has_line "VVAR-RAN"

# "EVENT SYSCALL|ERROR|ARGS" for exec and syscall.deny events.
events() {
  python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "syscall.deny":
        print("DENY %s|%s|%s" % (e.get("syscall"), e.get("error"), e.get("args")))
    elif e.get("event") == "exec":
        print("EXEC %s" % " ".join(e.get("argv") or []))
PY
}

capture jail --journal "$RUN/exec.jsonl" -- python3 vvar.py exec
check_capture "jail: the exec through the vvar page fails with EFAULT (14)" out_has_line "EXEC-ERR:14"
check_capture "jail: the file did not run" out_lacks "VVAR-RAN"
OUT=$(events "$RUN/exec.jsonl") ERR="" RC=0
check_capture "journal: syscall.deny for execve, EFAULT, path unreadable by the supervisor" \
  out_matches "^DENY execve\|EFAULT\|path at 0x[0-9a-f]+ unreadable by the supervisor$"
check_capture "journal: no exec event for it" out_lacks "VVAR-RAN"

capture jail --journal "$RUN/open.jsonl" --trace -- python3 vvar.py open
check_capture "--trace: an open through the vvar page fails with EFAULT (14)" out_has_line "OPEN-ERR:14"
OUT=$(events "$RUN/open.jsonl") ERR="" RC=0
check_capture "--trace: journal has syscall.deny for openat, EFAULT" \
  out_matches "^DENY openat\|EFAULT\|path at 0x[0-9a-f]+ unreadable by the supervisor$"

mkfile_as_user "$WS/secret.py" 'import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
fd = libc.syscall(447, 0)  # memfd_secret
if fd < 0:
    print("NO-SECRETMEM:%d" % ctypes.get_errno()); sys.exit(0)
os.ftruncate(fd, 4096)
p = libc.mmap(None, 4096, 3, 1, fd, 0)  # read and write, shared
if p is None or p == ctypes.c_void_p(-1).value:
    print("NO-SECRETMEM:mmap"); sys.exit(0)
ctypes.memmove(p, b"SECRET-ARG\0", 11)
argv = (ctypes.c_void_p * 3)(ctypes.cast(ctypes.c_char_p(b"echo"), ctypes.c_void_p).value, p, None)
sys.stdout.flush()
libc.syscall(59, b"/bin/echo", argv, (ctypes.c_char_p * 1)(None))
print("EXEC-ERR:%d" % ctypes.get_errno())'
capture as_user sh -c 'cd "$1" && python3 secret.py' sh "$WS"
secret_control=$OUT
capture jail --journal "$RUN/secret.jsonl" -- python3 secret.py
if printf '%s\n%s\n' "$secret_control" "$OUT" | grep -q "^NO-SECRETMEM"; then
  printf '# memfd_secret is not available here (%s): that case is not checked\n' "$OUT"
else
  check "control: without the jail, echo gets the secret argument" \
    sh -c 'printf "%s\n" "$1" | grep -qx SECRET-ARG' sh "$secret_control"
  check_capture "memfd_secret: the exec with a secret argument fails with EFAULT (14)" \
    out_has_line "EXEC-ERR:14"
  check_capture "memfd_secret: echo did not run" out_lacks "SECRET-ARG"
  OUT=$(events "$RUN/secret.jsonl") ERR="" RC=0
  check_capture "memfd_secret: journal has syscall.deny for execve, argv unreadable" \
    out_matches "^DENY execve\|EFAULT\|argv at 0x[0-9a-f]+ unreadable by the supervisor$"
  check_capture "memfd_secret: no exec event shows echo" out_lacks "EXEC echo"
fi

capture jail --journal "$RUN/nodump.jsonl" -- python3 -c 'import ctypes, os
ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
try:
    os.execv("/bin/echo", ["echo", "NODUMP-RAN"])
except OSError as e:
    print("EXEC-ERR:%d" % e.errno)'
nodump_out=$OUT
OUT=$(events "$RUN/nodump.jsonl") ERR="" RC=0
if [ "$AJ_TEST_MODE" = nouserns ] && [ "$TEST_UID" -ne 0 ]; then
  OUT=$nodump_out
  check_capture "non-dumpable, --no-userns as $TEST_USER: the exec is refused with EFAULT" \
    out_has_line "EXEC-ERR:14"
  OUT=$(events "$RUN/nodump.jsonl") ERR="" RC=0
  check_capture "non-dumpable: journal has syscall.deny for execve, path unreadable" \
    out_matches "^DENY execve\|EFAULT\|path at 0x[0-9a-f]+ unreadable by the supervisor$"
else
  check_capture "non-dumpable, mode $AJ_TEST_MODE as $TEST_USER: the exec is journaled" \
    out_has_line "EXEC echo NODUMP-RAN"
  OUT=$nodump_out
  check_capture "non-dumpable: echo ran" out_has_line "NODUMP-RAN"
fi

finish
