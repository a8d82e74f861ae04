#!/usr/bin/env python3
"""The bash, zsh and fish completions work against the built agentjail.

Each case types a command line into a shell, completes the last word, and
checks some candidates that must and must not be offered. Profile names come
from the real `agentjail profiles` (with a --profile-dir holding mine.toml);
a stand-in agentjail that fails must leave completion quiet and working.
bash always runs; zsh and fish run when installed (otherwise: skipped, said
so). Exit 77 (meson's "skipped") when not even bash is there.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

BASH_DRIVER = r'''
source "$1"
read -ra COMP_WORDS <<< "$2"
[[ $2 == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE=$2
COMP_POINT=${#2}
_agentjail
printf '%s\n' "${COMPREPLY[@]}"
'''

# Drives an interactive zsh on a pseudo-terminal: the completion widget calls
# the real completion system and records every candidate added with compadd.
ZSH_DRIVER = r'''
zmodload zsh/zpty
out=$3
zpty z zsh -f -i
zpty -w z "PS1=''; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z 'comptest() { compadd() { local -a m; builtin compadd -O m "$@"; print -rl -- $m >> '${(q)out}'; builtin compadd "$@" }; _main_complete; unfunction compadd; print DONE >> '${(q)out}'.done }'
zpty -w z 'zle -C comptest-w complete-word comptest; bindkey "^I" comptest-w'
zpty -w -n z "$2"$'\t'
for i in {1..200}; do [[ -e $out.done ]] && break; sleep 0.05; done
zpty -d z
[[ -e $out.done ]]
'''

FISH_DRIVER = 'source $argv[1]; complete -C $argv[2]'


def run(cmd: list[str], env: dict[str, str], cwd: str) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)


def complete(shell: str, completions: str, line: str, env: dict[str, str], cwd: str,
             tmp: str) -> tuple[list[str], str]:
    """Candidates for the end of line, and anything the shell printed to stderr."""
    if shell == "bash":
        p = run(["bash", "-c", BASH_DRIVER, "bash", os.path.join(completions, "agentjail.bash"),
                 line], env, cwd)
        return p.stdout.splitlines(), p.stderr
    if shell == "fish":
        p = run(["fish", "-c", FISH_DRIVER, os.path.join(completions, "agentjail.fish"), line],
                env, cwd)
        return [c.split("\t")[0] for c in p.stdout.splitlines()], p.stderr
    out = os.path.join(tmp, f"zsh-{time.monotonic_ns()}")
    open(out, "w").close()
    p = run(["zsh", "-f", "-c", ZSH_DRIVER, "zsh", completions, line, out], env, cwd)
    with open(out, encoding="utf-8", errors="replace") as f:
        hits = f.read().splitlines()
    return hits, "" if p.returncode == 0 else "zsh: completion did not finish"


def cases(profile_dir: str) -> list[tuple[str, list[str], list[str]]]:
    """(command line, must be offered, must not be offered)"""
    return [
        ("agentjail ", ["run", "check", "explain", "features", "profiles"], []),
        ("agentjail features --", ["--json", "--verbose", "--quiet", "--help"],
         ["--profile", "--dry-run", "--net"]),
        ("agentjail check --", ["--profile-dir", "--verbose"], ["--json", "--net", "--dry-run"]),
        ("agentjail run --d", ["--dry-run"], ["--json"]),
        ("agentjail --n", ["--net", "--no-userns"], ["--json"]),
        ("agentjail --net ", ["none", "loopback", "host"], ["proxy"]),
        ("agentjail explain --require land", ["landlock", "landlock-net", "landlock-scope"],
         ["seccomp"]),
        (f"agentjail --profile-dir {profile_dir} -p ", ["mine", "default", "strict"], []),
        (f"agentjail check --profile-dir {profile_dir} ", ["mine", "default", "strict"], []),
        ("agentjail -- ech", ["echo"], []),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agentjail", required=True)
    ap.add_argument("--source-root", required=True)
    args = ap.parse_args()
    completions = os.path.join(os.path.abspath(args.source_root), "completions")
    shells = [s for s in ("bash", "zsh", "fish") if shutil.which(s)]
    if "bash" not in shells:
        print("completions: skipped: bash is not installed")
        return 77

    failures = []
    count = 0
    with tempfile.TemporaryDirectory(prefix="aj-completions-") as tmp:
        good_bin, bad_bin, cwd = (os.path.join(tmp, d) for d in ("bin", "badbin", "cwd"))
        profile_dir = os.path.join(tmp, "profiles")
        for d in (good_bin, bad_bin, cwd, profile_dir):
            os.mkdir(d)
        os.symlink(os.path.abspath(args.agentjail), os.path.join(good_bin, "agentjail"))
        with open(os.path.join(profile_dir, "mine.toml"), "w") as f:
            f.write('[profile]\nextends = ["default"]\n')
        bad = os.path.join(bad_bin, "agentjail")
        with open(bad, "w") as f:
            f.write('#!/bin/sh\necho "agentjail: cannot list" >&2\necho "garbage here"\nexit 3\n')
        os.chmod(bad, 0o755)
        base_env = {"HOME": tmp, "XDG_CONFIG_HOME": os.path.join(tmp, "config"), "TERM": "dumb",
                    "LANG": "C.UTF-8"}
        system_path = "/usr/local/bin:/usr/bin:/bin"

        for shell in shells:
            env = {**base_env, "PATH": f"{good_bin}:{system_path}"}
            for line, want, unwanted in cases(profile_dir):
                count += 1
                got, err = complete(shell, completions, line, env, cwd, tmp)
                missing = [w for w in want if w not in got]
                extra = [u for u in unwanted if u in got]
                if missing or extra or err.strip():
                    failures.append(f"{shell}: '{line}': missing {missing}, unexpected {extra}"
                                    + (f", stderr: {err.strip()}" if err.strip() else ""))
            # A failing `agentjail profiles`: no noise, no garbage, names simply absent.
            count += 1
            env = {**base_env, "PATH": f"{bad_bin}:{system_path}"}
            got, err = complete(shell, completions, "agentjail check ", env, cwd, tmp)
            if "garbage" in got or err.strip():
                failures.append(f"{shell}: failing 'agentjail profiles' leaked: {got[:5]} {err!r}")

    for f in failures:
        print(f"completions: {f}")
    skipped = [s for s in ("zsh", "fish") if s not in shells]
    note = f" (skipped, not installed: {', '.join(skipped)})" if skipped else ""
    if failures:
        print(f"completions: {len(failures)} of {count} cases failed{note}")
        return 1
    print(f"completions: ok: {count} cases in {', '.join(shells)}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
