#!/usr/bin/env bash
# Installs what `make release-snapshot` runs, and prints the directory to
# put first on PATH:
#
#   export PATH="$(bash hack/install-release-tools.sh):$PATH"
#
# - goreleaser v2.15.1 (the newest v2.15.x; later ones need a newer Go);
# - cyclonedx-gomod v1.10.0, which writes the archives' SBOMs;
# both built with go install from the module proxy into $NFD_FN_TOOLS
# (default: $XDG_CACHE_HOME/nfd-fn-tools, else ~/.cache/nfd-fn-tools),
# kept between runs: a build is redone only when the version changes.
# cosign is optional (make release-snapshot signs with it when present).
# Progress goes to stderr; only the directory goes to stdout.
set -euo pipefail
tools=${NFD_FN_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/nfd-fn-tools}
mkdir -p "$tools"

# install NAME PACKAGE VERSION: go install PACKAGE@VERSION into $tools,
# unless the stamp says that version is there.
install() {
  local name=$1 package=$2 version=$3 stamp="$tools/.$1-version"
  if [ -x "$tools/$name" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$version" ]; then
    return
  fi
  echo "installing $name $version into $tools" >&2
  local start=$SECONDS
  GOBIN=$tools go install "$package@$version" >&2
  echo "$version" >"$stamp"
  echo "installed $name $version in $((SECONDS - start))s" >&2
}

install goreleaser github.com/goreleaser/goreleaser/v2 v2.15.1
install cyclonedx-gomod github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod v1.10.0
echo "$tools"
