#!/bin/bash
# With the host network and `[network] tcp_connect = [PORT]`, a TCP connect to
# PORT works and one to any other port is refused (Landlock, ABI >= 4), while
# both work without the jail; so are a Multipath TCP connect and a TCP Fast
# Open send to it. Two listeners on 127.0.0.1 are the targets.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

PY=/usr/bin/python3
abi=$(jail_landlock_abi)
[ "$abi" -ge 4 ] || skip "Landlock ABI $abi has no TCP port rules (needs 4)"

# Two listeners on ephemeral ports; their ports in $T/ports.
listen='
import socket, sys, time
ss = []
for _ in range(2):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    ss.append(s)
with open(sys.argv[1], "w") as f:
    f.write(" ".join(str(s.getsockname()[1]) for s in ss) + "\n")
time.sleep(600)
'
start_bg "$PY" -c "$listen" "$RUN/ports"
wait_until 5 [ -s "$RUN/ports" ] || die "the listeners did not start"
read -r allowed denied <"$RUN/ports"

connect='
import errno, socket, sys
for port in sys.argv[1:]:
    s = socket.socket()
    s.settimeout(3)
    try:
        s.connect(("127.0.0.1", int(port)))
        print("CONNECT:%s:OK" % port)
    except OSError as e:
        print("CONNECT:%s:%s" % (port, errno.errorcode.get(e.errno, str(e))))
    finally:
        s.close()
'
write_profile itest-port <<TOML
[profile]
extends = ["default"]
description = "default, host network, TCP connect only to port $allowed"

[network]
mode = "host"
tcp_connect = [$allowed]
TOML

capture as_user "$PY" -c "$connect" "$allowed" "$denied"
check_capture "control: port $allowed is reachable without the jail" out_has_line "CONNECT:$allowed:OK"
check_capture "control: port $denied is reachable without the jail" out_has_line "CONNECT:$denied:OK"

capture jail --profile itest-port -- "$PY" -c "$connect" "$allowed" "$denied"
check_capture "the jailed probe ran (exit 0)" rc_is 0
check_capture "inside: the granted port $allowed is reachable" out_has_line "CONNECT:$allowed:OK"
check_capture "inside: the other port $denied is refused" out_has "CONNECT:$denied:E"
check_capture "inside: ... with EACCES (Landlock), not a timeout" out_has_line "CONNECT:$denied:EACCES"

# Ways around connect(2)'s check: a Multipath TCP socket, and a TCP Fast Open
# send, which connects from sendto. Control: both reach the port without the
# jail (where the kernel has them).
install_probe tryop.py >/dev/null
around='
import socket, sys
sys.path.insert(0, ".probe")
from tryop import t
port = int(sys.argv[1])
def mptcp():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262)
    s.settimeout(3)
    s.connect(("127.0.0.1", port))
def fastopen():  # blocking: a timeout would make it EINPROGRESS
    s = socket.socket()
    s.sendto(b"x", 0x20000000, ("127.0.0.1", port))
t("mptcp", mptcp)
t("fastopen", fastopen)
'
capture as_user "$PY" -c "$around" "$denied"
control=$OUT
capture jail --profile itest-port -- "$PY" -c "$around" "$denied"
check_capture "the jailed probe ran (exit 0)" rc_is 0
capture aj explain --profile-dir "$PROFILES" --profile itest-port
check_capture "explain: the port rule says it is TCP only" any_matches "TCP only: UDP"
for way in mptcp fastopen; do
  if printf '%s\n' "$control" | grep -qx "OK:$way"; then
    check_capture "inside: $way to port $denied is refused" out_lacks "OK:$way"
  else
    note "control: $way does not reach the port without the jail here; its check is vacuous"
  fi
done

finish
