#!/bin/bash
# With the default profile and with --net none the command has its own network
# namespace holding only the loopback interface, up: there is no route out
# (a UDP connect, which sends nothing, fails at once with ENETUNREACH) while
# loopback works. --net host shows the host's network again, as does running
# without the jail.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

# Python from /usr (visible inside); a UDP connect only looks up the route.
netprobe='
import errno, fcntl, socket, struct
def udp(family, addr):
    s = socket.socket(family, socket.SOCK_DGRAM)
    try:
        s.connect((addr, 9))
        return "OK"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))
    finally:
        s.close()
names = sorted(n for _, n in socket.if_nameindex())
print("LINKS:" + ",".join(names))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for n in names:
    req = struct.pack("16sH", n.encode(), 0)
    flags = struct.unpack("16sH", fcntl.ioctl(s.fileno(), 0x8913, req)[:18])[1]  # SIOCGIFFLAGS
    print("UP:%s:%d" % (n, flags & 1))
print("ROUTE4:" + udp(socket.AF_INET, "192.0.2.1"))
print("ROUTE4B:" + udp(socket.AF_INET, "10.255.255.1"))
print("ROUTE6:" + udp(socket.AF_INET6, "2001:db8::1"))
try:
    l = socket.socket()
    l.bind(("127.0.0.1", 0))
    l.listen(1)
    c = socket.create_connection(l.getsockname(), timeout=2)
    a, _ = l.accept()
    c.sendall(b"ping")
    print("LOOPBACK:" + ("OK" if a.recv(4) == b"ping" else "BAD"))
except OSError as e:
    print("LOOPBACK:" + errno.errorcode.get(e.errno, str(e.errno)))
'
PY=/usr/bin/python3
[ -x "$PY" ] || die "$PY is needed for the network probe"

# Control: the host has an interface besides lo and a route to 192.0.2.1
# (without one, the route checks would show nothing and are left out).
capture as_user "$PY" -c "$netprobe"
check_capture "control: the probe runs without the jail" rc_is 0
[ "$(field LINKS)" = lo ] && skip "the host itself has no interface besides lo: nothing to show"
pass "control: the host has interfaces besides lo ($(field LINKS))"
if out_has_line ROUTE4:OK; then
  pass "control: the host has a route to 192.0.2.1 (UDP connect succeeds)"
  host_routes=1
else
  note "the host has no route to 192.0.2.1 ($(field ROUTE4)): route checks left out"
  host_routes=0
fi

for mode in default "--net none"; do
  if [ "$mode" = default ]; then args=(); else args=(--net none); fi
  capture jail "${args[@]}" -- "$PY" -c "$netprobe"
  check_capture "$mode: the jailed probe ran (exit 0)" rc_is 0
  check_capture "$mode: the only interface is lo" out_has_line LINKS:lo
  check_capture "$mode: lo is up" out_has_line UP:lo:1
  if [ "$host_routes" = 1 ]; then
    check_capture "$mode: no IPv4 route to 192.0.2.1 (ENETUNREACH)" out_has_line ROUTE4:ENETUNREACH
    check_capture "$mode: no IPv4 route to 10.255.255.1 (ENETUNREACH)" out_has_line ROUTE4B:ENETUNREACH
    check_capture "$mode: no IPv6 route to 2001:db8::1 (ENETUNREACH)" out_has_line ROUTE6:ENETUNREACH
  fi
  check_capture "$mode: loopback TCP works" out_has_line LOOPBACK:OK
done

# --net host: the same probe sees the host's network (the probe can tell).
capture jail --net host -- "$PY" -c "$netprobe"
check_capture "--net host: the jailed probe ran (exit 0)" rc_is 0
check_capture "--net host: the host's interfaces are there" out_lacks LINKS:lo
[ "$host_routes" = 1 ] &&
  check_capture "--net host: the host's route to 192.0.2.1 is there" out_has_line ROUTE4:OK

finish
