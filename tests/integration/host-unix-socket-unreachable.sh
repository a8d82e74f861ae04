#!/bin/bash
# A unix socket listening at a path on the host (the kind the D-Bus session
# bus, docker.sock and ssh-agent use: a way to have commands run outside the
# jail) cannot be reached from inside. With user namespaces its path is not in
# the jail's view; without them nothing hides it and Landlock does not govern
# connect(), so seccomp refuses AF_UNIX sockets altogether (socketpair still
# works). Control: the same client reaches it without the jail.
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

finish
