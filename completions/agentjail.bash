# bash completion for agentjail(1)                         -*- shell-script -*-
#
# tests/lint/docs_sync.py checks these lists against `agentjail SUB --help`:
# keep one _agentjail_opts_SUB list per subcommand, and every option that takes
# a value in _agentjail_opts_with_value.

_agentjail_subcommands="run check explain features profiles journal sessions"
_agentjail_opts_global="-h --help --version"
_agentjail_opts_run="-h --help -p --profile --profile-dir -w --workspace --ro --rw --hide
  --tmpfs --net -e --env --timeout --no-userns --share-terminal --landlock-abi --require --pass-fd -n --dry-run
  --journal --trace -v --verbose -q --quiet"
_agentjail_opts_check="-h --help --profile-dir -v --verbose -q --quiet"
_agentjail_opts_explain="-h --help -p --profile --profile-dir -w --workspace --ro --rw --hide
  --tmpfs --net -e --env --timeout --no-userns --share-terminal --landlock-abi --require --pass-fd --json -v
  --verbose -q --quiet"
_agentjail_opts_features="-h --help --json -v --verbose -q --quiet"
_agentjail_opts_profiles="-h --help -p --profile --profile-dir -v --verbose -q --quiet"
_agentjail_opts_journal="-h --help --last --denied --event -f --follow --json -v --verbose
  -q --quiet"
_agentjail_opts_sessions="-h --help -v --verbose -q --quiet"
_agentjail_opts_with_value="-p --profile --profile-dir -w --workspace --ro --rw --hide --tmpfs
  --net -e --env --timeout --landlock-abi --require --pass-fd --journal --event"
_agentjail_net_modes="none loopback host"
_agentjail_layers="userns landlock landlock-net landlock-scope seccomp cgroup netns"
_agentjail_event_types="session.start session.end exec syscall.deny fs.deny limit signal
  net.connect net.request session net"

# Recorded session IDs: the journals' names in the sessions directory.
_agentjail_session_ids() {
  local base=$HOME/.local/state f
  [[ -n ${XDG_STATE_HOME:-} ]] && base=$XDG_STATE_HOME
  for f in "$base"/agentjail/sessions/*.jsonl; do
    [[ -f $f ]] && { f=${f##*/}; printf '%s\n' "${f%.jsonl}"; }
  done
}

# journal's FILE|SESSION.
_agentjail_journal_arg() {
  local cur=$1
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -W "$(_agentjail_session_ids)" -- "$cur"))
  mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -f -- "$cur")
}

# Profile names: the first field of each line of `agentjail profiles`. Any
# failure (no binary, a broken profile directory) just offers nothing.
_agentjail_profile_names() {
  local aj=$1 dir=$2
  local -a args=(profiles)
  [[ -n $dir ]] && args+=(--profile-dir "$dir")
  local out
  out=$("$aj" "${args[@]}" 2>/dev/null </dev/null) || return 0
  awk '$1 ~ /^[A-Za-z0-9._+-]+$/ && !seen[$1]++ { print $1 }' <<<"$out"
}

_agentjail_in_list() {
  local word=$1 item
  for item in $2; do
    [[ $word == "$item" ]] && return 0
  done
  return 1
}

# Without bash-completion, COMP_WORDS splits "--net=none" at the "=": glue
# such words back together so both ways of giving a value look the same.
_agentjail_join_equals() {
  local i
  words=()
  cword=0
  for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
    if ((i > 1)) && [[ ${COMP_WORDS[i]} == "=" || ${COMP_WORDS[i - 1]} == "=" ]]; then
      words[-1]+=${COMP_WORDS[i]}
    else
      words+=("${COMP_WORDS[i]}")
    fi
    ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
  done
  cur=${words[cword]}
}

# A profile NAME or the PATH of a .toml file.
_agentjail_profile_arg() {
  local cur=$1 aj=$2 profile_dir=$3
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -W "$(_agentjail_profile_names "$aj" "$profile_dir")" -- "$cur"))
  mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -f -X '!*.toml' -- "$cur")
  mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -d -- "$cur")
}

