#!/usr/bin/env python3
"""Keeps the man page and the shell completions in step with `agentjail --help`.

Runs the built binary's `--help` and `SUBCOMMAND --help`, and checks that
  - every subcommand has a `## NAME` subsection under COMMANDS in
    man/agentjail.1.scd and is offered by the bash, zsh and fish completions;
  - every option (long and short) of every subcommand is documented as a term
    in the man page's OPTIONS section, is named in that subcommand's
    subsection, and is offered for that subcommand by each completion;
  - completions know which options take a value, offer every value of an
    enumerated option (`--net none|loopback|host`), and offer no option the
    subcommand does not have;
  - the man pages and completions know every layer name of known_layers()
    (src/policy/layers.cc; for `--require` and `require = [...]`);
  - man/agentjail.toml.5.scd's SYSCALL GROUPS documents exactly the groups of
    syscall_groups() (src/seccomp/groups.cc), each with every call or group
    it holds.
The two tables are read from the docs_facts helper (--facts), which prints
them through those public interfaces.
Each problem is printed as `FILE: message`; the exit status is 1 if any.

The completion parsers below read the structure each completion file documents
in its header comment; change both together.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import shlex
import subprocess
import sys

OPTION_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])(--?[A-Za-z0-9][A-Za-z0-9-]*)")
ROOT = ""  # key of the top level (no subcommand) in every map below


@dataclasses.dataclass
class Option:
    names: list[str]  # e.g. ["-p", "--profile"]
    takes_value: bool
    values: list[str]  # enumerated values, e.g. ["none", "loopback", "host"]


@dataclasses.dataclass
class Cli:
    subcommands: list[str]
    options: dict[str, dict[str, Option]]  # subcommand (ROOT too) -> name -> Option

    def names(self, sub: str) -> set[str]:
        return set(self.options.get(sub, {}))

    def root_names(self) -> set[str]:
        # `agentjail [OPTIONS] COMMAND` is `agentjail run ...`: at the top level
        # the completions offer the root options and run's.
        return self.names(ROOT) | self.names("run")


# ---------------------------------------------------------------- --help

def parse_help(text: str) -> tuple[dict[str, Option], list[str]]:
    """Options and subcommands from CLI11's help layout."""
    options: dict[str, Option] = {}
    subcommands: list[str] = []
    section = None
    for line in text.splitlines():
        if not line.strip():
            section = None
            continue
        header = re.match(r"^([A-Za-z][A-Za-z ]*):\s*$", line)
        if header:
            section = header.group(1).strip().lower()
            continue
        if section in ("options", "flags") and re.match(r"^\s+-", line):
            spec = re.split(r"\s{2,}", line.strip())[0]
            names_part, _, type_part = spec.partition(" ")
            names = [n for n in names_part.split(",") if n.startswith("-")]
            type_part = re.sub(r"\s*(\.\.\.|REQUIRED|\[[^]]*\])", "", type_part).strip()
            opt = Option(names=names, takes_value=bool(type_part), values=enum_values(type_part))
            for n in names:
                options[n] = opt
        elif section == "subcommands" and re.match(r"^\s+[a-z]", line):
            subcommands.append(line.split()[0])
    return options, subcommands


def enum_values(type_part: str) -> list[str]:
    if re.fullmatch(r"[a-z][a-z0-9-]*(\|[a-z][a-z0-9-]*)+", type_part):
        return type_part.split("|")
    braces = re.search(r":\{([^}]*)\}", type_part)  # CLI11's IsMember: TEXT:{a,b}
    if braces:
        return [v.strip() for v in braces.group(1).split(",") if v.strip()]
    return []


