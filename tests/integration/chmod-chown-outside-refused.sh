#!/bin/bash
# The command cannot change the mode, group or extended attributes of a file
# outside its writable paths, even one its user owns: chmod 666 (and chgrp to
# its own group) on a read-only file the user owns, through a symbolic link in
# the workspace, or through a descriptor opened for reading; nor of what it
# inherits from outside (a file its output is redirected to, the caller's
# terminal), by descriptor or through /dev/stdout. With a user namespace the
# read-only mounts refuse a path (EROFS) and the supervisor, which performs
# the chmod and chown families, refuses what is outside the jail's mounts.
# Without one (--no-userns) Landlock governs neither, and the supervisor
# refuses (EACCES, journaled as fs.deny) what is not in a writable grant; the
# journal being off does not turn that off. Extended attributes cannot be
# changed (EOPNOTSUPP). chmod and chgrp in the workspace and in the private
# /tmp, and fchmod of a pipe, keep working.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
install_probe tryop.py >/dev/null

RO=$RUN/ro
mkdir -p "$RO"
mkfile_as_user "$RO/owned" "the user's own file, outside the workspace"
chmod 600 "$RO/owned"
chown "$TEST_UID:$TEST_GID" "$RO"
mkfile_as_user "$WS/mine" "a workspace file"
chmod 644 "$WS/mine"
ln -s "$RO/owned" "$WS/link"
ln -s "$WS/mine" "$WS/abslink"  # an absolute link inside the workspace
cat >"$WS/modes.py" <<'PY'
import os, sys
sys.path.insert(0, ".probe")
from tryop import t
target = sys.argv[1]
t("chmod_outside", lambda: os.chmod(target, 0o666))
t("chmod_through_link", lambda: os.chmod("link", 0o666))
t("fchmod_read_fd", lambda: os.fchmod(os.open(target, os.O_RDONLY), 0o666))
t("setxattr_outside", lambda: os.setxattr(target, "user.aj", b"1"))
t("chgrp_outside", lambda: os.chown(target, -1, os.getgid()))
t("fchown_read_fd", lambda: os.fchown(os.open(target, os.O_RDONLY), -1, os.getgid()))
t("chgrp_workspace", lambda: os.chown("mine", -1, os.getgid()))
t("chmod_abs_link_workspace", lambda: os.chmod("abslink", 0o600))
t("chmod_workspace", lambda: os.chmod("mine", 0o640))
t("fchmod_workspace", lambda: os.fchmod(os.open("mine", os.O_RDONLY), 0o604))
t("chmod_at_dirfd", lambda: os.chmod("mine", 0o600, dir_fd=os.open(".", os.O_RDONLY)))
tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), "x")
open(tmp, "w").close()
t("chmod_tmp", lambda: os.chmod(tmp, 0o700))
t("fchmod_pipe", lambda: os.fchmod(os.pipe()[0], 0o600))
# A host-wide kernel object in the jail's own /proc, set to the mode it has
# (so that a failing check changes nothing): root owns it, and a root-started
# jail would change it for every /proc on the host.
t("chmod_proc", lambda: os.chmod("/proc/execdomains", os.stat("/proc/execdomains").st_mode & 0o7777))
t("chown_proc", lambda: os.chown("/proc/execdomains", -1, os.stat("/proc/execdomains").st_gid))
# One inode behind every eventfd on the system (the kernel refuses since 2025,
# with EOPNOTSUPP; the guard refuses first, with EACCES, on older ones too).
t("fchmod_eventfd", lambda: os.fchmod(os.eventfd(0), 0o600))
PY
chown "$TEST_UID:$TEST_GID" "$WS/modes.py"

capture as_user /usr/bin/python3 "$WS/modes.py" "$RO/owned"
check_capture "control: without the jail, $TEST_USER changes its own file's mode" \
  out_has_line OK:chmod_outside
check_capture "control: without the jail, $TEST_USER changes its own file's group (to its own)" \
  out_has_line OK:chgrp_outside
xattr_controlled=0
if out_has_line OK:setxattr_outside; then
  pass "control: without the jail, $TEST_USER sets an extended attribute on it"
  xattr_controlled=1
else
  note "this filesystem refuses user extended attributes even without the jail: $(field ERR:setxattr_outside)"
fi
rm -f "$RO/owned" && mkfile_as_user "$RO/owned" "the user's own file, outside the workspace"
chmod 600 "$RO/owned"

