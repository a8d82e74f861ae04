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
listen='
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)
s.listen(16)
open(sys.argv[2], "w").write("ready\n")
while True:
    c, _ = s.accept()
    c.sendall(b"hello\n")
    c.close()
'
start_bg "$PY" -c "$listen" "$sock" "$RUN/ready"
wait_until 5 [ -s "$RUN/ready" ] || die "the unix socket listener did not start"

connect='
import errno, socket, sys
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(3)
    s.connect(sys.argv[1])
    print("HOST:" + s.recv(6).decode().strip())
except OSError as e:
    print("HOST:" + errno.errorcode.get(e.errno, str(e)))
a, b = socket.socketpair()
a.sendall(b"pair\n")
print("PAIR:" + b.recv(5).decode().strip())'
capture as_user "$PY" -c "$connect" "$sock"
check_capture "control: the host's unix socket answers without the jail" out_has_line HOST:hello

capture jail -- "$PY" -c "$connect" "$sock"
check_capture "the jailed probe ran (exit 0)" rc_is 0
check_capture "inside: the host's unix socket is unreachable" out_lacks HOST:hello
check_capture "inside: ... the connect fails" out_has HOST:E
check_capture "inside: socketpair still works" out_has_line PAIR:pair

capture jail --net host -- "$PY" -c "$connect" "$sock"
check_capture "--net host: the host's unix socket is unreachable" out_lacks HOST:hello
check_capture "--net host: ... the connect fails" out_has HOST:E

finish
