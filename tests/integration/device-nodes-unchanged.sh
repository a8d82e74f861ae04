#!/bin/bash
# The host's device nodes the jail uses (/dev/null, /dev/tty, and the
# terminal bound at /dev/console) keep their mode and times: started by root,
# the jailed command owns them, and a chmod 000 /dev/null inside would break
# the host's. With a user namespace they are read-only binds (writing to the
# device still works; changing the node is EROFS); without one the chmod
# guard refuses them (they are not a writable grant). Every chmod here sets
# the node's current mode, and the touch its current times, so nothing
# changes on the host even when a check fails.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v script >/dev/null || die "script(1) (util-linux) is needed"

mode_of() { stat -L -c %a "$1"; }
null_mode=$(mode_of /dev/null)
tty_mode=$(mode_of /dev/tty)
null_mtime=$(stat -c %Y /dev/null)

probe="chmod $null_mode /dev/null && echo CHMOD_NULL:OK || echo CHMOD_NULL:FAILED
chmod $tty_mode /dev/tty && echo CHMOD_TTY:OK || echo CHMOD_TTY:FAILED
echo x > /dev/null && echo WRITE_NULL:OK || echo WRITE_NULL:FAILED"

capture as_user sh -c "$probe"
if out_has_line CHMOD_NULL:OK; then
  pass "control: $TEST_USER may change /dev/null's mode on the host (it owns it)"
else
  note "$TEST_USER does not own /dev/null: the kernel refuses its chmod anyway"
fi

capture jail -- sh -c "$probe"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: chmod of /dev/null is refused" out_has_line CHMOD_NULL:FAILED
check_capture "inside: chmod of /dev/tty is refused" out_has_line CHMOD_TTY:FAILED
check_capture "inside: writing to /dev/null works" out_has_line WRITE_NULL:OK
if [ "$AJ_TEST_MODE" = userns ]; then
  # Its own times again (-r itself): the call is made, nothing would change.
  capture jail -- sh -c 'touch -c -r /dev/null /dev/null 2>&1; echo RC:$?'
  check_capture "inside: the times of /dev/null cannot be changed (read-only mount)" \
    eval 'out_lacks RC:0 && out_has "Read-only file system"'
  check "host: /dev/null kept its times" [ "$(stat -c %Y /dev/null)" = "$null_mtime" ]

  # The terminal, bound at /dev/console: a pty the test user owns.
  OUT=$(as_user script -qec "sh -c 'm=\$(stat -L -c %a \$(tty)); $AJ --profile-dir $PROFILES -- sh -c \"chmod \$m /dev/console && echo CHMOD_CONSOLE:OK || echo CHMOD_CONSOLE:FAILED\"'" /dev/null </dev/null | tr -d '\r' | sed 's/^\^@//')
  ERR="" RC=0
  check_capture "inside, in a terminal: chmod of /dev/console (the caller's pty) is refused" \
    out_has_line CHMOD_CONSOLE:FAILED
fi
check "host: /dev/null kept its mode" [ "$(mode_of /dev/null)" = "$null_mode" ]

finish
