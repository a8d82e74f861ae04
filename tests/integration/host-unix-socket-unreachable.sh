#!/bin/bash
# A unix socket listening at a path on the host (the kind the D-Bus session
# bus, docker.sock and ssh-agent use: a way to have commands run outside the
# jail) cannot be reached from inside. With user namespaces its path is not in
# the jail's view; without them nothing hides it and Landlock does not govern
# connect(), so seccomp refuses AF_UNIX sockets altogether (stream socket
# pairs still work; a datagram pair, which could send to any address, does
# not). Control: the same client reaches it without the jail.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

PY=/usr/bin/python3
sock=$RUN/host.sock
start_unix_listener "$sock"
probe=$UNIXSOCK

capture as_user "$PY" "$probe" connect "$sock"
check_capture "control: the host's unix socket answers without the jail" out_has_line SOCK:hello

capture jail -- "$PY" "$probe" connect "$sock"
check_capture "the jailed probe ran (exit 0)" rc_is 0
check_capture "inside: the host's unix socket is unreachable" out_lacks SOCK:hello
check_capture "inside: ... the connect fails" out_has SOCK:E
check_capture "inside: socketpair still works" out_has_line PAIR:pair

capture jail --net host -- "$PY" "$probe" connect "$sock"
check_capture "--net host: the host's unix socket is unreachable" out_lacks SOCK:hello
check_capture "--net host: ... the connect fails" out_has SOCK:E

# A datagram socket on the host (the kind journald's /dev/log is): neither a
# datagram socket nor either end of a datagram socketpair reaches it.
dsock=$RUN/host-dgram.sock
dlog=$RUN/host-dgram.log
: >"$dlog"
chown "$TEST_UID:$TEST_GID" "$dlog"
rm -f "$RUN/unixsock.ready"
start_bg /usr/bin/python3 "$UNIXSOCK" dgram-listen "$dsock" "$RUN/unixsock.ready" "$dlog"
wait_until 5 [ -s "$RUN/unixsock.ready" ] || die "the datagram listener did not start"
token=$(unique_token)

capture as_user "$PY" "$probe" dgram "$dsock" "CONTROL-$token"
check_capture "control: a datagram socketpair end sends to the host's socket" \
  out_has_line DGRAM:pair-sendto:sent
wait_until 5 grep -q "CONTROL-$token pair-connect" "$dlog"
check "control: the host's datagram socket received the messages" \
  grep -q "CONTROL-$token pair-connect" "$dlog"

capture jail -- "$PY" "$probe" dgram "$dsock" "JAIL-$token"
check_capture "datagram: the jailed probe ran (exit 0)" rc_is 0
for how in plain pair-sendto pair-connect; do
  check_capture "datagram ($how): the send fails inside" out_matches "^DGRAM:$how:E"
done
sleep 0.3
check "datagram: nothing from the jail reached the host's socket" \
  bash -c "! grep -q 'JAIL-$token' '$dlog'"

finish
