#!/bin/bash
# The jail's sources (binds, and Landlock's grants) are the real paths the
# plan resolved, opened without following symbolic links: another session
# writing the same workspace cannot swap a directory the plan checked (.git)
# for a link to a host directory between the check and the mount, and so
# pull that directory into this jail. A swapper exchanges .git with a link to
# a directory outside while jails start and read .git/SECRET: the secret must
# never show; each run sees the directory (plan and mount agree), or is
# refused (the link met at plan time or, with the fix, at mount time). Skipped
# when no run hit the race window.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

bait=SECRET-$(unique_token)
mkfile_as_user "$RUN/outside/SECRET" "$bait"
mkdir "$WS/.git" && chown "$TEST_UID:$TEST_GID" "$WS/.git"
as_user ln -s "$RUN/outside" "$WS/.gitx" || die "cannot make the link"
swapper=$(install_probe swapdirs)

# Control: through the link itself, the secret reads.
capture as_user cat "$WS/.gitx/SECRET"
check_capture "control: the secret is readable through the link outside the jail" out_has_line "$bait"

start_bg "$swapper" "$WS" .git .gitx 120
leaks=0 raced=0 planned=0 clean=0 tries=0
while [ $tries -lt 400 ] && [ $raced -lt 10 ]; do
  tries=$((tries + 1))
  capture jail --journal off -q -- cat "$WS/.git/SECRET"
  if out_has "$bait" || any_matches "$bait"; then
    leaks=$((leaks + 1))
    show_capture
  elif any_matches "Too many levels of symbolic links"; then
    raced=$((raced + 1))
    [ $raced -le 3 ] && note "refused: $(printf '%s\n' "$ERR" | grep -m1 'Too many levels')"
  elif any_matches "outside the workspace"; then
    planned=$((planned + 1))
  else
    clean=$((clean + 1))
  fi
done
kill "$BG_PID" 2>/dev/null
wait "$BG_PID" 2>/dev/null
note "$tries runs: $clean saw the directory, $planned refused at plan time, $raced refused while the jail was built, $leaks leaked"
[ $raced -gt 0 ] || [ $leaks -gt 0 ] || skip "no run hit the window between plan and mount ($tries runs)"
check "no run read the secret through a swapped-in link ($leaks of $tries leaked)" [ $leaks -eq 0 ]
check "runs that met the link while the jail was built were refused ($raced)" [ $raced -gt 0 ]

finish
