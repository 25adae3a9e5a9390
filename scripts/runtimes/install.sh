#!/usr/bin/env bash
# Shared by node.sh and bun.sh: installs one npm package that ships a runtime's binary into its own
# directory of the runtimes cache, once, and prints the directory holding the binary.
#
#   install_runtime <cache name> <npm package spec> <binary, relative to the install's node_modules>
#
# The cache is ${DEADBOLT_RUNTIMES_CACHE:-~/.cache/deadbolt/runtimes}/<cache name>; an install that
# is there and runs is reused, so CI pays for the download once per machine.

RUNTIMES_CACHE="${DEADBOLT_RUNTIMES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/deadbolt/runtimes}"

install_runtime() {
  local name="$1" spec="$2" binary="$3"
  local dir="$RUNTIMES_CACHE/$name"
  local path="$dir/node_modules/$binary"
  if ! "$path" --version >/dev/null 2>&1; then
    # Into a fresh directory, moved into place whole: an interrupted install is never reused.
    mkdir -p "$RUNTIMES_CACHE"
    local scratch
    scratch="$(mktemp -d "$RUNTIMES_CACHE/.$name.XXXXXX")"
    # Outside any workspace, whatever the caller's directory: npm must not read the repository's .npmrc.
    if ! (cd "$scratch" && npm install --prefix "$scratch" --no-save --no-audit --no-fund --loglevel=error "$spec" >&2); then
      rm -rf "$scratch"
      echo "runtimes: npm could not install $spec" >&2
      return 1
    fi
    rm -rf "$dir"
    mv "$scratch" "$dir"
    if ! "$path" --version >/dev/null 2>&1; then
      echo "runtimes: $spec installed, but $path does not run" >&2
      return 1
    fi
  fi
  dirname "$path"
}
