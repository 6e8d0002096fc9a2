#!/usr/bin/env bash
# A production install, as the README tells an operator to make one: the tracked files, `npm ci --omit=dev`, then
# provision and serve. Checks that it holds no development tool, that node_modules stays within 120 MB, and that
# the served gateway answers /health, an authenticated request and the console's page.
set -euo pipefail
cd "$(dirname "$0")/.."

dir="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT

git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$dir"
cd "$dir"
npm ci --omit=dev --no-audit --no-fund --loglevel=error

for tool in typescript vitest eslint @redocly/cli playwright-core; do
  if [ -e "node_modules/$tool" ]; then
    echo "production install holds the development tool $tool" >&2
    exit 1
  fi
done
size_mb=$(du -sm node_modules | cut -f1)
echo "node_modules: ${size_mb} MB"
if [ "$size_mb" -gt 120 ]; then
  echo "production node_modules is ${size_mb} MB, over 120 MB" >&2
  exit 1
fi

export DATABASE_URL="sqlite:$dir/gateway.db" LOG_LEVEL=warn
key=$(node bin/workspace-gateway.js provision --create examples/provision.example.json \
  | node -e 'let s="";process.stdin.on("data",(c)=>s+=c).on("end",()=>{const k=JSON.parse(s).keys.find((k)=>k.environment==="test");process.stdout.write(k.secret)})')

port=$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
node bin/workspace-gateway.js serve --port "$port" &
server_pid=$!
for _ in $(seq 1 50); do
  curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fsS "http://127.0.0.1:$port/health"
echo
curl -fsS -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v1/integration" | head -c 300
echo
# The console's page and a module of it, from the files the package ships under src/console/.
page=$(curl -fsS "http://127.0.0.1:$port/console/sign-in")
grep -q '<script type="module" src="/console/assets/app.js">' <<<"$page"
asset_headers=$(curl -fsS -D - -o /dev/null "http://127.0.0.1:$port/console/assets/app.js")
grep -qi '^content-type: text/javascript' <<<"$asset_headers"
page_headers=$(curl -fsS -D - -o /dev/null "http://127.0.0.1:$port/console")
grep -qi "^content-security-policy: default-src 'self'" <<<"$page_headers"
echo "served /console"
kill -TERM "$server_pid"
wait "$server_pid"
server_pid=""
echo "production install served /health, an authenticated request and the console"