mode_of() { stat -c %a "$1"; }
for journal in on off; do
  jargs=(--ro "$RO")
  [ "$journal" = off ] && jargs+=(--journal off)
  capture jail "${jargs[@]}" -- /usr/bin/python3 "$WS/modes.py" "$RO/owned"
  check_capture "journal $journal: the jailed script ran" rc_is 0
  for c in chmod_outside chmod_through_link fchmod_read_fd chgrp_outside fchown_read_fd \
    chmod_proc chown_proc fchmod_eventfd; do
    check_capture "journal $journal: $c is refused" out_matches "^ERR:$c:"
  done
  [ "$xattr_controlled" = 1 ] &&
    check_capture "journal $journal: setxattr on the file outside is refused (EOPNOTSUPP)" \
      out_has_line "ERR:setxattr_outside:Operation not supported"
  check_capture "journal $journal, host: the file outside kept its mode (600)" \
    [ "$(mode_of "$RO/owned")" = 600 ]
  for c in chmod_workspace fchmod_workspace chmod_at_dirfd chmod_tmp fchmod_pipe chgrp_workspace \
    chmod_abs_link_workspace; do
    check_capture "journal $journal: $c works" out_has_line "OK:$c"
  done
  check_capture "journal $journal, host: the workspace file has the mode set inside (600)" \
    [ "$(mode_of "$WS/mine")" = 600 ]
  chmod 644 "$WS/mine"
done

if [ "$AJ_TEST_MODE" = nouserns ]; then
  mkdir -p "$RUN/j" && chown "$TEST_UID:$TEST_GID" "$RUN/j"
  J=$RUN/j/chmod.jsonl  # not beside the read-only grant: a journal's directory is hidden
  capture jail --ro "$RO" --journal "$J" -- /usr/bin/python3 "$WS/modes.py" "$RO/owned"
  check_capture "no user namespace: the refusal is EACCES" \
    out_has_line "ERR:chmod_outside:Permission denied"
  OUT=$(python3 - "$J" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "fs.deny":
        print("FSDENY %s %s %s %s" % (e.get("access"), e.get("layer"), e.get("path"), e.get("leads_to", "-")))
PY
  ) ERR="" RC=0
  check_capture "journal: fs.deny for the chmod outside" \
    out_has_line "FSDENY chmod supervisor (metadata guard) $RO/owned -"
  check_capture "journal: fs.deny for the chmod through the link, with where it leads" \
    out_has_line "FSDENY chmod supervisor (metadata guard) $WS/link $RO/owned"
  check_capture "journal: fs.deny for the chgrp outside" \
    out_has_line "FSDENY chown supervisor (metadata guard) $RO/owned -"
else
  check_capture "user namespace: the read-only mount refuses it (EROFS)" \
    out_has_line "ERR:chmod_outside:Read-only file system"
fi

# Descriptors from outside the jail: a file the command's output is
# redirected to, and the caller's terminal (script(1)); by descriptor and by
# the /dev/stdout and /dev/stdin links. Each chmod sets the current mode, so a
# failing check changes nothing.
redirected=$RUN/redirected.txt
mkfile_as_user "$redirected" ""
chmod 600 "$redirected"
cat >"$WS/stdio.py" <<'PY'
import os, stat, sys
sys.path.insert(0, os.path.join(os.path.dirname(sys.argv[0]), ".probe"))
from tryop import t
fd = int(sys.argv[1])
mode = stat.S_IMODE(os.fstat(fd).st_mode)
t("fchmod_fd%d" % fd, lambda: os.fchmod(fd, mode), sys.stderr)
t("chmod_dev_link%d" % fd, lambda: os.chmod(["/dev/stdin", "/dev/stdout"][fd], mode), sys.stderr)
t("fchown_fd%d" % fd, lambda: os.fchown(fd, -1, os.fstat(fd).st_gid), sys.stderr)
PY
chown "$TEST_UID:$TEST_GID" "$WS/stdio.py"
jail_argv -- /usr/bin/python3 "$WS/stdio.py" 1
capture as_user sh -c '"$@" > "$0"' "$redirected" "${JAIL_ARGV[@]}"
OUT=$ERR
check_capture "a file the output is redirected to: fchmod is refused" out_matches "^ERR:fchmod_fd1:"
check_capture "a file the output is redirected to: chmod /dev/stdout is refused" \
  out_matches "^ERR:chmod_dev_link1:"
check_capture "a file the output is redirected to: fchown is refused" out_matches "^ERR:fchown_fd1:"
check "host: the redirected file kept its mode" [ "$(mode_of "$redirected")" = 600 ]

OUT=$(as_user script -qec "/usr/bin/python3 $WS/stdio.py 0" /dev/null </dev/null 2>&1 | tr -d '\r' | sed 's/^\^@//')
ERR="" RC=0
check_capture "control: without the jail, fchmod of the terminal works" out_has_line OK:fchmod_fd0
jail_argv -q -- /usr/bin/python3 "$WS/stdio.py" 0
OUT=$(as_user script -qec "${JAIL_ARGV[*]}" /dev/null </dev/null 2>&1 | tr -d '\r' | sed 's/^\^@//')
check_capture "the terminal: fchmod is refused" out_matches "^ERR:fchmod_fd0:"
check_capture "the terminal: chmod /dev/stdin is refused" out_matches "^ERR:chmod_dev_link0:"
check_capture "the terminal: fchown is refused" out_matches "^ERR:fchown_fd0:"

finish
