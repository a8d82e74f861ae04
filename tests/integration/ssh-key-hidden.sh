#!/bin/bash
# The default profile hides credentials under the caller's home: a bait
# ~/.ssh/id_rsa (and its siblings ~/.aws, ~/.gnupg, ~/.config/gcloud, ~/.netrc,
# ~/.docker, ~/.kube, shell history) cannot be read inside the jail, even when
# the real home is bound in with --ro.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

bait=BAIT-$(unique_token)
secrets=(.ssh/id_rsa .aws/credentials .gnupg/private-keys-v1.d/key.key
  .config/gcloud/credentials.db .netrc .docker/config.json .kube/config
  .bash_history .zsh_history)
for s in "${secrets[@]}"; do
  mkfile_as_user "$FAKE_HOME/$s" "$bait $s"
done
mkfile_as_user "$FAKE_HOME/.gitconfig" "not-a-secret"

# Inside: for each secret, print READ:<path>:<content>, or DENIED:<path> when
# it cannot be read or reads empty (a hidden file is an empty file).
probe='for f in "$@"; do
  if c=$(cat "$HOME/$f" 2>/dev/null) && [ -n "$c" ]; then echo "READ:$f:$c"; else echo "DENIED:$f"; fi
done
if c=$(cat "$HOME/.gitconfig" 2>/dev/null); then echo "PLAIN:$c"; else echo "NOPLAIN"; fi'

# Control: without the jail the test user reads every bait.
capture as_user sh -c "$probe" sh "${secrets[@]}"
for s in "${secrets[@]}"; do
  check_capture "control: ~/$s is readable without the jail" out_has "READ:$s:$bait"
done

# Default profile: private empty home, secrets gone.
capture jail -- sh -c "$probe" sh "${secrets[@]}"
check_capture "the jailed command ran (exit 0)" rc_is 0
for s in "${secrets[@]}"; do
  check_capture "default profile: ~/$s cannot be read" out_has_line "DENIED:$s"
done
check_capture "default profile: the bait text appears nowhere" all_lacks "$bait"

# With the real home bound read-only, hide still wins over the bind.
capture jail --ro "$FAKE_HOME" -- sh -c "$probe" sh "${secrets[@]}"
check_capture "--ro ~: the jailed command ran (exit 0)" rc_is 0
check_capture "--ro ~: a non-secret file in the bound home is readable (the bind took)" \
  out_has_line "PLAIN:not-a-secret"
for s in "${secrets[@]}"; do
  check_capture "--ro ~: ~/$s is still hidden" out_has_line "DENIED:$s"
done
check_capture "--ro ~: the bait text appears nowhere" all_lacks "$bait"

finish
