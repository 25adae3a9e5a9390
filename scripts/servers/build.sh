#!/usr/bin/env bash
# Builds the Redis and Valkey servers the test harness can run by id (DEADBOLT_SERVER=<id>), from
# Debian's source packages, and caches them:
#
#   bash scripts/servers/build.sh [id...]     the ids given, or all of them:
#     redis-8.0    Debian trixie's redis 5:8.0.x
#     valkey-8.1   Debian trixie's valkey 8.1.x
#     redis-6.0    Debian bullseye's redis 5:6.0.16 (to test the minimum server version)
#
# Each lands in $DEADBOLT_SERVERS_DIR (default ~/.cache/deadbolt/servers) as <id>/bin with the
# server and its cli only, and <id>/server.json naming them; a build already there is reused.
# Source packages come through a private apt configuration under that folder (/etc/apt is left
# alone); build dependencies missing from the machine are installed with apt-get.
set -euo pipefail

SERVERS_DIR="${DEADBOLT_SERVERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/deadbolt/servers}"
ALL_IDS=(redis-8.0 valkey-8.1 redis-6.0)
BUILD_DEPS=(dpkg-dev gcc make pkgconf libssl-dev libjemalloc-dev liblzf-dev)

say() { echo "servers: $*"; }
die() { echo "servers: $*" >&2; exit 1; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# The settings of each id, read off its package's debian/rules: the suite, the source package and
# version pattern, dpkg-buildflags' maintainer options and appends, and the make variables. Where
# the rules differ from the build wanted here, the difference is ours and said: the bundled Lua
# and hiredis everywhere (bullseye's rules link Debian's Lua), and no systemd notification
# (USE_SYSTEMD, which only a systemd unit needs).
load_settings() {
  MAINT_OPTIONS="hardening=+all"
  CFLAGS_APPEND="-I/usr/include/liblzf"
  LDFLAGS_APPEND="-Wl,-no-as-needed -ldl -latomic -llzf"
  MAKE_VARS=(V=1 BUILD_TLS=yes USE_SYSTEM_JEMALLOC=yes USE_JEMALLOC=yes USE_SYSTEMD=no)
  EMPTY_FILES=()
  case "$1" in
    redis-8.0) SUITE=trixie; PACKAGE=redis; VERSION_PATTERN='5:8.0.*'; PROGRAM=redis ;;
    valkey-8.1)
      SUITE=trixie; PACKAGE=valkey; VERSION_PATTERN='8.1.*'; PROGRAM=valkey
      MAINT_OPTIONS="hardening=+all optimize=+lto"
      ;;
    redis-6.0)
      SUITE=bullseye; PACKAGE=redis; VERSION_PATTERN='5:6.0.16*'; PROGRAM=redis
      MAKE_VARS+=(USE_SYSTEM_LUA=no USE_SYSTEM_HIREDIS=no)
      # Its patches include debian/lua_libs_debian.c, which the rules generate to load Debian's
      # Lua modules; the bundled Lua loads its own (cjson, struct, cmsgpack, bit), so it is empty.
      EMPTY_FILES=(debian/lua_libs_debian.c)
      ;;
    *) die "unknown server id '$1' (known: ${ALL_IDS[*]})" ;;
  esac
}