# Completes the value of option $1 for the word $2.
_agentjail_value() {
  local opt=$1 cur=$2 aj=$3 profile_dir=$4
  case $opt in
    -p | --profile) _agentjail_profile_arg "$cur" "$aj" "$profile_dir" ;;
    --profile-dir | -w | --workspace)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
      ;;
    --ro | --rw | --hide | --tmpfs)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      ;;
    --net) COMPREPLY=($(compgen -W "$_agentjail_net_modes" -- "$cur")) ;;
    -e | --env) COMPREPLY=($(compgen -v -- "$cur")) ;;
    --require) COMPREPLY=($(compgen -W "$_agentjail_layers" -- "$cur")) ;;
    --landlock-abi) COMPREPLY=($(compgen -W "0 1 2 3 4 5 6 7" -- "$cur")) ;;
    --event) COMPREPLY=($(compgen -W "$_agentjail_event_types" -- "$cur")) ;;
    --journal)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -W "- off fd:" -- "$cur"))
      mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -f -- "$cur")
      ;;
    *) COMPREPLY=() ;;  # --timeout DURATION, --pass-fd N: nothing to offer
  esac
}

_agentjail() {
  local cur prev words cword
  if declare -F _get_comp_words_by_ref >/dev/null; then
    _get_comp_words_by_ref -n =: cur prev words cword
  else
    _agentjail_join_equals
  fi
  COMPREPLY=()
  local aj=${words[0]}
  [[ $aj == "~/"* ]] && aj=$HOME/${aj#"~/"}

  # Walk the words before the cursor: find the subcommand, --profile-dir, the
  # option whose value is being typed, and where run's COMMAND starts.
  local sub="" profile_dir="" pending="" command_at=0 i w
  for ((i = 1; i < cword; i++)); do
    w=${words[i]}
    if [[ -n $pending ]]; then
      [[ $pending == --profile-dir ]] && profile_dir=$w
      pending=""
      continue
    fi
    if [[ -z $sub ]]; then
      if _agentjail_in_list "$w" "$_agentjail_subcommands"; then
        sub=$w
        continue
      fi
      sub=run  # `agentjail [OPTIONS] COMMAND` is `agentjail run ...`
    fi
    case $w in
      --)
        [[ $sub == run ]] && { command_at=$((i + 1)); break; }
        ;;
      --profile-dir=*) profile_dir=${w#*=} ;;
      -*=*) ;;
      -*)
        _agentjail_in_list "$w" "$_agentjail_opts_with_value" && pending=$w
        ;;
      *)
        [[ $sub == run ]] && { command_at=$i; break; }
        ;;
    esac
  done

  if ((command_at > 0)); then
    # Inside run's COMMAND: complete it as a command line of its own.
    if declare -F _command_offset >/dev/null; then
      _command_offset "$command_at"
    elif ((cword == command_at)); then
      mapfile -t COMPREPLY < <(compgen -c -- "$cur")
    else
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    return 0
  fi

  if [[ -n $pending ]]; then
    _agentjail_value "$pending" "$cur" "$aj" "$profile_dir"
    return 0
  fi
  if [[ $cur == -*=* ]]; then
    local opt=${cur%%=*}
    _agentjail_value "$opt" "${cur#*=}" "$aj" "$profile_dir"
    return 0
  fi

  if [[ $cur == -* ]]; then
    local opts
    case ${sub:-none} in
      none) opts="$_agentjail_opts_global $_agentjail_opts_run" ;;
      run) opts=$_agentjail_opts_run ;;
      check) opts=$_agentjail_opts_check ;;
      explain) opts=$_agentjail_opts_explain ;;
      features) opts=$_agentjail_opts_features ;;
      profiles) opts=$_agentjail_opts_profiles ;;
      journal) opts=$_agentjail_opts_journal ;;
      sessions) opts=$_agentjail_opts_sessions ;;
    esac
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return 0
  fi

  case ${sub:-none} in
    none)
      # A subcommand, or the COMMAND of the implied run.
      COMPREPLY=($(compgen -W "$_agentjail_subcommands" -- "$cur"))
      mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -c -- "$cur")
      ;;
    run) mapfile -t COMPREPLY < <(compgen -c -- "$cur") ;;
    check) _agentjail_profile_arg "$cur" "$aj" "$profile_dir" ;;
    journal) _agentjail_journal_arg "$cur" ;;
  esac
  return 0
}

complete -F _agentjail agentjail
