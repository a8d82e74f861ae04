"""tryop: a helper the integration tests' inline scripts import.

t(name, f) runs f() and prints "OK:<name>", or "ERR:<name>:<strerror>" when it
raises OSError, to stdout (or to `out`): the line format the tests grep.
Scripts in the workspace import it from .probe (see lib.sh install_probe).
"""
import os
import sys


def t(name, f, out=None):
    out = out or sys.stdout
    try:
        f()
        print("OK:" + name, file=out)
    except OSError as e:
        print("ERR:%s:%s" % (name, os.strerror(e.errno)), file=out)
