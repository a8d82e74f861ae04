# Reports, for each path argument, whether this process could write it,
# without writing anything: files are opened O_WRONLY (no O_TRUNC) and closed,
# directories are asked with access(W_OK).
# Prints "WRITABLE:<path>" or "DENIED:<path>:<ERRNO>".
import errno
import os
import sys

for path in sys.argv[1:]:
    try:
        if os.path.isdir(path):
            if not os.access(path, os.W_OK):
                raise OSError(errno.EACCES, "access(W_OK) refused")
        else:
            os.close(os.open(path, os.O_WRONLY | os.O_NOCTTY))
        print("WRITABLE:" + path)
    except OSError as e:
        print("DENIED:%s:%s" % (path, errno.errorcode.get(e.errno, str(e.errno))))
