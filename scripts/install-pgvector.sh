#!/usr/bin/env bash
# Builds pgvector into Debian's PostgreSQL (15 by default) and installs it, as root.
#
# Why a build: Debian bookworm packages pgvector for no PostgreSQL version, and trixie's binary
# package targets PostgreSQL 17 and drags a newer libc in. Trixie's *source* package builds
# cleanly against bookworm's postgresql-server-dev-15, so we take Debian's own source (its
# checksums verified by apt) rather than a tarball from elsewhere. The trixie source list lives in
# a scratch directory: the system's apt sources are not changed.
set -euo pipefail

PG_MAJOR="${PG_MAJOR:-15}"
if [ -f "/usr/share/postgresql/${PG_MAJOR}/extension/vector.control" ]; then
  echo "pgvector: already installed for PostgreSQL ${PG_MAJOR}"
  exit 0
fi

scratch="$(mktemp -d)"
chmod 755 "$scratch" # apt downloads as the unprivileged _apt user
trap 'rm -rf "$scratch"' EXIT
mirror="$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
mirror="${mirror:-http://deb.debian.org/debian}"
mkdir -p "$scratch/lists/partial" "$scratch/cache/archives/partial"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror} trixie main" >"$scratch/sources.list"
apt_scratch=(-o "Dir::Etc::SourceList=$scratch/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$scratch/lists" -o "Dir::Cache=$scratch/cache")

echo "pgvector: installing the build tools and postgresql-server-dev-${PG_MAJOR}"
install_build_deps() {
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    build-essential "postgresql-server-dev-${PG_MAJOR}" >/dev/null
}
# A machine whose package lists were never fetched (or went stale) needs one update first.
install_build_deps || { apt-get -q update >/dev/null && install_build_deps; }

echo "pgvector: fetching Debian's source package (trixie)"
apt-get "${apt_scratch[@]}" -q update >/dev/null
(cd "$scratch" && apt-get "${apt_scratch[@]}" -q source --download-only pgvector >/dev/null)
tar -xzf "$scratch"/pgvector_*.orig.tar.gz -C "$scratch"
src="$(find "$scratch" -maxdepth 1 -type d -name 'pgvector-*' | head -n 1)"

# with_llvm=no: bookworm's pgxs asks for clang-14 to emit JIT bitcode, which is not installed.
echo "pgvector: building $(basename "$src") against PostgreSQL ${PG_MAJOR}"
make -C "$src" -s PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config" with_llvm=no OPTFLAGS="" -j"$(nproc)"
make -C "$src" -s PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config" with_llvm=no install
echo "pgvector: installed for PostgreSQL ${PG_MAJOR}"
