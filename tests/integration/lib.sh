# Common helpers for the integration tests. Sourced by every tests/integration/*.sh.
#
# Each test runs the real agentjail binary as the user named by AJ_TEST_AS
# (root or nobody), shows the forbidden thing failing inside the jail, and, as
# a control, the same action succeeding without the jail, so that a broken test
# environment cannot pass silently.
#
# Environment (set by meson): AGENTJAIL (the binary), AJ_SOURCE_ROOT (for
# profiles/), AJ_TEST_AS (root|nobody), AJ_TEST_MODE (userns, the default, or
# nouserns: every jailed run gets --no-userns), AJ_PROBE_DIR (compiled probes).
# Set by hand: AJ_TEST_LANDLOCK_ABI=N runs every jail with --landlock-abi N,
# the suite as on an older kernel (AJ_TEST_LANDLOCK_ABI=2 meson test: Debian
# 12's 6.1); tests that depend on the ABI ask jail_landlock_abi.
# Exit status: 0 all checks passed, 1 a check failed, 77 skipped (reason printed).
#
# Everything the test user needs (binary, profiles, workspace, fake HOME) is
# copied into a fresh directory under /tmp: the source tree may live where
# nobody cannot read it.
#
# Tests that run the jail under script(1) with stdin at end of file strip a
# leading "^@": script types an end-of-file character when its stdin ends,
# and the jail's own terminal (relayed, the user's in raw mode) echoes it.

set -u

: "${AGENTJAIL:?AGENTJAIL must name the agentjail binary}"
AJ_TEST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
AJ_SOURCE_ROOT=${AJ_SOURCE_ROOT:-$(cd "$AJ_TEST_DIR/../.." && pwd)}
AJ_TEST_AS=${AJ_TEST_AS:-root}
AJ_PROBE_DIR=${AJ_PROBE_DIR:-}
AJ_TEST_TIMEOUT=${AJ_TEST_TIMEOUT:-60}
AJ_TEST_MODE=${AJ_TEST_MODE:-userns}

readonly kSkip=77
_failures=0
_checks=0
_bg_pids=()
T=""

note() { printf '# %s\n' "$*"; }
pass() { _checks=$((_checks + 1)); printf 'ok   - %s\n' "$*"; }
fail() { _checks=$((_checks + 1)); _failures=$((_failures + 1)); printf 'FAIL - %s\n' "$*"; }

# Prints the last captured output (OUT, ERR, RC), indented, for a failure report.
show_capture() {
  printf '       exit status: %s\n' "${RC:-?}"
  [ -n "${OUT:-}" ] && printf '%s\n' "$OUT" | sed 's/^/       stdout| /'
  [ -n "${ERR:-}" ] && printf '%s\n' "$ERR" | sed 's/^/       stderr| /'
  return 0
}

# check DESC CMD...: pass when CMD succeeds.
check() {
  local desc=$1
  shift
  if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# check_capture DESC CMD...: like check, but show the last capture on failure.
check_capture() {
  local desc=$1
  shift
  if "$@"; then
    pass "$desc"
  else
    fail "$desc"
    show_capture
  fi
}

skip() {
  printf 'SKIP - %s\n' "$*"
  _cleanup
  trap - EXIT
  exit "$kSkip"
}

# Ends the test: 1 if any check failed or none ran, else 0.
finish() {
  if [ "$_checks" -eq 0 ]; then
    fail "the test ran no checks"
  fi
  printf '# %d checks, %d failed (as %s)\n' "$_checks" "$_failures" "$AJ_TEST_AS"
  [ "$_failures" -eq 0 ] && exit 0
  exit 1
}

# A setup step that cannot go wrong in a sane environment; abort loudly if it does.
die() {
  printf 'ERROR - test setup: %s\n' "$*" >&2
  exit 99
}

_cleanup() {
  local pid
  for pid in "${_bg_pids[@]}"; do
    kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  done
  local cg
  for cg in "${_safety_cgroups[@]}"; do
    # Processes left in it were started by this test; kill them by pid.
    for pid in $(cat "$cg/cgroup.procs" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
    for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 0.1; done
  done
  if [ -n "$T" ] && [ -d "$T" ]; then
    rm -rf -- "$T" 2>/dev/null || { sleep 0.2; rm -rf -- "$T"; }
  fi
  return 0
}

# Remember a PID this test started, so cleanup kills exactly that process.
track_pid() { _bg_pids+=("$1"); }

# The identity tests run as. Sets TEST_UID, TEST_GID, TEST_USER.
_pick_identity() {
  case "$AJ_TEST_AS" in
    root) TEST_UID=0 TEST_GID=0 TEST_USER=root ;;
    nobody) TEST_UID=65534 TEST_GID=65534 TEST_USER=nobody ;;
    *) die "AJ_TEST_AS must be root or nobody, not '$AJ_TEST_AS'" ;;
  esac
  HARNESS_UID=$(id -u)
  if [ "$HARNESS_UID" -ne 0 ]; then
    # An unprivileged developer can run the unprivileged suite as themselves.
    [ "$AJ_TEST_AS" = root ] && skip "the root suite needs root (running as uid $HARNESS_UID)"
    TEST_UID=$HARNESS_UID TEST_GID=$(id -g) TEST_USER=$(id -un)
  fi
}