def run_help(agentjail: str, args: list[str]) -> str:
    proc = subprocess.run([agentjail, *args, "--help"], capture_output=True, text=True,
                          timeout=30, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise SystemExit(f"docs-sync: `agentjail {' '.join(args + ['--help'])}` exited "
                         f"{proc.returncode}: {proc.stderr.strip()}")
    return proc.stdout


def read_cli(agentjail: str) -> Cli:
    root_opts, subcommands = parse_help(run_help(agentjail, []))
    if not subcommands or not root_opts:
        raise SystemExit("docs-sync: `agentjail --help` lists no subcommands or no options "
                         "(is it the CLI11 help? is app_main calling parse_cli?)")
    options = {ROOT: root_opts}
    for sub in subcommands:
        options[sub], _ = parse_help(run_help(agentjail, [sub]))
        if not options[sub]:
            raise SystemExit(f"docs-sync: `agentjail {sub} --help` lists no options")
    return Cli(subcommands, options)


# ---------------------------------------------------------------- documents

@dataclasses.dataclass
class Offer:
    """What one document says about the CLI."""
    subcommands: set[str]
    options: dict[str, set[str]]  # subcommand (ROOT too) -> option names offered there
    with_value: set[str] = dataclasses.field(default_factory=set)  # completed as taking a value
    flags: set[str] = dataclasses.field(default_factory=set)  # completed as taking none
    value_texts: dict[str, str] = dataclasses.field(default_factory=dict)  # option -> its values

    def value_text(self, option: str) -> str:
        return self.value_texts.get(option, self.value_texts.get("*", ""))


def option_tokens(text: str) -> set[str]:
    return set(OPTION_TOKEN.findall(text))


def scd_sections(text: str, level: str) -> dict[str, str]:
    """Maps each `# NAME` (level "#") or `## NAME` heading to the text under it."""
    out: dict[str, str] = {}
    name = None
    literal = False
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            literal = not literal
        m = None if literal else re.match(rf"^{level} (\S.*?)\s*$", line)
        if m:
            name = m.group(1)
            out[name] = ""
        elif (not literal and re.match(r"^#+ ", line)
              and len(line) - len(line.lstrip("#")) <= len(level)):
            name = None
        elif name is not None:
            out[name] += line
    return out


def parse_man(text: str) -> tuple[Offer, set[str]]:
    """Subcommand subsections under COMMANDS, and the OPTIONS section's terms."""
    sections = scd_sections(text, "#")
    commands = scd_sections(sections.get("COMMANDS", ""), "##")
    options = {sub: option_tokens(body) for sub, body in commands.items()}
    terms = set()
    for line in sections.get("OPTIONS", "").splitlines():
        if line.startswith("*-"):  # a term line: *-p*, *--profile* _NAME_
            terms |= option_tokens(line)
    options[ROOT] = terms
    return Offer(set(commands), options), terms


def parse_bash(text: str) -> Offer:
    lists = {m.group(1): m.group(2).split()
             for m in re.finditer(r'^_agentjail_(\w+)="([^"]*)"', text, re.M)}
    options: dict[str, set[str]] = {}
    for key, words in lists.items():
        if key.startswith("opts_") and key not in ("opts_with_value", "opts_global"):
            options[key[len("opts_"):].replace("_", "-")] = set(words)
    options[ROOT] = set(lists.get("opts_global", [])) | options.get("run", set())
    with_value = set(lists.get("opts_with_value", []))
    all_opts = set().union(*options.values()) if options else set()
    # Values (--net modes, layers) live in the other lists.
    values = " ".join(" ".join(words) for key, words in lists.items()
                      if not key.startswith("opts_") and key != "subcommands")
    return Offer(set(lists.get("subcommands", [])), options, with_value,
                 all_opts - with_value, {"*": values})


ZSH_SPEC = re.compile(
    r"'(?:\([^)]*\))?'?\*?'?(?:\{([^}]*)\}|(--?[A-Za-z0-9][A-Za-z0-9-]*)([=+]?))")


def zsh_specs(body: str) -> dict[str, bool]:
    """Option names in _arguments specs -> whether the spec takes a value."""
    out: dict[str, bool] = {}
    for m in ZSH_SPEC.finditer(body):
        names = m.group(1).split(",") if m.group(1) else [m.group(2) + m.group(3)]
        for raw in names:
            raw = raw.strip()
            name = raw.rstrip("=+-")
            if OPTION_TOKEN.fullmatch(name):
                out[name] = out.get(name, False) or raw != name
    return out


def parse_zsh(text: str) -> Offer:
    bodies = {m.group(1): m.group(2) for m in
              re.finditer(r"^(_agentjail\w*)\(\)\s*\{\n(.*?)^\}", text, re.M | re.S)}
    main = bodies.get("_agentjail", "")
    block = re.search(r"subcommands=\((.*?)\n\s*\)", main, re.S)
    listed = set(re.findall(r"'([a-z][a-z0-9-]*):", block.group(1))) if block else set()
    options: dict[str, set[str]] = {}
    with_value: set[str] = set()
    flags: set[str] = set()
    for fn, body in bodies.items():
        specs = zsh_specs(body)
        key = ROOT if fn == "_agentjail" else fn[len("_agentjail_"):].replace("_", "-")
        options[key] = set(specs)
        with_value |= {n for n, v in specs.items() if v}
        flags |= {n for n, v in specs.items() if not v}
    options[ROOT] = options.get(ROOT, set()) | options.get("run", set())
    subcommands = {s for s in listed if s in options}
    # An option's values are in its spec line, after the description.
    value_texts: dict[str, str] = {}
    for line in text.splitlines():
        for name in zsh_specs(line.strip()):
            value_texts[name] = value_texts.get(name, "") + line.split("]", 1)[-1] + "\n"
    return Offer(subcommands, options, with_value, flags, value_texts)


def parse_fish(text: str) -> Offer:
    options: dict[str, set[str]] = {ROOT: set()}
    subcommands: set[str] = set()
    with_value: set[str] = set()
    flags: set[str] = set()
    value_texts: dict[str, str] = {}
    for line in text.splitlines():
        if not line.startswith("complete -c agentjail"):
            continue
        words = shlex.split(line)
        cond, names, args, value = "", [], [], False
        i = 1
        while i < len(words):
            w = words[i]
            if w in ("-c", "-n", "-l", "-s", "-o", "-a", "-d", "-w") and i + 1 < len(words):
                arg = words[i + 1]
                if w == "-n":
                    cond = arg
                elif w == "-l":
                    names.append("--" + arg)
                elif w in ("-s", "-o"):
                    names.append("-" + arg)
                elif w == "-a":
                    args.append(arg)
                i += 2
                continue
            if w in ("-r", "-x"):
                value = True
            i += 1
        cond_words = cond.split()
        if cond_words[:1] == ["__agentjail_at_start"]:
            targets = [ROOT]
            subcommands |= {a for a in args if re.fullmatch(r"[a-z][a-z0-9-]*", a)}
        elif cond_words[:1] == ["__agentjail_using"]:
            targets = cond_words[1:] + ([ROOT] if "run" in cond_words[1:] else [])
        else:
            continue
        for t in targets:
            options.setdefault(t, set()).update(names)
        (with_value if value else flags).update(names)
        for n in names:
            value_texts[n] = value_texts.get(n, "") + " ".join(args) + "\n"
    state = re.search(r"set -l value_opts ((?:[^\n]*\\\n)*[^\n]*)", text)
    state_values = set(state.group(1).replace("\\\n", " ").split()) if state else set()
    # An option needs both `-r`/`-x` on its line and a place in value_opts.
    flags |= with_value - state_values
    with_value &= state_values
    return Offer(subcommands, options, with_value, flags, value_texts)


# ---------------------------------------------------------------- checks

@dataclasses.dataclass
class SourceFacts:
    """Names the docs must know that live in tables in the sources."""
    layers: list[str]  # known_layers() (src/policy/layers.cc)
    groups: dict[str, list[str]]  # syscall_groups() (src/seccomp/groups.cc): "@name" -> members


def read_facts(facts_bin: str | None) -> SourceFacts:
    """Layers and syscall groups as printed by the docs_facts helper (or none)."""
    if not facts_bin:
        return SourceFacts([], {})
    proc = subprocess.run([facts_bin], capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        raise SystemExit(f"docs-sync: {facts_bin} exited {proc.returncode}: {proc.stderr}")
    layers: list[str] = []
    groups: dict[str, list[str]] = {}
    for line in proc.stdout.splitlines():
        words = line.split()
        if words[:1] == ["layer"] and len(words) == 2:
            layers.append(words[1])
        elif words[:1] == ["group"] and len(words) >= 3:
            groups[words[1]] = words[3:]
    return SourceFacts(layers, groups)


def has_word(text: str, word: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_-]){re.escape(word)}(?![A-Za-z0-9_-])", text) is not None


def check_man(cli: Cli, name: str, offer: Offer, terms: set[str]) -> list[str]:
    errors = []
    for sub in cli.subcommands:
        if sub not in offer.subcommands:
            errors.append(f"{name}: subcommand '{sub}' has no '## {sub}' subsection under COMMANDS")
            continue
        for opt in sorted(cli.names(sub) - offer.options[sub]):
            errors.append(f"{name}: option {opt} of '{sub}' is not named in the '## {sub}' "
                          "subsection of COMMANDS")
    every = set().union(*(cli.names(s) for s in [ROOT, *cli.subcommands]))
    for opt in sorted(every - terms):
        errors.append(f"{name}: option {opt} is not documented in OPTIONS (a '*{opt}*' term line)")
    for opt in sorted(terms - every):
        errors.append(f"{name}: OPTIONS documents {opt}, which `agentjail --help` does not have")
    for sub in sorted(offer.subcommands - set(cli.subcommands)):
        errors.append(f"{name}: COMMANDS documents '{sub}', which `agentjail --help` does not list")
    return errors


def check_completion(cli: Cli, name: str, offer: Offer) -> list[str]:
    errors = []
    for sub in cli.subcommands:
        if sub not in offer.subcommands:
            errors.append(f"{name}: subcommand '{sub}' is not offered")
    for sub in [ROOT, *cli.subcommands]:
        where = f"'{sub}'" if sub else "the top level"
        want = cli.root_names() if sub == ROOT else cli.names(sub)
        have = offer.options.get(sub, set())
        for opt in sorted(want - have):
            errors.append(f"{name}: option {opt} is not offered for {where}")
        for opt in sorted(have - want):
            errors.append(f"{name}: offers {opt} for {where}, which `agentjail "
                          f"{sub + ' ' if sub else ''}--help` does not have")
    for sub in sorted(offer.subcommands - set(cli.subcommands)):
        errors.append(f"{name}: offers subcommand '{sub}', which `agentjail --help` does not list")
    seen: set[str] = set()
    for sub in [ROOT, *cli.subcommands]:
        for opt_name, opt in cli.options[sub].items():
            if opt_name in seen:
                continue
            seen.add(opt_name)
            if opt.takes_value and opt_name not in offer.with_value:
                errors.append(f"{name}: option {opt_name} takes a value but is completed as a flag")
            if not opt.takes_value and opt_name in offer.with_value:
                errors.append(f"{name}: option {opt_name} is a flag but is completed as taking a value")
            for value in opt.values:
                if not has_word(offer.value_text(opt_name), value):
                    errors.append(f"{name}: value '{value}' of {opt_name} is not offered")
    return errors


def man_entries(text: str) -> dict[str, str]:
    """Option -> the text of its OPTIONS entry (its term line up to the next one)."""
    entries: dict[str, str] = {}
    current: list[str] = []
    for line in scd_sections(text, "#").get("OPTIONS", "").splitlines():
        if line.startswith("*-"):
            current = sorted(option_tokens(line))
        elif line.startswith("#"):
            current = []
        for opt in current:
            entries[opt] = entries.get(opt, "") + line + "\n"
    return entries


def check_enum_values_in_man(cli: Cli, name: str, text: str) -> list[str]:
    entries = man_entries(text)
    errors = []
    seen = set()
    for sub in [ROOT, *cli.subcommands]:
        for opt_name, opt in cli.options[sub].items():
            for value in opt.values:
                if (opt_name, value) not in seen and not has_word(entries.get(opt_name, ""), value):
                    errors.append(f"{name}: value '{value}' of {opt_name} is not described in its "
                                  "OPTIONS entry")
                seen.add((opt_name, value))
    return errors


def check_layers(layers: list[str], name: str, text: str, what: str) -> list[str]:
    return [f"{name}: layer '{layer}' (src/policy/layers.cc) is not {what}"
            for layer in layers if not has_word(text, layer)]


def scd_unescape(text: str) -> str:
    return re.sub(r"\\([_*\\])", r"\1", text)


def check_groups(groups: dict[str, list[str]], name: str, text: str) -> list[str]:
    section = scd_unescape(scd_sections(text, "#").get("SYSCALL GROUPS", ""))
    entries: dict[str, str] = {}
    current = None
    for line in section.splitlines():
        term = re.fullmatch(r"\*(@[A-Za-z0-9_-]+)\*\s*", line)
        if term:
            current = term.group(1)
            entries[current] = ""
        elif current and line.startswith("\t"):
            entries[current] += line + "\n"
        else:
            current = None
    errors = []
    for group, members in groups.items():
        if group not in entries:
            errors.append(f"{name}: group {group} (src/seccomp/groups.cc) has no '*{group}*' "
                          "entry in SYSCALL GROUPS")
            continue
        for m in members:
            if not has_word(entries[group], m):
                errors.append(f"{name}: SYSCALL GROUPS entry {group} does not list '{m}'")
    for group in sorted(set(entries) - set(groups)):
        errors.append(f"{name}: SYSCALL GROUPS documents {group}, which src/seccomp/groups.cc "
                      "does not define")
    return errors


def check_all(cli: Cli, texts: dict[str, str], facts: SourceFacts) -> list[str]:
    """texts: relative path -> contents of the five documents."""
    man1 = "man/agentjail.1.scd"
    offer, terms = parse_man(texts[man1])
    errors = check_man(cli, man1, offer, terms)
    errors += check_enum_values_in_man(cli, man1, texts[man1])
    parsers = {"completions/agentjail.bash": parse_bash, "completions/_agentjail": parse_zsh,
               "completions/agentjail.fish": parse_fish}
    for name, parse in parsers.items():
        completion = parse(texts[name])
        errors += check_completion(cli, name, completion)
        if any("--require" in cli.names(s) for s in cli.subcommands):
            errors += check_layers(facts.layers, name, completion.value_text("--require"),
                                   "offered for --require")
    for name in ("man/agentjail.1.scd", "man/agentjail.toml.5.scd"):
        errors += check_layers(facts.layers, name, texts[name], "mentioned")
    if facts.groups:
        errors += check_groups(facts.groups, "man/agentjail.toml.5.scd",
                               texts["man/agentjail.toml.5.scd"])
    return errors


DOCUMENTS = ["man/agentjail.1.scd", "man/agentjail.toml.5.scd", "completions/agentjail.bash",
             "completions/_agentjail", "completions/agentjail.fish"]


def read_documents(source_root: str) -> dict[str, str]:
    texts = {}
    for rel in DOCUMENTS:
        with open(os.path.join(source_root, rel), encoding="utf-8") as f:
            texts[rel] = f.read()
    return texts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agentjail", required=True, help="the built agentjail binary")
    ap.add_argument("--facts", help="the built docs_facts helper (layers, syscall groups)")
    ap.add_argument("--source-root", required=True, help="holds man/ and completions/")
    args = ap.parse_args()
    cli = read_cli(args.agentjail)
    errors = check_all(cli, read_documents(args.source_root), read_facts(args.facts))
    for e in errors:
        print(f"docs-sync: {e}")
    if errors:
        print(f"docs-sync: {len(errors)} problem(s); update the man page and completions "
              "together with src/cli/cli.cc")
        return 1
    count = len(set().union(*(cli.names(s) for s in [ROOT, *cli.subcommands])))
    print(f"docs-sync: ok: {len(cli.subcommands)} subcommands, {count} options, "
          f"{len(DOCUMENTS)} documents")
    return 0


if __name__ == "__main__":
    sys.exit(main())