install_build_deps() {
  local missing=() dep
  for dep in "${BUILD_DEPS[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$dep" 2>/dev/null | grep -q '^install ok installed'; then
      missing+=("$dep")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return
  say "installing build dependencies ${missing[*]} with apt-get"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# A private apt configuration that knows the deb-src lines of the suites above and keeps its
# lists and downloads under SERVERS_DIR.
APT_DIR="$SERVERS_DIR/apt"
APT_OPTS=(
  -o "Dir::Etc::SourceList=$APT_DIR/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache"
  -o APT::Sandbox::User=root
)
prepare_apt() {
  mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
  local keyring=/usr/share/keyrings/debian-archive-keyring.gpg suite
  : >"$APT_DIR/sources.list.new"
  for suite in trixie bullseye; do
    echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian $suite main" >>"$APT_DIR/sources.list.new"
  done
  mv "$APT_DIR/sources.list.new" "$APT_DIR/sources.list"
  if [ -z "$(find "$APT_DIR/lists" -name '*Sources*' -mmin -1440 2>/dev/null)" ]; then
    say "reading Debian's source package lists"
    apt-get "${APT_OPTS[@]}" update -qq
  fi
}

# The newest version of PACKAGE in SUITE that matches VERSION_PATTERN, with the pool folder it
# is in, from the private lists: "<version> <directory>".
indexed_version() {
  apt-cache "${APT_OPTS[@]}" showsrc "$PACKAGE" |
    awk -v want="$VERSION_PATTERN" '
      /^Version: / { version = $2 }
      /^Directory: / { dir = $2 }
      /^$/ { if (version != "" && dir != "") print version, dir; version = ""; dir = "" }
      END { if (version != "" && dir != "") print version, dir }' |
    while read -r version dir; do
      # shellcheck disable=SC2053 # the pattern is a glob on purpose
      if [[ "$version" == $VERSION_PATTERN ]]; then echo "$version $dir"; fi
    done | sort -V -r | head -n 1
}

# Downloads the source package into the current folder. The mirror has been seen listing a
# security revision (+debNNuK) whose .dsc was not yet in its pool: then the newest earlier
# revision of the same upstream version that downloads is taken (its orig tarball is the one
# apt already fetched and checked against the index).
fetch_source() {
  local found version dir
  found="$(indexed_version)"
  [ -n "$found" ] || die "no $PACKAGE $VERSION_PATTERN in Debian's $SUITE source lists"
  read -r version dir <<<"$found"
  if apt-get "${APT_OPTS[@]}" source --download-only -qq "$PACKAGE=$version" >/dev/null 2>&1; then
    SOURCE_VERSION="$version"
    return
  fi
  local base="${version%+deb*}" revision
  if [[ "$version" =~ \+deb([0-9]+)u([0-9]+)$ ]]; then
    local release="${BASH_REMATCH[1]}" update="${BASH_REMATCH[2]}"
    for ((update = update - 1; update >= 0; update--)); do
      revision="$base"
      [ "$update" -gt 0 ] && revision="$base+deb${release}u$update"
      if fetch_pool_files "$dir" "$revision"; then
        SOURCE_VERSION="$revision"
        say "$PACKAGE $version is listed but not in the pool; took $revision"
        return
      fi
    done
  fi
  die "could not download $PACKAGE $version (nor an earlier revision) from Debian's pool"
}

fetch_pool_files() {
  local dir="$1" revision="${2#*:}" ext
  for ext in dsc debian.tar.xz; do
    /usr/lib/apt/apt-helper "${APT_OPTS[@]}" download-file \
      "http://deb.debian.org/debian/$dir/${PACKAGE}_$revision.$ext" "./${PACKAGE}_$revision.$ext" \
      >/dev/null 2>&1 || return 1
  done
}

# dpkg-buildflags with the package's maintainer settings, as its debian/rules asks.
buildflag() {
  DEB_BUILD_MAINT_OPTIONS="$MAINT_OPTIONS" DEB_CFLAGS_MAINT_APPEND="$CFLAGS_APPEND" \
    DEB_LDFLAGS_MAINT_APPEND="$LDFLAGS_APPEND" dpkg-buildflags --get "$1"
}

build_one() {
  local id="$1" target="$SERVERS_DIR/$1"
  load_settings "$id"
  if [ -f "$target/server.json" ] && "$target/bin/$PROGRAM-server" --version >/dev/null 2>&1; then
    say "$id: reusing $("$target/bin/$PROGRAM-server" --version | cut -d' ' -f1-3) in $target"
    return
  fi
  local work="$SERVERS_DIR/build/$id"
  rm -rf "$work" && mkdir -p "$work" && cd "$work"
  fetch_source
  local dsc="${PACKAGE}_${SOURCE_VERSION#*:}.dsc"
  dpkg-source -x "$dsc" src >/dev/null
  local file
  for file in "${EMPTY_FILES[@]}"; do echo '/* the bundled Lua loads its modules itself */' >"src/$file"; done
  say "$id: building $PACKAGE $SOURCE_VERSION (make -j$(nproc); a few minutes)"
  local started=$SECONDS
  (
    cd src
    CFLAGS="$(buildflag CFLAGS)" CPPFLAGS="$(buildflag CPPFLAGS)" LDFLAGS="$(buildflag LDFLAGS)" \
      make -j"$(nproc)" "${MAKE_VARS[@]}" >"$work/make.log" 2>&1
  ) || die "$id: make failed; see $work/make.log"
  local staged="$target.new"
  rm -rf "$staged" && mkdir -p "$staged/bin"
  cp "src/src/$PROGRAM-server" "src/src/$PROGRAM-cli" "$staged/bin/"
  local version
  version="$("$staged/bin/$PROGRAM-server" --version | sed -n 's/.* v=\([^ ]*\).*/\1/p')"
  printf '{ "id": "%s", "server": "%s-server", "cli": "%s-cli", "version": "%s", "source": "%s %s (Debian %s)" }\n' \
    "$id" "$PROGRAM" "$PROGRAM" "$version" "$PACKAGE" "$SOURCE_VERSION" "$SUITE" >"$staged/server.json"
  rm -rf "$target" && mv "$staged" "$target"
  cd "$SERVERS_DIR" && rm -rf "$work"
  say "$id: built $PROGRAM-server $version in $((SECONDS - started)) s into $target/bin"
}

IDS=("$@")
[ ${#IDS[@]} -gt 0 ] || IDS=("${ALL_IDS[@]}")
for id in "${IDS[@]}"; do load_settings "$id"; done
install_build_deps
prepare_apt
for id in "${IDS[@]}"; do build_one "$id"; done
