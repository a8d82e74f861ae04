# A unix socket server and client for the socket tests. ADDR is a path, or
# "@name" for an abstract socket.
#
#   unixsock.py listen ADDR READY   serve "hello" to every client; write READY
#                                   once listening (the path is made 0777)
#   unixsock.py connect ADDR        print "SOCK:hello", or "SOCK:<ERRNO>" when
#                                   the socket or the connect fails; then
#                                   "PAIR:pair" when socketpair works
#   unixsock.py dgram-listen ADDR READY LOG
#                                   a datagram socket appending every message
#                                   it receives to LOG
#   unixsock.py dgram ADDR TEXT     send TEXT to it from a plain datagram
#                                   socket, then from one end of a datagram
#                                   socketpair (sendto, then connect + send);
#                                   print "DGRAM:<how>:sent" or ":<ERRNO>"
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


def dgram_listen(arg, ready, log):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(address(arg))
    if not arg.startswith("@"):
        os.chmod(arg, 0o777)
    with open(ready, "w") as f:
        f.write("ready\n")
    while True:
        data = s.recv(4096)
        with open(log, "ab") as f:
            f.write(data + b"\n")


def dgram(arg, text):
    def attempt(how, fn):
        try:
            fn()
            print("DGRAM:%s:sent" % how)
        except OSError as e:
            print("DGRAM:%s:%s" % (how, errno.errorcode.get(e.errno, str(e))))

    def plain():
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(
            (text + " plain").encode(), address(arg))

    def pair_sendto():
        a, _ = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        a.sendto((text + " pair-sendto").encode(), address(arg))

    def pair_connect():
        a, _ = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        a.connect(address(arg))
        a.send((text + " pair-connect").encode())

    attempt("plain", plain)
    attempt("pair-sendto", pair_sendto)
    attempt("pair-connect", pair_connect)


if sys.argv[1] == "listen":
    listen(sys.argv[2], sys.argv[3])
elif sys.argv[1] == "dgram-listen":
    dgram_listen(sys.argv[2], sys.argv[3], sys.argv[4])
elif sys.argv[1] == "dgram":
    dgram(sys.argv[2], sys.argv[3])
else:
    connect(sys.argv[2])
