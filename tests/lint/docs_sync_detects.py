#!/usr/bin/env python3
"""Shows that docs_sync.py fails when the docs fall behind `agentjail --help`.

A control first: the documents as they are must pass (otherwise every check
below would "detect" something trivially). Then, against in-memory copies,
each mutation must produce an error that names the document and the thing
removed:
  - every option removed from each document, everywhere in it;
  - every option removed from one subcommand's place only (the man page's
    `## SUB` subsection, bash's _agentjail_opts_SUB, zsh's _agentjail_SUB,
    fish's `__agentjail_using ... SUB` lines);
  - every subcommand removed from each document's list of subcommands;
  - every option that takes a value turned into a flag in each completion;
  - every value of an enumerated option removed from the man page and from
    each completion;
  - every layer name of src/policy/layers.cc removed from each document;
  - every syscall group's entry, and every call or group in it, removed from
    the SYSCALL GROUPS section of agentjail.toml(5).
Finally one end-to-end run of docs_sync.py as a program, against a temporary
copy of the tree whose man page lacks an option, must exit 1 and name it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docs_sync as ds  # noqa: E402

MAN = "man/agentjail.1.scd"
MAN5 = "man/agentjail.toml.5.scd"
BASH = "completions/agentjail.bash"
ZSH = "completions/_agentjail"
FISH = "completions/agentjail.fish"


def drop_token(text: str, token: str) -> str:
    return re.sub(rf"(?<![A-Za-z0-9_-]){re.escape(token)}(?![A-Za-z0-9_-])", "", text)


def drop_option(doc: str, text: str, option: str) -> str:
    """Removes every mention of option; fish spells `--name` as `-l name`, `-x` as `-s x`."""
    if doc != FISH:
        return drop_token(text, option)
    flag = f"-l {option[2:]}" if option.startswith("--") else f"-s {option[1:]}"
    return re.sub(rf" {re.escape(flag)}(?![A-Za-z0-9-])", "", text)


def group_entry_span(text: str, group: str) -> tuple[int, int]:
    """The indented body below the `*@group*` term line of SYSCALL GROUPS."""
    term = re.search(rf"^\*{re.escape(group.replace('_', chr(92) + '_'))}\*\n", text, re.M)
    end = re.compile(r"^(?!\t)", re.M).search(text, term.end())
    return term.end(), end.start()


def drop_group_entry(text: str, group: str) -> str:
    start, end = group_entry_span(text, group)
    term_start = text.rindex("\n", 0, start - 1) + 1
    return text[:term_start] + text[end:]


def in_span(text: str, span: tuple[int, int], edit) -> str:
    return text[:span[0]] + edit(text[span[0]:span[1]]) + text[span[1]:]


def man_subsection_span(text: str, sub: str) -> tuple[int, int]:
    start = text.index(f"\n## {sub}\n")
    end = re.compile(r"\n#{1,2} ").search(text, start + 1).start()
    return start, end


def bash_list_span(text: str, key: str) -> tuple[int, int]:
    m = re.search(rf'^_agentjail_{key}="[^"]*"', text, re.M)
    return m.span()


def zsh_function_span(text: str, sub: str) -> tuple[int, int]:
    m = re.search(rf"^_agentjail_{sub}\(\)\s*\{{\n.*?^\}}", text, re.M | re.S)
    return m.span()


def fish_drop_sub_for_option(text: str, sub: str, option: str) -> str:
    flag = f"-l {option[2:]}" if option.startswith("--") else f"-s {option[1:]}"
    out = []
    for line in text.splitlines(keepends=True):
        if line.startswith("complete -c agentjail") and re.search(
                rf"{re.escape(flag)}(?![A-Za-z0-9-])", line):
            line = re.sub(r"'__agentjail_using ([^']*)'",
                          lambda m: "'__agentjail_using " +
                          " ".join(w for w in m.group(1).split() if w != sub) + "'", line)
        out.append(line)
    return "".join(out)


def drop_subcommand(doc: str, text: str, sub: str) -> str:
    if doc == MAN:
        return text.replace(f"\n## {sub}\n", f"\n## not-{sub}\n")
    if doc == BASH:
        return in_span(text, bash_list_span(text, "subcommands"), lambda s: drop_token(s, sub))
    if doc == ZSH:
        return re.sub(rf"^\s*'{sub}:.*\n", "", text, flags=re.M)
    return re.sub(rf"^complete .*__agentjail_at_start -a {sub} .*\n", "", text, flags=re.M)


def make_flag(doc: str, text: str, option: str) -> str:
    if doc == BASH:
        return in_span(text, bash_list_span(text, "opts_with_value"),
                       lambda s: drop_token(s, option))
    if doc == ZSH:
        return re.sub(rf"(?<![A-Za-z0-9_-]){re.escape(option)}[=+]", option, text)
    span = re.search(r"set -l value_opts (?:[^\n]*\\\n)*[^\n]*", text).span()
    return in_span(text, span, lambda s: drop_token(s, option))


class Runner:
    def __init__(self, cli: ds.Cli, texts: dict[str, str], facts: ds.SourceFacts):
        self.cli, self.texts, self.facts = cli, texts, facts
        self.cases = 0
        self.failures: list[str] = []

    def expect(self, what: str, doc: str, mutated: str, *needles: str) -> None:
        """The mutated document must yield an error naming doc and every needle."""
        self.cases += 1
        if mutated == self.texts[doc]:
            self.failures.append(f"{what}: the mutation changed nothing in {doc}")
            return
        errors = ds.check_all(self.cli, {**self.texts, doc: mutated}, self.facts)
        if not any(e.startswith(doc + ":") and all(n in e for n in needles) for e in errors):
            self.failures.append(f"{what}: not detected in {doc} (errors: {errors})")


def run_mutations(r: Runner) -> None:
    cli = r.cli
    every = sorted(set().union(*(cli.names(s) for s in [ds.ROOT, *cli.subcommands])))
    for doc in (MAN, BASH, ZSH, FISH):
        for opt in every:
            r.expect(f"{opt} removed", doc, drop_option(doc, r.texts[doc], opt), opt)
        for sub in cli.subcommands:
            r.expect(f"subcommand {sub} removed", doc,
                     drop_subcommand(doc, r.texts[doc], sub), f"'{sub}'")

    for sub in cli.subcommands:
        for opt in sorted(cli.names(sub)):
            needles = (opt, f"'{sub}'")
            text = r.texts[MAN]
            r.expect(f"{opt} removed from ## {sub}", MAN,
                     in_span(text, man_subsection_span(text, sub), lambda s: drop_token(s, opt)),
                     *needles)
            text = r.texts[BASH]
            key = "opts_" + sub.replace("-", "_")
            r.expect(f"{opt} removed from {key}", BASH,
                     in_span(text, bash_list_span(text, key), lambda s: drop_token(s, opt)),
                     *needles)
            text = r.texts[ZSH]
            r.expect(f"{opt} removed from _agentjail_{sub}", ZSH,
                     in_span(text, zsh_function_span(text, sub), lambda s: drop_token(s, opt)),
                     *needles)
            r.expect(f"{sub} removed from the condition of {opt}", FISH,
                     fish_drop_sub_for_option(r.texts[FISH], sub, opt), *needles)

    options = {}
    for sub in [ds.ROOT, *cli.subcommands]:
        options.update(cli.options[sub])
    for doc in (MAN, BASH, ZSH, FISH):
        for name, opt in sorted(options.items()):
            if opt.takes_value and doc != MAN:
                r.expect(f"{name} made a flag", doc, make_flag(doc, r.texts[doc], name),
                         name, "takes a value")
            for value in opt.values:
                r.expect(f"value {value} of {name} removed", doc,
                         drop_token(r.texts[doc], value), f"'{value}'", name)

    for doc in ds.DOCUMENTS:
        for layer in r.facts.layers:
            r.expect(f"layer {layer} removed", doc, drop_token(r.texts[doc], layer),
                     f"layer '{layer}'")

    text = r.texts[MAN5]
    for group, members in r.facts.groups.items():
        r.expect(f"group {group} removed", MAN5, drop_group_entry(text, group), group)
        span = group_entry_span(text, group)
        for m in members:
            r.expect(f"{m} removed from {group}", MAN5,
                     in_span(text, span, lambda s, m=m: drop_token(ds.scd_unescape(s), m)),
                     group, f"'{m}'")


def end_to_end(agentjail: str, facts: str, source_root: str, option: str) -> str | None:
    """Runs docs_sync.py on a temp tree whose man page lacks option; None if detected."""
    with tempfile.TemporaryDirectory(prefix="docs-sync-") as tmp:
        for rel in ds.DOCUMENTS:
            os.makedirs(os.path.join(tmp, os.path.dirname(rel)), exist_ok=True)
            shutil.copy(os.path.join(source_root, rel), os.path.join(tmp, rel))
        man = os.path.join(tmp, MAN)
        with open(man, encoding="utf-8") as f:
            text = f.read()
        with open(man, "w", encoding="utf-8") as f:
            f.write(drop_token(text, option))
        proc = subprocess.run(
            [sys.executable, os.path.join(os.path.dirname(__file__), "docs_sync.py"),
             "--agentjail", agentjail, "--facts", facts, "--source-root", tmp],
            capture_output=True, text=True, timeout=120)
    if proc.returncode == 1 and f"{MAN}: option {option} " in proc.stdout:
        return None
    return f"end to end: exit {proc.returncode}, output:\n{proc.stdout}{proc.stderr}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agentjail", required=True)
    ap.add_argument("--facts", required=True)
    ap.add_argument("--source-root", required=True)
    args = ap.parse_args()

    cli = ds.read_cli(args.agentjail)
    texts = ds.read_documents(args.source_root)
    facts = ds.read_facts(args.facts)
    control = ds.check_all(cli, texts, facts)
    if control:
        print("docs-sync-detects-missing: the unmodified documents already fail docs-sync, "
              "so detection proves nothing; fix these first:")
        for e in control:
            print(f"  {e}")
        return 1

    r = Runner(cli, texts, facts)
    run_mutations(r)
    last_option = sorted(cli.names("run"))[-1]
    problem = end_to_end(args.agentjail, args.facts, args.source_root, last_option)
    if problem:
        r.failures.append(problem)
    for f in r.failures:
        print(f"docs-sync-detects-missing: {f}")
    if r.failures:
        print(f"docs-sync-detects-missing: {len(r.failures)} of {r.cases + 1} mutations "
              "went undetected")
        return 1
    print(f"docs-sync-detects-missing: ok: {r.cases + 1} mutations, each detected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
