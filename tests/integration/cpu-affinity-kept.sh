#!/bin/bash
# The command may run on exactly the CPUs its caller may run on. (The
# launcher moves the jail's first process to another CPU while it builds the
# jail, then gives it the caller's whole set back.)
source "$(dirname "$0")/lib.sh"
aj_setup

allowed() { printf '%s\n' "$OUT" | sed -n 's/^Cpus_allowed_list:[[:space:]]*//p'; }
probe=(grep Cpus_allowed_list /proc/self/status)
jail_argv -- "${probe[@]}"

capture as_user "${probe[@]}"
host=$(allowed)
check_capture "control: the caller's CPU list is readable ($host)" [ -n "$host" ]

capture jail -- "${probe[@]}"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: the command may use the caller's CPUs ($host)" [ "$(allowed)" = "$host" ]

cpus=$(nproc --all)
if [ "$cpus" -ge 2 ]; then
  last=$((cpus - 1))
  capture as_user taskset -c "0,$last" "${JAIL_ARGV[@]}"
  both() { [ "$(allowed)" = "0,$last" ] || [ "$(allowed)" = "0-$last" ]; }
  check_capture "a caller limited to CPUs 0 and $last: the command has both" both
  capture as_user taskset -c "$last" "${JAIL_ARGV[@]}"
  check_capture "a caller limited to CPU $last: the command has only it" [ "$(allowed)" = "$last" ]
else
  note "one CPU: the launcher never moves the child, the checks above are all there is"
fi

finish
