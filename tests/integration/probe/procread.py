# procread.py PID ITEM...: can this process look into /proc/PID/ITEM?
# ITEM is environ, maps (read), mem (open), fd (list, then readlink and open
# each entry: only names is not access), cwd, exe (readlink), root (list). Prints "READ:<item>" or "DENIED:<item>:<ERRNO>"; with
# --grep TOKEN, also "FOUND:<item>" when TOKEN is in what was read.
import errno
import os
import sys

args = sys.argv[1:]
token = None
if args[:1] == ["--grep"]:
    token, args = args[1].encode(), args[2:]
pid, items = args[0], args[1:]

for item in items:
    path = "/proc/%s/%s" % (pid, item)
    try:
        data = b""
        if item in ("environ", "maps", "cmdline", "status"):
            with open(path, "rb") as f:
                data = f.read()
        elif item == "mem":
            os.close(os.open(path, os.O_RDONLY))
        elif item == "fd":
            names = os.listdir(path)
            reached = 0
            last = None
            for n in names:
                try:
                    data += os.readlink(os.path.join(path, n)).encode() + b"\n"
                    reached += 1
                except OSError as e:
                    last = e
            if names and not reached:
                print("NOTE:fd:%d names listed, none reachable" % len(names))
                raise last
        elif item == "root":
            data = "\n".join(os.listdir(path)).encode()
        else:
            data = os.readlink(path).encode()
        print("READ:" + item)
        if token is not None and token in data:
            print("FOUND:" + item)
    except OSError as e:
        print("DENIED:%s:%s" % (item, errno.errorcode.get(e.errno, str(e.errno))))