# _user_cmd CMD...: set UCMD to CMD run as the test user with a clean,
# predictable environment. AJ_PREFIX (an array, normally empty) goes in front,
# e.g. an nsenter command.
_user_cmd() {
  local envv=(env -i "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    "HOME=$FAKE_HOME" "USER=$TEST_USER" "LOGNAME=$TEST_USER" "LANG=C.UTF-8" "TERM=dumb"
    ${AJ_EXTRA_ENV[@]+"${AJ_EXTRA_ENV[@]}"})
  UCMD=(${AJ_PREFIX[@]+"${AJ_PREFIX[@]}"})
  if [ "$HARNESS_UID" -eq 0 ] && [ "$TEST_UID" -ne 0 ]; then
    UCMD+=(setpriv --reuid="$TEST_UID" --regid="$TEST_GID" --clear-groups --)
  fi
  UCMD+=("${envv[@]}" "$@")
}

# as_user CMD...: run CMD as the test user, in $WS, with a clean environment.
as_user() {
  _user_cmd "$@"
  (cd "$WS" && exec "${UCMD[@]}")
}

# start_bg CMD...: like as_user, in the background; BG_PID is CMD's own pid
# (every wrapper execs), tracked for cleanup.
start_bg() {
  _user_cmd "$@"
  (cd "$WS" && exec "${UCMD[@]}") &
  BG_PID=$!
  track_pid "$BG_PID"
}

# aj ARGS...: agentjail exactly as given (subcommands), as the test user, in $WS,
# bounded by a generous timeout so a hung jail fails the test instead of the
# run. A hung run returns 254 with a message on stderr (never 124, which a
# test of --timeout expects from agentjail itself).
readonly kHung=254
aj() {
  local start=$SECONDS rc
  as_user timeout --preserve-status -s KILL "$AJ_TEST_TIMEOUT" "$AJ" "$@"
  rc=$?
  if [ $((SECONDS - start)) -ge "$AJ_TEST_TIMEOUT" ]; then
    echo "lib.sh: agentjail did not finish within ${AJ_TEST_TIMEOUT}s; killed (status $rc)" >&2
    return "$kHung"
  fi
  return "$rc"
}

# jail ARGS...: `agentjail run` with the copied profiles (default profile);
# in the nouserns mode with --no-userns; with AJ_TEST_LANDLOCK_ABI, with
# --landlock-abi.
jail() {
  local mode=()
  [ "$AJ_TEST_MODE" = nouserns ] && mode+=(--no-userns)
  [ -n "${AJ_TEST_LANDLOCK_ABI:-}" ] && mode+=(--landlock-abi "$AJ_TEST_LANDLOCK_ABI")
  aj --profile-dir "$PROFILES" ${mode[@]+"${mode[@]}"} "$@"
}

# The Landlock ABI a jailed run uses: the kernel's, or AJ_TEST_LANDLOCK_ABI
# when that is lower.
jail_landlock_abi() {
  local abi
  abi=$(python3 -c 'import ctypes; print(max(ctypes.CDLL(None).syscall(444, None, 0, 1), 0))')
  if [ -n "${AJ_TEST_LANDLOCK_ABI:-}" ] && [ "$AJ_TEST_LANDLOCK_ABI" -lt "$abi" ]; then
    abi=$AJ_TEST_LANDLOCK_ABI
  fi
  echo "$abi"
}

# JAIL_ARGV: the argv of a jailed run without the timeout wrapper, for start_bg.
jail_argv() {
  JAIL_ARGV=("$AJ" --profile-dir "$PROFILES")
  [ "$AJ_TEST_MODE" = nouserns ] && JAIL_ARGV+=(--no-userns)
  [ -n "${AJ_TEST_LANDLOCK_ABI:-}" ] && JAIL_ARGV+=(--landlock-abi "$AJ_TEST_LANDLOCK_ABI")
  JAIL_ARGV+=("$@")
}

