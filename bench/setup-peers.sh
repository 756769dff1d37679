#!/usr/bin/env bash
# Installs the peer clients the benchmark compares against (see ../shared/reference/peers.md):
# the Debian packages, curl and GNU time, and @gitbeaker/rest 43 into a scratch folder
# outside the repository (SVC_PEERS_DIR, default /tmp/svc-peers). Safe to run again.
set -euo pipefail
peers_dir="${SVC_PEERS_DIR:-/tmp/svc-peers}"

if command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq >/dev/null
  $sudo_cmd apt-get install -y -qq --no-install-recommends \
    python3-gitlab gitlab-cli libgitlab-api-v4-perl ruby-gitlab curl time >/dev/null
else
  echo "setup-peers: apt-get not found; install the peers by hand (peers.md)" >&2
fi

mkdir -p "$peers_dir"
cd "$peers_dir"
[ -f package.json ] || printf '{ "name": "svc-peers", "private": true, "type": "module" }\n' > package.json
npm install --no-audit --no-fund --silent '@gitbeaker/rest@43' >/dev/null
echo "setup-peers: peers installed (gitbeaker in $peers_dir)" >&2
