#!/usr/bin/env bash
# Prints the CHANGELOG.md section of a release, the release notes
# goreleaser publishes (goreleaser release --release-notes FILE):
#
#   hack/release-notes.sh v0.1.0 > notes.md
#
# The section is the one headed "## vX.Y.Z" (with or without a suffix such
# as "(unreleased)"), up to the next "## " heading; a tag with no section
# is an error, so that no release goes out without notes.
set -euo pipefail
tag=${1:?usage: hack/release-notes.sh vX.Y.Z}
changelog=${2:-$(dirname "$0")/../CHANGELOG.md}
awk -v tag="$tag" '
  /^## / { if (found) exit; found = ($2 == tag); if (found) next }
  found { print }
  END { if (!found) exit 1 }
' "$changelog" | sed -e '/./,$!d' || { echo "hack/release-notes.sh: CHANGELOG.md has no section \"## $tag\"" >&2; exit 1; }
