#!/bin/sh
# The code is clean under the repository's .clang-format. Skipped (77) when
# clang-format is not installed.
set -u
root=$1
command -v clang-format >/dev/null || { echo "SKIP: clang-format not installed"; exit 77; }
cd "$root" || exit 1
files=$(git ls-files 'src/*.cc' 'src/*.h' 'tests/unit/*.cc' 'tests/lint/*.cc' 2>/dev/null)
[ -n "$files" ] || files=$(find src tests/unit tests/lint -name '*.cc' -o -name '*.h')
# shellcheck disable=SC2086
clang-format --dry-run --Werror $files
