#!/bin/bash
# No secret lands in the journal: credential-looking argv elements (an
# Anthropic key, a GitHub token, --password=..., a URL with user:password)
# are redacted in the exec events and session.start, and the value of a
# secret variable passed with --env NAME appears nowhere, although the command
# did receive it (control: it prints it) and handed it on in a program's argv
# (/bin/echo "VAR:$MY_API_TOKEN", journaled as an exec event).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

J=$RUN/j.jsonl
tok=$(unique_token)
ant_key="sk-ant-api03-ABCDEFGHIJKLMNOP${tok}qrstuvwxyz0123456789"
gh_token="ghp_${tok}ABCDEFGHIJKLMNOPQRSTUVWXYZab"
gh_token=${gh_token:0:40}
password="hunter2xyz${tok}"
url_pw="pw123456${tok}"
var_value="varsecret-${tok}-VALUE"
AJ_EXTRA_ENV=("MY_API_TOKEN=$var_value")

# Control: outside the jail the command prints the variable and the arguments.
capture as_user sh -c 'echo "VAR:$MY_API_TOKEN"' sh
check_capture "control: the variable is set in agentjail's environment" out_has_line "VAR:$var_value"

capture jail --journal "$J" --env MY_API_TOKEN -- sh -c \
  '/bin/echo "VAR:$MY_API_TOKEN"; /bin/echo "$@" >/dev/null' sh \
  "$ant_key" "$gh_token" "--password=$password" "https://user:$url_pw@host.example/repo.git"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: the command received the passed variable (it printed it)" out_has_line "VAR:$var_value"
check "the journal file exists at --journal $J" [ -s "$J" ]
check "journal: /bin/echo's exec event is there (the argv was journaled)" \
  grep -q '"path":"/bin/echo"\|"path":"/usr/bin/echo"' "$J"

for s in "$ant_key" "$gh_token" "$password" "$url_pw" "$var_value"; do
  check "journal: the secret '${s:0:12}...' appears nowhere in the file" \
    sh -c '! grep -qF -- "$1" "$2"' sh "$s" "$J"
done
# The token's unique part must not leak either (e.g. a partial redaction).
check "journal: the test's unique token ($tok) appears nowhere in the file" \
  sh -c '! grep -qF -- "$1" "$2"' sh "$tok" "$J"
check "journal: the redacted places say [REDACTED]" grep -qF '[REDACTED]' "$J"

# A secret longer than the supervisor reads of one argument (4 KiB: a PEM key
# in a variable) is cut short there, and still redacted.
long_value="LONGSECRET${tok}$(head -c 3000 /dev/zero | tr '\0' 'k')$(head -c 3000 /dev/zero | tr '\0' 'm')"
AJ_EXTRA_ENV=("MY_API_TOKEN=$long_value")
rm -f "$J"
capture jail --journal "$J" --env MY_API_TOKEN -- sh -c '/bin/echo "$MY_API_TOKEN" >/dev/null'
check_capture "long secret: the jailed command ran (exit 0)" rc_is 0
check "long secret: its exec event is there" grep -q '"path":"/bin/echo"' "$J"
check "long secret: no part of it appears in the file" \
  sh -c '! grep -qF -- "LONGSECRET$1" "$2" && ! grep -qF kkkkkkkkkkkk "$2"' sh "$tok" "$J"

finish
