#!/bin/bash
# The environment is cleared and rebuilt from the profile's allowlist:
# secret-looking variables never reach the command unless passed by exact
# name (--env NAME), variables not kept are gone, kept ones (LANG) stay, and
# AGENTJAIL=1 / AGENTJAIL_SESSION are set.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

token=$(unique_token)
secrets=(AWS_SECRET_ACCESS_KEY AWS_ACCESS_KEY_ID GITHUB_TOKEN GH_TOKEN NPM_TOKEN
  OPENAI_API_KEY MY_SERVICE_KEY DB_PASSWORD APP_SECRET SOME_CREDENTIALS)
AJ_EXTRA_ENV=("AJ_ITEST_PLAIN=plain-$token" "LC_ALL=C.UTF-8")
for s in "${secrets[@]}"; do AJ_EXTRA_ENV+=("$s=secret-$s-$token"); done

probe='for n in "$@"; do eval "v=\${$n-}"; if [ -n "$v" ]; then echo "SET:$n=$v"; else echo "UNSET:$n"; fi; done
echo "AGENTJAIL:${AGENTJAIL-}"
echo "SESSION:${AGENTJAIL_SESSION-}"'
names=("${secrets[@]}" AJ_ITEST_PLAIN LANG LC_ALL PATH)

capture as_user sh -c "$probe" sh "${names[@]}"
for s in "${secrets[@]}"; do
  check_capture "control: $s is set without the jail" out_has_line "SET:$s=secret-$s-$token"
done

capture jail -- sh -c "$probe" sh "${names[@]}"
check_capture "the jailed command ran (exit 0)" rc_is 0
for s in "${secrets[@]}"; do
  check_capture "inside: $s is absent" out_has_line "UNSET:$s"
done
check_capture "inside: no secret value appears anywhere" all_lacks "$token"
check_capture "inside: a variable the profile does not keep is gone" out_has_line UNSET:AJ_ITEST_PLAIN
check_capture "inside: LANG is kept" out_has_line "SET:LANG=C.UTF-8"
check_capture "inside: LC_ALL is kept (LC_* glob)" out_has_line "SET:LC_ALL=C.UTF-8"
check_capture "inside: PATH is set" out_has "SET:PATH=/"
check_capture "inside: AGENTJAIL=1" out_has_line AGENTJAIL:1
check_capture "inside: AGENTJAIL_SESSION is set" sh -c '[ -n "$1" ]' sh "$(field SESSION)"

capture jail --env GITHUB_TOKEN --env AJ_ITEST_SET=given -- sh -c "$probe" sh GITHUB_TOKEN GH_TOKEN AJ_ITEST_SET
check_capture "--env GITHUB_TOKEN: passed by exact name, it is present with the caller's value" \
  out_has_line "SET:GITHUB_TOKEN=secret-GITHUB_TOKEN-$token"
check_capture "--env GITHUB_TOKEN: other secrets stay absent" out_has_line UNSET:GH_TOKEN
check_capture "--env NAME=VALUE sets the variable" out_has_line SET:AJ_ITEST_SET=given

finish
