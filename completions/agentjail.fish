# fish completion for agentjail(1).
#
# tests/lint/docs_sync.py checks these lines against `agentjail SUB --help`:
# every option needs a `complete` line whose `__agentjail_using` condition
# names each subcommand that accepts it, and an option that takes a value must
# be in the value_opts list of __agentjail_state.

# Prints the subcommand ("" before one is typed; "run" once an option or the
# COMMAND shows it is implied), then the index in `commandline -opc` where
# run's COMMAND starts (0 while still in agentjail's own options).
function __agentjail_state
    set -l value_opts -p --profile --profile-dir -w --workspace --ro --rw --hide --tmpfs \
        --net -e --env --timeout --landlock-abi --require --pass-fd --journal --event
    set -l tokens (commandline -opc)
    set -l sub ""
    set -l skip 0
    for i in (seq 2 (count $tokens))
        set -l t $tokens[$i]
        if test $skip -eq 1
            set skip 0
            continue
        end
        if test -z "$sub"
            if contains -- $t run check explain features profiles journal sessions
                set sub $t
                continue
            end
            set sub run
        end
        if test "$t" = --
            if test $sub = run
                printf '%s\n' $sub (math $i + 1)
                return
            end
        else if contains -- $t $value_opts
            set skip 1
        else if not string match -q -- '-*' $t; and test $sub = run
            printf '%s\n' $sub $i
            return
        end
    end
    printf '%s\n' "$sub" 0
end

# True at the first argument, where a subcommand (or the COMMAND of the
# implied run) is expected.
function __agentjail_at_start
    test (count (commandline -opc)) -eq 1
end

# True while completing agentjail's own options for one of the subcommands
# given; before any subcommand is typed, `run` is implied.
function __agentjail_using
    set -l state (__agentjail_state)
    test $state[2] -eq 0; or return 1
    set -l sub $state[1]
    test -z "$sub"; and set sub run
    contains -- $sub $argv
end

function __agentjail_in_command
    set -l state (__agentjail_state)
    test $state[2] -gt 0
end

# Completes run's COMMAND and its arguments as a command line of its own.
function __agentjail_complete_command
    set -l state (__agentjail_state)
    set -l tokens (commandline -opc)
    set -l cmd $tokens[$state[2]..-1] (commandline -ct)
    __fish_complete_subcommand --commandline $cmd
end

# Profile names: the first field of each line of `agentjail profiles`, with
# the --profile-dir already on the line. Failure offers nothing.
function __agentjail_profile_names
    set -l tokens (commandline -opc)
    set -l args profiles
    for i in (seq 2 (count $tokens))
        if test "$tokens[$i]" = --profile-dir; and set -q tokens[(math $i + 1)]
            set args $args --profile-dir $tokens[(math $i + 1)]
        else if string match -q -- '--profile-dir=*' $tokens[$i]
            set args $args $tokens[$i]
        end
    end
    type -q -- $tokens[1]; or return
    set -l out ($tokens[1] $args 2>/dev/null </dev/null); or return
    string match -r '^[A-Za-z0-9._+-]+(?=\s|$)' -- $out
end

function __agentjail_profile_args
    __agentjail_profile_names
    set -l cur (commandline -ct)
    for f in $cur*.toml $cur*/
        echo $f
    end
end

# Recorded session IDs: the journals' names in the sessions directory.
function __agentjail_session_ids
    set -l base $HOME/.local/state
    test -n "$XDG_STATE_HOME"; and set base $XDG_STATE_HOME
    for f in $base/agentjail/sessions/*.jsonl
        string replace -r '^.*/(.*)\.jsonl$' '$1' -- $f
    end
end

complete -c agentjail -f

# Subcommands, or the COMMAND of the implied run.
complete -c agentjail -n __agentjail_at_start -a run -d 'Run COMMAND in the jail (the default)'
complete -c agentjail -n __agentjail_at_start -a check -d 'Validate profiles'
complete -c agentjail -n __agentjail_at_start -a explain -d 'Show the effective policy'
complete -c agentjail -n __agentjail_at_start -a features -d 'Show what this kernel offers'
complete -c agentjail -n __agentjail_at_start -a profiles -d 'List profiles'
complete -c agentjail -n __agentjail_at_start -a journal -d 'Show the journal of a session'
complete -c agentjail -n __agentjail_at_start -a sessions -d 'List recorded sessions'
complete -c agentjail -n __agentjail_at_start -a '(__fish_complete_command)'
complete -c agentjail -n __agentjail_at_start -l version -d 'Print the version and exit'

