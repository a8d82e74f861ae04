#!/bin/sh
# Installs whatever agentjail's build and tests need that is missing, from
# Debian's packages (root, or sudo). Safe to run again: installs nothing when
# everything is present.
set -eu
PACKAGES="meson ninja-build pkg-config g++ libcli11-dev libseccomp-dev libfmt-dev
libtomlplusplus-dev doctest-dev scdoc git python3 iproute2 util-linux procps
bash-completion zsh fish"
[ "${AJ_WITH_BENCH:-0}" = 1 ] && PACKAGES="$PACKAGES bubblewrap"

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "agentjail: installing:$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
