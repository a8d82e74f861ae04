#!/usr/bin/env python3
"""A user's shell on a fresh pseudo terminal, for the terminal tests.

  pty_shell.py job LINE [PROMPT INPUT]
      `bash -m -c 'LINE; echo HARNESS-DONE'` (job control on): prints what
      the terminal showed once HARNESS-DONE appears (40 s at most). With
      PROMPT and INPUT, INPUT is typed once PROMPT has been shown.
  pty_shell.py type LINE STEP...
      An interactive `bash --norc -i`: LINE is typed, then each STEP after a
      pause of 1.5 s (backslash escapes: '\\x1a' is ^Z), then the shell is
      left; prints what the terminal showed. A STEP '?TEXT' types nothing:
      it waits (30 s at most) until the terminal has shown TEXT.
"""
import os
import pty
import select
import sys
import time


def pump(fd, out, seconds, until=None):
    end = time.time() + seconds
    while time.time() < end and not (until and until(out)):
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return out


def job(line, prompt=None, answer=None):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp("bash", ["bash", "-m", "-c", line + "; echo HARNESS-DONE"])
    out, sent = b"", False
    deadline = time.time() + 40
    while time.time() < deadline and b"HARNESS-DONE" not in out:
        out = pump(fd, out, 0.2)
        if prompt and not sent and prompt.encode() in out:
            os.write(fd, answer.encode().decode("unicode_escape").encode())
            sent = True
    return pid, out


def typed(line, steps):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp("bash", ["bash", "--norc", "-i"])
    out = pump(fd, b"", 0.5)
    os.write(fd, line.encode() + b"\n")
    for step in steps:
        if step.startswith("?"):  # wait (30 s at most) until the terminal shows it
            want = step[1:].encode()
            out = pump(fd, out, 30, lambda o: want in o)
            continue
        out = pump(fd, out, 1.5)
        os.write(fd, step.encode().decode("unicode_escape").encode())
    out = pump(fd, out, 2)
    os.write(fd, b"exit\n")
    return pid, pump(fd, out, 2)


def main():
    mode, rest = sys.argv[1], sys.argv[2:]
    pid, out = job(*rest) if mode == "job" else typed(rest[0], rest[1:])
    sys.stdout.write(out.decode(errors="replace").replace("\r", ""))
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass


if __name__ == "__main__":
    main()
