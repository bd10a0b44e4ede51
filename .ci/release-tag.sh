#!/usr/bin/env bash
# Release guard: the pushed tag must be "v" and package.json's version (v0.1.0 for 0.1.0). Prints the version and
# exits 0, or says what differs and exits 1 (in GitHub Actions as an error annotation), so nothing is published.
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:?usage: .ci/release-tag.sh TAG (e.g. v0.1.0)}
version=$(node -p "require('./package.json').version")
if [ "$tag" != "v$version" ]; then
  echo "::error::the tag $tag does not name package.json's version $version (tag v$version, or change the version)" >&2
  exit 1
fi
echo "$version"
