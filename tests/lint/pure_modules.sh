#!/bin/sh
# The pure layers (profile, policy, plan) build values from values: they must
# not include system headers (<sys/...>, <linux/...>, <unistd.h>, <fcntl.h>).
# Side effects live in sys/, launch/ and supervise/.
# Usage: pure_modules.sh SOURCE_ROOT [DIR...]; prints offending lines, exit 1.
set -u
root=$1
shift
dirs=${*:-"src/profile src/policy src/plan"}
bad=0
for d in $dirs; do
  if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(sys/|linux/|unistd\.h|fcntl\.h)' \
      "$root/$d"/*.h "$root/$d"/*.cc; then
    bad=1
  fi
done
if [ "$bad" = 1 ]; then
  echo "pure modules include system headers (above): move that code to src/sys" >&2
  exit 1
fi
echo "pure modules include no system headers: $dirs"
