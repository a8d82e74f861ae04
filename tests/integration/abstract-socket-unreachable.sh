#!/bin/bash
# An abstract unix socket listening on the host (the kind X11, D-Bus and
# ssh-agent forwarding use) cannot be reached from inside the jail: not with
# the default network (own network namespace) and not with --net host, where
# only Landlock's scoping (ABI >= 6) stands in the way. Without user
# namespaces no AF_UNIX socket can be made at all.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

PY=/usr/bin/python3
addr=@aj-itest-$(unique_token)
start_unix_listener "$addr"
probe=$UNIXSOCK

capture as_user "$PY" "$probe" connect "$addr"
check_capture "control: the host's abstract socket answers without the jail" out_has_line SOCK:hello

capture jail -- "$PY" "$probe" connect "$addr"
check_capture "default network: the jailed probe ran (exit 0)" rc_is 0
check_capture "default network: the host's abstract socket is unreachable" out_lacks SOCK:hello
check_capture "default network: ... the connect fails" out_has SOCK:E

abi=$(jail_landlock_abi)
if [ "$abi" -ge 6 ]; then
  capture jail --net host -- "$PY" "$probe" connect "$addr"
  check_capture "--net host: the jailed probe ran (exit 0)" rc_is 0
  check_capture "--net host: the host's abstract socket is unreachable (Landlock scope)" \
    out_lacks SOCK:hello
  check_capture "--net host: ... the connect fails" out_has SOCK:E
else
  note "Landlock ABI $abi < 6: no abstract-socket scoping; --net host case not checked"
fi

finish
