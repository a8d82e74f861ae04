#!/bin/bash
# The command cannot change the mode of a file outside its writable paths,
# even one its user owns: chmod 666 on a read-only file the user owns, through
# a symbolic link in the workspace, or through a descriptor opened for
# reading. With a user namespace the read-only mounts refuse it (EROFS).
# Without one (--no-userns) Landlock does not govern modes, so the supervisor
# performs the jail's chmod calls itself, on the object it resolved, and
# refuses (EACCES, journaled as fs.deny) what is not in a writable grant; the
# journal being off does not turn that off. chmod in the workspace and in the
# private /tmp, and fchmod of a pipe, keep working.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

RO=$RUN/ro
mkdir -p "$RO"
mkfile_as_user "$RO/owned" "the user's own file, outside the workspace"
chmod 600 "$RO/owned"
chown "$TEST_UID:$TEST_GID" "$RO"
mkfile_as_user "$WS/mine" "a workspace file"
chmod 644 "$WS/mine"
ln -s "$RO/owned" "$WS/link"
cat >"$WS/modes.py" <<'PY'
import os, sys
target = sys.argv[1]
def t(name, f):
    try:
        f()
        print("OK:" + name)
    except OSError as e:
        print("ERR:%s:%s" % (name, os.strerror(e.errno)))
t("chmod_outside", lambda: os.chmod(target, 0o666))
t("chmod_through_link", lambda: os.chmod("link", 0o666))
t("fchmod_read_fd", lambda: os.fchmod(os.open(target, os.O_RDONLY), 0o666))
t("setxattr_outside", lambda: os.setxattr(target, "user.aj", b"1"))
t("chmod_workspace", lambda: os.chmod("mine", 0o640))
t("fchmod_workspace", lambda: os.fchmod(os.open("mine", os.O_RDONLY), 0o604))
t("chmod_at_dirfd", lambda: os.chmod("mine", 0o600, dir_fd=os.open(".", os.O_RDONLY)))
tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), "x")
open(tmp, "w").close()
t("chmod_tmp", lambda: os.chmod(tmp, 0o700))
t("fchmod_pipe", lambda: os.fchmod(os.pipe()[0], 0o600))
PY
chown "$TEST_UID:$TEST_GID" "$WS/modes.py"

capture as_user /usr/bin/python3 "$WS/modes.py" "$RO/owned"
check_capture "control: without the jail, $TEST_USER changes its own file's mode" \
  out_has_line OK:chmod_outside
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
  for c in chmod_outside chmod_through_link fchmod_read_fd; do
    check_capture "journal $journal: $c is refused" out_matches "^ERR:$c:"
  done
  [ "$xattr_controlled" = 1 ] &&
    check_capture "journal $journal: setxattr on the file outside is refused" \
      out_matches "^ERR:setxattr_outside:"
  check_capture "journal $journal, host: the file outside kept its mode (600)" \
    [ "$(mode_of "$RO/owned")" = 600 ]
  for c in chmod_workspace fchmod_workspace chmod_at_dirfd chmod_tmp fchmod_pipe; do
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
    out_has_line "FSDENY chmod supervisor (chmod guard) $RO/owned -"
  check_capture "journal: fs.deny for the chmod through the link, with where it leads" \
    out_has_line "FSDENY chmod supervisor (chmod guard) $WS/link $RO/owned"
else
  check_capture "user namespace: the read-only mount refuses it (EROFS)" \
    out_has_line "ERR:chmod_outside:Read-only file system"
fi

finish