# write_profile NAME: a profile from stdin, in the copied profile directory.
write_profile() {
  cat >"$PROFILES/$1.toml"
  chmod 644 "$PROFILES/$1.toml"
}

# in_plain_namespaces CMD...: CMD as the test user, mapped to root, in fresh
# user, mount and network namespaces without agentjail: the control that shows
# what a user namespace alone would allow (the jail's other layers must refuse
# it).
in_plain_namespaces() {
  as_user unshare --user --map-root-user --mount --net --propagation private "$@"
}

# enter_safety_cgroup MAXPIDS: every later as_user/jail/aj command runs in a
# fresh pids cgroup capped at MAXPIDS, so a test of the jail's own process limit
# cannot hurt the host if the jail fails. Needs the harness to be root.
enter_safety_cgroup() {
  local base
  for base in /sys/fs/cgroup/pids /sys/fs/cgroup; do
    [ -w "$base/cgroup.procs" ] || continue
    [ -f "$base/pids.max" ] || [ "$base" = /sys/fs/cgroup/pids ] ||
      grep -qw pids "$base/cgroup.subtree_control" 2>/dev/null || continue
    SAFETY_CGROUP=$base/aj-itest-$$-$RANDOM
    mkdir "$SAFETY_CGROUP" 2>/dev/null || continue
    if echo "$1" >"$SAFETY_CGROUP/pids.max" 2>/dev/null; then
      AJ_PREFIX=(sh -c 'echo $$ > "$0" && exec "$@"' "$SAFETY_CGROUP/cgroup.procs")
      _safety_cgroups+=("$SAFETY_CGROUP")
      note "safety net: $SAFETY_CGROUP (pids.max $1)"
      return 0
    fi
    rmdir "$SAFETY_CGROUP"
  done
  return 1
}
_safety_cgroups=()

# capture CMD...: run CMD; set OUT (stdout), ERR (stderr) and RC.
capture() {
  "$@" >"$T/.out" 2>"$T/.err"
  RC=$?
  OUT=$(cat "$T/.out")
  ERR=$(cat "$T/.err")
}

# Predicates over the last capture. A command whose running must be detected
# prints a computed word (echo RAN-$((6*7)) prints RAN-42) so that a plan or
# message quoting the command line is not mistaken for it running.
rc_is() { [ "$RC" -eq "$1" ]; }
out_has_line() { printf '%s\n' "$OUT" | grep -qxF -- "$1"; }
out_matches() { printf '%s\n' "$OUT" | grep -qE -- "$1"; }
out_has() { printf '%s\n' "$OUT" | grep -qF -- "$1"; }
out_lacks() { ! printf '%s\n' "$OUT" | grep -qF -- "$1"; }
err_matches() { printf '%s\n' "$ERR" | grep -qE -- "$1"; }
any_matches() { printf '%s\n%s\n' "$OUT" "$ERR" | grep -qE -- "$1"; }
all_lacks() { ! printf '%s\n%s\n' "$OUT" "$ERR" | grep -qF -- "$1"; }

# int_le VALUE MAX: VALUE is an integer no larger than MAX.
int_le() { [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -le "$2" ]; }
# set_and_not VALUE UNWANTED: VALUE is non-empty and differs from UNWANTED.
set_and_not() { [ -n "$1" ] && [ "$1" != "$2" ]; }
# field NAME: the value of the line "NAME:value" in the last captured stdout.
field() { printf '%s\n' "$OUT" | sed -n "s/^$1://p" | head -n1; }

# journal_execs FILE: one line per exec event of a journal,
# "NAME PID PPID DECISION PATH ARGV": NAME the path's last component, ARGV
# the argv as compact JSON (last, as it may hold spaces; PATH may not).
journal_execs() {
  python3 - "$1" <<'PY'
import json, os, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "exec":
        path = str(e.get("path"))
        print(os.path.basename(path), e.get("pid"), e.get("ppid"), e.get("decision"), path,
              json.dumps(e.get("argv"), separators=(",", ":")))
PY
}

# Can the test user create a user namespace? (Actually tried, not guessed.)
userns_available() {
  as_user unshare --user true 2>/dev/null
}

# Skip unless the kernel lets the test user create user namespaces: the jail is
# built on them. Prints the kernel's answer as the reason. (Not needed in the
# nouserns mode.)
require_userns() {
  [ "$AJ_TEST_MODE" = nouserns ] && return 0
  local why
  if ! why=$(as_user unshare --user true 2>&1); then
    skip "user namespaces are not available to $TEST_USER on this kernel: $why"
  fi
}

require_root_harness() {
  [ "$HARNESS_UID" -eq 0 ] || skip "$1 (needs the harness to run as root)"
}

