#!/usr/bin/env bash
# A PostgreSQL for the PostgreSQL test cases: the one at $1 (default postgres://postgres@127.0.0.1:5432/postgres)
# when it answers; else, for that local default, Debian's `postgresql` (installed with apt-get when pg_ctlcluster
# or psql is missing) with its cluster started. Prints the URL the tests should use (TEST_DATABASE_URL) and exits
# 0, or prints nothing and exits 1 when no server answers.
set -uo pipefail

default_url=postgres://postgres@127.0.0.1:5432/postgres
url=${1:-$default_url}

answers() { # answers URL: one query within a few seconds
  command -v psql >/dev/null && PGCONNECT_TIMEOUT=3 psql "$1" -tAqc 'SELECT 1' >/dev/null 2>&1
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi
}

if answers "$url"; then echo "$url"; exit 0; fi
# Only the local default is ours to set up; a URL someone gave us is theirs.
[ "$url" = "$default_url" ] || exit 1

if { ! command -v pg_ctlcluster || ! command -v psql; } >/dev/null && command -v apt-get >/dev/null; then
  echo "installing postgresql (Debian package)" >&2
  as_root apt-get update -qq >&2 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1
fi
command -v pg_ctlcluster >/dev/null || exit 1

# The first cluster Debian knows of (the package makes `<version> main`); one of the newest version when none.
read -r version cluster _ < <(pg_lsclusters -h 2>/dev/null | head -n 1) || true
if [ -z "${version:-}" ]; then
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  cluster=main
  as_root pg_createcluster "$version" "$cluster" >&2 || exit 1
fi
echo "starting PostgreSQL cluster $version/$cluster" >&2
as_root pg_ctlcluster --skip-systemctl-redirect "$version" "$cluster" start >&2 2>&1 || true

for _ in $(seq 1 100); do
  pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 0.2
done
if answers "$url"; then echo "$url"; exit 0; fi

# Debian's clusters ask TCP clients for a password (scram): give the postgres role one, for these tests only.
password_url=postgres://postgres:postgres@127.0.0.1:5432/postgres
as_root runuser -u postgres -- psql -qc "ALTER ROLE postgres PASSWORD 'postgres'" >&2 2>&1 || exit 1
if answers "$password_url"; then echo "$password_url"; exit 0; fi
exit 1
