#!/bin/bash
# The command cannot change inode flags (chattr's: no-dump, no-atime, ...) or
# other attributes Landlock does not govern, of a file outside the writable
# paths (without user namespaces, a file opened read-only is enough: the
# owner needs no write access) or of a file its output is redirected to:
# FS_IOC_SETFLAGS, FS_IOC_FSSETXATTR and file_setattr(2) are refused. Reading
# the flags still works.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"
install_probe tryop.py >/dev/null

OUTSIDE=$RUN/outside
mkfile_as_user "$OUTSIDE/victim" "a file of yours outside the workspace"
cat >"$WS/flags.py" <<'PY'
import ctypes, fcntl, os, struct, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".probe"))
from tryop import t
FS_IOC_GETFLAGS, FS_IOC_SETFLAGS = 0x80086601, 0x40086602
FS_IOC_FSGETXATTR, FS_IOC_FSSETXATTR = 0x801c581f, 0x401c5820
FS_NODUMP_FL = 0x40
target = sys.argv[1]
def getflags(fd):
    return struct.unpack("l", fcntl.ioctl(fd, FS_IOC_GETFLAGS, b"\0" * 8))[0]
def setflags(fd):
    fcntl.ioctl(fd, FS_IOC_SETFLAGS, struct.pack("l", getflags(fd) | FS_NODUMP_FL))
def fssetxattr(fd):
    attr = fcntl.ioctl(fd, FS_IOC_FSGETXATTR, b"\0" * 28)
    xflags = struct.unpack_from("I", attr)[0] | 0x80000  # FS_XFLAG_NODUMP
    fcntl.ioctl(fd, FS_IOC_FSSETXATTR, struct.pack("I", xflags) + attr[4:])
def file_setattr():
    libc = ctypes.CDLL(None, use_errno=True)
    attr = ctypes.create_string_buffer(struct.pack("QQIII", 0x80000, 0, 0, 0, 0), 32)
    if libc.syscall(469, -100, target.encode(), attr, 24, 0) < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
fd = os.open(target, os.O_RDONLY)
t("getflags", lambda: getflags(fd))
t("setflags_outside", lambda: setflags(fd))
t("fssetxattr_outside", lambda: fssetxattr(fd))
t("file_setattr_outside", file_setattr)
if len(sys.argv) > 2:  # stdout is redirected to a host file
    t("setflags_stdout", lambda: setflags(1), out=sys.stderr)
PY
chown "$TEST_UID:$TEST_GID" "$WS/flags.py"
flags() { python3 -c 'import fcntl,struct,sys,os
print(struct.unpack("l", fcntl.ioctl(os.open(sys.argv[1], os.O_RDONLY), 0x80086601, b"\0"*8))[0])' "$1"; }

# Control: the owner may set the flag without the jail (and it is put back).
cp -p "$OUTSIDE/victim" "$OUTSIDE/control"
capture as_user python3 "$WS/flags.py" "$OUTSIDE/control"
check_capture "control: FS_IOC_SETFLAGS works on a read-only descriptor without the jail" \
  out_has_line OK:setflags_outside
[ "$(flags "$OUTSIDE/control")" != "$(flags "$OUTSIDE/victim")" ] ||
  fail "control: the flag did not change"
before=$(flags "$OUTSIDE/victim")
mkdir -p "$RUN/j" && : >"$RUN/out.log" && chown "$TEST_UID:$TEST_GID" "$RUN/out.log" "$RUN/j"
out_before=$(flags "$RUN/out.log")

jail_argv --ro "$OUTSIDE" --journal "$RUN/j/j.jsonl" -- python3 flags.py "$OUTSIDE/victim" redirected
capture as_user sh -c '"$@" > "$0"' "$RUN/out.log" "${JAIL_ARGV[@]}"
OUT=$(cat "$RUN/out.log")
check_capture "the jailed probe ran (exit 0)" rc_is 0
check_capture "inside: the flags can still be read" out_has_line OK:getflags
check_capture "inside: FS_IOC_SETFLAGS on a file outside is refused" \
  out_has_line "ERR:setflags_outside:Operation not permitted"
check_capture "inside: FS_IOC_FSSETXATTR on a file outside is refused" \
  out_has_line "ERR:fssetxattr_outside:Operation not permitted"
check_capture "inside: file_setattr(2) is refused" \
  out_has_line "ERR:file_setattr_outside:Operation not permitted"
check_capture "inside: FS_IOC_SETFLAGS on the redirected stdout is refused" \
  err_matches "^ERR:setflags_stdout:Operation not permitted"
check "host: the file's flags are unchanged" [ "$(flags "$OUTSIDE/victim")" = "$before" ]
check "host: the redirected file's flags are unchanged" [ "$(flags "$RUN/out.log")" = "$out_before" ]
check "journal: the refusal is recorded with the request decoded" \
  grep -q "FS_IOC_SETFLAGS" "$RUN/j/j.jsonl"

finish