# mkfile_as_user PATH CONTENT: a file owned by the test user.
mkfile_as_user() {
  mkdir -p "$(dirname "$1")"
  printf '%s\n' "$2" >"$1"
  chown "$TEST_UID:$TEST_GID" "$1" "$(dirname "$1")"
}

# install_probe NAME: copy a probe (compiled, from AJ_PROBE_DIR, or a script
# from tests/integration/probe/) into the workspace, where it is visible and
# executable inside the jail; prints its path there.
install_probe() {
  local src="$AJ_PROBE_DIR/$1"
  [ -f "$src" ] || src="$AJ_TEST_DIR/probe/$1"
  [ -f "$src" ] || die "probe '$1' not found (AJ_PROBE_DIR=$AJ_PROBE_DIR)"
  mkdir -p "$WS/.probe"
  cp "$src" "$WS/.probe/$1"
  chown -R "$TEST_UID:$TEST_GID" "$WS/.probe"
  chmod 755 "$WS/.probe" "$WS/.probe/$1"
  printf '%s\n' "$WS/.probe/$1"
}

# start_unix_listener ADDR: probe/unixsock.py serving "hello" at ADDR (a
# path, or @name for an abstract socket) on the host, as the test user, until
# the test ends. Sets UNIXSOCK to the probe (its `connect ADDR` is the client).
start_unix_listener() {
  UNIXSOCK=$(install_probe unixsock.py)
  rm -f "$RUN/unixsock.ready"
  start_bg /usr/bin/python3 "$UNIXSOCK" listen "$1" "$RUN/unixsock.ready"
  wait_until 5 [ -s "$RUN/unixsock.ready" ] || die "the unix socket listener at $1 did not start"
}

# A unique token for markers (argv of daemons, bait contents).
unique_token() { printf '%s%05d%05d' "$$" "$RANDOM" "$RANDOM"; }

# wait_until SECONDS CMD...: poll CMD every 50 ms; succeed as soon as it does.
wait_until() {
  local deadline=$((SECONDS + $1))
  shift
  while :; do
    "$@" && return 0
    [ "$SECONDS" -ge "$deadline" ] && return 1
    sleep 0.05
  done
}

# Host-side view of a marker process (read-only; never used to kill by name).
marker_alive() { pgrep -f -- "$1" >/dev/null; }
marker_gone() { ! pgrep -f -- "$1" >/dev/null; }

# Sets T (scratch root), AJ (copied binary), PROFILES, WS (workspace, also cwd),
# FAKE_HOME, RUN (scratch for the test user's own host-side processes);
# installs the cleanup trap.
aj_setup() {
  _pick_identity
  [ -x "$AGENTJAIL" ] || die "AGENTJAIL '$AGENTJAIL' is not an executable"
  T=$(mktemp -d /tmp/aj-itest.XXXXXX) || die "mktemp failed"
  trap _cleanup EXIT
  trap 'exit 130' INT TERM
  chmod 755 "$T"
  mkdir -p "$T/bin" "$T/ws" "$T/home" "$T/run"
  cp "$AGENTJAIL" "$T/bin/agentjail"
  cp -r "$AJ_SOURCE_ROOT/profiles" "$T/profiles"
  chmod -R a+rX "$T/bin" "$T/profiles"
  chown "$TEST_UID:$TEST_GID" "$T/ws" "$T/home" "$T/run"
  chmod 755 "$T/ws" "$T/home" "$T/run"
  AJ=$T/bin/agentjail
  PROFILES=$T/profiles
  WS=$T/ws
  FAKE_HOME=$T/home
  RUN=$T/run
  AJ_EXTRA_ENV=()
  AJ_PREFIX=()
  note "as $TEST_USER (uid $TEST_UID), mode $AJ_TEST_MODE, binary $AJ, workspace $WS, HOME $FAKE_HOME"
  if [ "$AJ_TEST_MODE" = nouserns ] && [ "${AJ_TEST_LANDLOCK_ABI:-}" = 0 ]; then
    skip "agentjail refuses to run with neither user namespaces nor Landlock (AJ_TEST_LANDLOCK_ABI=0)"
  fi
}

# git_workspace: git and python3 are needed; g runs git as the test user with
# an identity; the workspace becomes a repository with one commit.
git_workspace() {
  command -v git >/dev/null || die "git is needed"
  command -v python3 >/dev/null || die "python3 is needed"
  g() { as_user git -c user.name=t -c user.email=t@t.invalid "$@"; }
  g init -q "$WS" && g -C "$WS" commit -q --allow-empty -m top || die "git failed"
}
