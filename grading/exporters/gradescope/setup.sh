#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image (Ubuntu); the autograder zip is
# unpacked in /autograder/source. It installs Node 24 (the current LTS), bubblewrap (the sandbox's OS layer) and
# Referee itself from the tarball `referee gradescope bundle` put beside this script.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

apt-get update -qq
apt-get install -y -qq ca-certificates curl bubblewrap >/dev/null

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 22 ]; then
  # Ubuntu's own nodejs is older than the LTS lines Referee is tested on (20 reached end-of-life in April 2026).
  curl -fsSL https://deb.nodesource.com/setup_24.x | bash - >/dev/null
  apt-get install -y -qq nodejs >/dev/null
fi

tarball=$(ls /autograder/source/board-referee-*.tgz | head -n 1)
npm install -g --no-audit --no-fund "$tarball"
referee --version
