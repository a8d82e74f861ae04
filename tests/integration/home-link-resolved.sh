#!/bin/bash
# A home reached through a symbolic link (HOME=/link, as on systems where
# /home is a link) is taken where it really is: run from the home itself, the
# jail still refuses to make it the writable workspace, and with the home
# granted read-only its ~/.ssh stays hidden. (Taken by the link's name, "~"
# named paths the jail's mounts did not see: the key was read and an
# authorized_keys planted.)
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

bait=BAIT-$(unique_token)
mkfile_as_user "$FAKE_HOME/.ssh/id_rsa" "$bait"
mkdir -p "$FAKE_HOME/proj" && chown "$TEST_UID:$TEST_GID" "$FAKE_HOME/proj"
ln -s "$FAKE_HOME" "$T/homelink"
AJ_EXTRA_ENV=("HOME=$T/homelink")

WS=$T/homelink
capture jail -- sh -c 'cat .ssh/id_rsa; echo planted >> .ssh/authorized_keys'
check_capture "run from the home (through the link): refused (125)" rc_is 125
check_capture "... saying it would make the home writable" err_matches "home directory writable"
check_capture "... the key was not read" all_lacks "$bait"
check "... nothing was planted" [ ! -e "$FAKE_HOME/.ssh/authorized_keys" ]

WS=$T/homelink/proj
capture jail --ro "$T/homelink" -- sh -c "cat '$T/homelink/.ssh/id_rsa' '$FAKE_HOME/.ssh/id_rsa'; echo RAN-\$((6*7))"
check_capture "from a project in the home, the home read-only: the command ran" out_has_line RAN-42
check_capture "... and ~/.ssh stays hidden, by either name" all_lacks "$bait"
finish
