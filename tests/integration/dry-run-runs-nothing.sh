#!/bin/bash
# --dry-run prints the plan and runs nothing: no command, no sandbox; the plan
# names the workspace and the command.
source "$(dirname "$0")/lib.sh"
aj_setup

cmd=(sh -c 'touch "$1"; echo RAN-$((6*7))' sh "$WS/ran-marker")

# Control: the same invocation without --dry-run runs the command.
if userns_available; then
  capture jail -- "${cmd[@]}"
  check_capture "control: without --dry-run the command runs" out_has_line RAN-42
  check "control: ... and leaves its marker" [ -e "$WS/ran-marker" ]
  rm -f "$WS/ran-marker"
else
  capture as_user "${cmd[@]}"
  check_capture "control: the command runs without the jail" out_has_line RAN-42
  rm -f "$WS/ran-marker"
fi

for flag in --dry-run -n; do
  capture jail "$flag" -- "${cmd[@]}"
  check_capture "$flag exits 0" rc_is 0
  check_capture "$flag does not run the command" all_lacks RAN-42
  check "$flag leaves no marker" [ ! -e "$WS/ran-marker" ]
  check_capture "$flag prints a plan" [ -n "$OUT$ERR" ]
  check_capture "$flag: the plan names the workspace" any_matches "$WS"
  check_capture "$flag: the plan names the command" any_matches 'ran-marker|sh'
  check_capture "$flag: the plan mentions a read-only /usr" any_matches '/usr'
done

finish
