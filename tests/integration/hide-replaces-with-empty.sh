#!/bin/bash
# --hide PATH replaces a directory with an empty one and a file with an empty,
# read-only file: the contents are unreadable, and nothing written there
# reaches the host.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

token=$(unique_token)
mkfile_as_user "$WS/.env" "API_TOKEN=$token"
mkfile_as_user "$WS/secrets/key.pem" "KEY-$token"

probe='c=$(cat "$1/.env" 2>/dev/null); echo "ENVFILE:[$c]"
[ -f "$1/.env" ] && echo ENVFILE:EXISTS || echo ENVFILE:MISSING
if (echo x >> "$1/.env") 2>/dev/null; then echo ENVFILE:WRITABLE; else echo ENVFILE:READONLY; fi
echo "SECRETS:[$(echo $(ls -A "$1/secrets" 2>/dev/null))]"
cat "$1/secrets/key.pem" 2>/dev/null && echo KEY:READ || echo KEY:UNREAD
(echo planted > "$1/secrets/planted") 2>/dev/null && echo SECRETS:WRITTEN || echo SECRETS:NOWRITE'

# Control: without the jail, both are readable.
capture as_user sh -c "$probe" sh "$WS"
check_capture "control: .env is readable without the jail" out_has_line "ENVFILE:[API_TOKEN=$token]"
check_capture "control: secrets/key.pem is readable without the jail" out_has_line KEY:READ
rm -f "$WS/secrets/planted"
printf 'API_TOKEN=%s\n' "$token" >"$WS/.env"

capture jail --hide "$WS/.env" --hide "$WS/secrets" -- sh -c "$probe" sh "$WS"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: the hidden file exists but is empty" out_has_line "ENVFILE:[]"
check_capture "inside: the hidden file is still a file" out_has_line ENVFILE:EXISTS
check_capture "inside: the hidden file is read-only" out_has_line ENVFILE:READONLY
check_capture "inside: the hidden directory is empty" out_has_line "SECRETS:[]"
check_capture "inside: the key in the hidden directory cannot be read" out_has_line KEY:UNREAD
check_capture "inside: the token appears nowhere" all_lacks "$token"
check "host: .env is intact" [ "$(cat "$WS/.env")" = "API_TOKEN=$token" ]
check "host: nothing was planted in secrets/" [ ! -e "$WS/secrets/planted" ]
check "host: secrets/key.pem is intact" [ "$(cat "$WS/secrets/key.pem")" = "KEY-$token" ]

finish
