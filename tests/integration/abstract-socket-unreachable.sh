#!/bin/bash
# An abstract unix socket listening on the host (the kind X11, D-Bus and
# ssh-agent forwarding use) cannot be reached from inside the jail: not with
# the default network (own network namespace) and not with --net host, where
# only Landlock's scoping (ABI >= 6) stands in the way.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

PY=/usr/bin/python3
name=aj-itest-$(unique_token)
listen='
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0" + sys.argv[1])
s.listen(16)
open(sys.argv[2], "w").write("ready\n")
while True:
    c, _ = s.accept()
    c.sendall(b"hello\n")
    c.close()
'
start_bg "$PY" -c "$listen" "$name" "$RUN/ready"
wait_until 5 [ -s "$RUN/ready" ] || die "the abstract listener did not start"

# Without user namespaces the socket itself is refused (no AF_UNIX there).
connect='
import errno, socket, sys
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(3)
    s.connect("\0" + sys.argv[1])
    print("ABSTRACT:" + s.recv(6).decode().strip())
except OSError as e:
    print("ABSTRACT:" + errno.errorcode.get(e.errno, str(e)))
'
capture as_user "$PY" -c "$connect" "$name"
check_capture "control: the host's abstract socket answers without the jail" out_has_line ABSTRACT:hello

capture jail -- "$PY" -c "$connect" "$name"
check_capture "default network: the jailed probe ran (exit 0)" rc_is 0
check_capture "default network: the host's abstract socket is unreachable" out_lacks ABSTRACT:hello
check_capture "default network: ... the connect fails" out_has ABSTRACT:E

abi=$(jail_landlock_abi)
if [ "$abi" -ge 6 ]; then
  capture jail --net host -- "$PY" -c "$connect" "$name"
  check_capture "--net host: the jailed probe ran (exit 0)" rc_is 0
  check_capture "--net host: the host's abstract socket is unreachable (Landlock scope)" \
    out_lacks ABSTRACT:hello
  check_capture "--net host: ... the connect fails" out_has ABSTRACT:E
else
  note "Landlock ABI $abi < 6: no abstract-socket scoping; --net host case not checked"
fi

finish
