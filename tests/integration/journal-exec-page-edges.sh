#!/bin/bash
# An exec's path and argv are journaled whole when they sit at the edge of a
# page: the supervisor reads whole pages first, and must read on where a
# string or argv's pointer array crosses into the next page (mapped or not).
# An argument filling exactly one page is as long as the journal keeps one
# (4096 bytes) and is recorded whole, not marked as cut.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

probe=$(install_probe execedge)
J=$RUN/j.jsonl
long="SPL$(printf 'x%.0s' $(seq 297))"
page_arg=$(head -c "$(getconf PAGESIZE)" /dev/zero | tr '\0' y)
script="$probe path-end; $probe argv-end; $probe split; $probe page-arg"

# Control: outside the jail each layout execs echo with its arguments.
capture as_user sh -c "$script"
check_capture "control: the three layouts exec echo without the jail" \
  out_has_line "edge-path-end done"
check_capture "control: the split argument reaches echo whole" out_has_line "edge-split $long"
check_capture "control: the page-long argument reaches echo whole" \
  out_has_line "edge-page-arg $page_arg"

capture jail --journal "$J" -- sh -c "$script"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: the argv-end layout ran echo" out_has_line "edge-argv-end done"

# "PATH ARGV" per exec of echo.
execs=$(journal_execs "$J" | awk '$1 == "echo"' | cut -d' ' -f5-)
OUT=$execs ERR="" RC=0
check_capture "journal: the path ending at a page's last byte is whole" \
  out_has_line '/bin/echo ["echo","edge-path-end","done"]'
check_capture "journal: argv whose NULL ends a page is whole" \
  out_has_line '/bin/echo ["echo","edge-argv-end","done"]'
check_capture "journal: the path and the argument crossing into the next page are whole" \
  out_has_line "/bin/echo [\"echo\",\"edge-split\",\"$long\"]"
if [ "${#page_arg}" -le 4096 ]; then
  check_capture "journal: the argument filling a page (${#page_arg} bytes) is whole, not cut" \
    out_has_line "/bin/echo [\"echo\",\"edge-page-arg\",\"$page_arg\"]"
fi

finish