complete -c agentjail -n '__agentjail_using run check explain features profiles journal sessions' -s h -l help -d 'Print help and exit'
complete -c agentjail -n '__agentjail_using run explain profiles' -s p -l profile -x -a '(__agentjail_profile_args)' -d 'Profile name or path'
complete -c agentjail -n '__agentjail_using run check explain profiles' -l profile-dir -x -a '(__fish_complete_directories)' -d 'Look for profiles here first'
complete -c agentjail -n '__agentjail_using run explain' -s w -l workspace -x -a '(__fish_complete_directories)' -d 'Workspace directory'
complete -c agentjail -n '__agentjail_using run explain' -l ro -r -F -d 'Also bind PATH read-only'
complete -c agentjail -n '__agentjail_using run explain' -l rw -r -F -d 'Also bind PATH read-write'
complete -c agentjail -n '__agentjail_using run explain' -l hide -r -F -d 'Hide PATH'
complete -c agentjail -n '__agentjail_using run explain' -l tmpfs -r -F -d 'Mount a private tmpfs at PATH'
complete -c agentjail -n '__agentjail_using run explain' -l net -x -a 'none\t"No network, loopback only" loopback\t"Loopback only" host\t"The host network"' -d Network
complete -c agentjail -n '__agentjail_using run explain' -s e -l env -x -a '(set -xn)' -d 'Pass NAME, or set NAME=VALUE'
complete -c agentjail -n '__agentjail_using run explain' -l timeout -x -d 'Wall-clock limit (90s, 2h); exit 124'
complete -c agentjail -n '__agentjail_using run explain' -l no-userns -d 'Do not use user namespaces'
complete -c agentjail -n '__agentjail_using run explain' -l share-terminal -d 'Give the command your terminal itself, not a relayed one'
complete -c agentjail -n '__agentjail_using run explain' -l landlock-abi -x -a '0 1 2 3 4 5 6 7' -d 'Use at most Landlock ABI N, as an older kernel would'
complete -c agentjail -n '__agentjail_using run explain' -l require -x -a 'userns landlock landlock-net landlock-scope seccomp cgroup netns' -d 'Refuse to start unless LAYER is active'
complete -c agentjail -n '__agentjail_using run explain' -l pass-fd -x -d 'Keep inherited file descriptor N open'
complete -c agentjail -n '__agentjail_using run' -s n -l dry-run -d 'Print the plan and run nothing'
complete -c agentjail -n '__agentjail_using run' -l journal -r -F -a '- off' -d 'Journal to PATH, - (stdout), fd:N or off'
complete -c agentjail -n '__agentjail_using run' -l trace -d 'Also journal the file opens the policy denies'
complete -c agentjail -n '__agentjail_using explain features journal' -l json -d 'Machine-readable output'
complete -c agentjail -n '__agentjail_using journal' -l last -d 'The newest recorded session'
complete -c agentjail -n '__agentjail_using journal' -l denied -d 'Only events whose decision is deny'
complete -c agentjail -n '__agentjail_using journal' -l event -x -a 'session.start session.end exec syscall.deny fs.deny limit signal net.connect net.request session net' -d 'Only events of TYPE'
complete -c agentjail -n '__agentjail_using journal' -s f -l follow -d 'Keep reading until the session ends'
complete -c agentjail -n '__agentjail_using run check explain features profiles journal sessions' -s v -l verbose -d 'More diagnostics'
complete -c agentjail -n '__agentjail_using run check explain features profiles journal sessions' -s q -l quiet -d 'Only errors'

# check PROFILE...
complete -c agentjail -n '__agentjail_using check' -a '(__agentjail_profile_args)'

# journal FILE|SESSION
complete -c agentjail -n '__agentjail_using journal' -F -a '(__agentjail_session_ids)'

# run's COMMAND [ARGS...]
complete -c agentjail -n __agentjail_in_command -a '(__agentjail_complete_command)'
