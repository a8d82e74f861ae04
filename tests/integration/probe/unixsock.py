# A unix socket server and client for the socket tests. ADDR is a path, or
# "@name" for an abstract socket.
#
#   unixsock.py listen ADDR READY   serve "hello" to every client; write READY
#                                   once listening (the path is made 0777)
#   unixsock.py connect ADDR        print "SOCK:hello", or "SOCK:<ERRNO>" when
#                                   the socket or the connect fails; then
#                                   "PAIR:pair" when socketpair works
import errno
import os
import socket
import sys


def address(arg):
    return "\0" + arg[1:] if arg.startswith("@") else arg


def listen(arg, ready):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(address(arg))
    if not arg.startswith("@"):
        os.chmod(arg, 0o777)
    s.listen(16)
    with open(ready, "w") as f:
        f.write("ready\n")
    while True:
        c, _ = s.accept()
        c.sendall(b"hello\n")
        c.close()


def connect(arg):
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(3)
        s.connect(address(arg))
        print("SOCK:" + s.recv(6).decode().strip())
    except OSError as e:
        print("SOCK:" + errno.errorcode.get(e.errno, str(e)))
    a, b = socket.socketpair()
    a.sendall(b"pair\n")
    print("PAIR:" + b.recv(5).decode().strip())


if sys.argv[1] == "listen":
    listen(sys.argv[2], sys.argv[3])
else:
    connect(sys.argv[2])
