#!/bin/sh
# The whole test suite from a fresh clone: installs missing dependencies,
# builds (with -Werror), runs every test (unit, lint, integration as root and
# as an unprivileged user) and prints "N passed, N failed, N skipped".
set -eu
cd "$(dirname "$0")/.."
tools/deps.sh
BUILD=${AJ_BUILD_DIR:-build}
if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup "$BUILD" -Dwerror=true >/dev/null
else
  # A build directory from the Quick start: warnings are errors here too.
  meson configure "$BUILD" -Dwerror=true >/dev/null
fi
ninja -C "$BUILD"
status=0
meson test -C "$BUILD" --print-errorlogs "$@" || status=$?
log="$BUILD/meson-logs/testlog.json"
if [ -f "$log" ]; then
  python3 - "$log" <<'PY'
import json, sys
counts = {"passed": 0, "failed": 0, "skipped": 0}
for line in open(sys.argv[1]):
    r = json.loads(line).get("result", "")
    if r in ("OK", "EXPECTEDFAIL"): counts["passed"] += 1
    elif r == "SKIP":
        counts["skipped"] += 1
    else: counts["failed"] += 1
print(f'{counts["passed"]} passed, {counts["failed"]} failed, {counts["skipped"]} skipped')
PY
fi
exit $status
