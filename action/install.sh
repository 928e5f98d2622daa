#!/usr/bin/env bash
# The Action's install step (action.yml): puts nfd-fn on the job's PATH.
#
# NFD_FN_VERSION vX.Y.Z: downloads the release archive for this runner and
#   the release's checksums.txt, and installs only if the archive's sha256
#   is the one checksums.txt gives (NFD_FN_RELEASE_URL replaces the
#   releases' download URL, for mirrors and the Action's test);
# empty: builds nfd-fn from NFD_FN_SOURCE, the action's own checkout.
set -euo pipefail
dir=${RUNNER_TEMP:?RUNNER_TEMP is not set: run this as a GitHub Actions step}/nfd-fn
mkdir -p "$dir/bin"

if [ -z "${NFD_FN_VERSION:-}" ]; then
  echo "building nfd-fn from ${NFD_FN_SOURCE:?}" >&2
  (cd "$NFD_FN_SOURCE" && CGO_ENABLED=0 go build -trimpath -o "$dir/bin/nfd-fn" .)
else
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) echo "nfd-fn's Action runs on Linux and macOS runners, not $(uname -s)" >&2; exit 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=amd64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "no nfd-fn release archive for $(uname -m)" >&2; exit 1 ;;
  esac
  base=${NFD_FN_RELEASE_URL:-https://github.com/nfd-fn/nfd-fn/releases/download}/$NFD_FN_VERSION
  archive=nfd-fn_${NFD_FN_VERSION#v}_${os}_${arch}.tar.gz
  curl --fail --silent --show-error --location --output "$dir/$archive" "$base/$archive"
  curl --fail --silent --show-error --location --output "$dir/checksums.txt" "$base/checksums.txt"
  # Exactly the archive's line, checked by sha256sum (shasum on macOS).
  grep -F "  $archive" "$dir/checksums.txt" | awk -v a="$archive" '$2 == a' >"$dir/archive.sha256"
  if [ "$(wc -l <"$dir/archive.sha256")" -ne 1 ]; then
    echo "checksums.txt of $NFD_FN_VERSION does not name $archive once" >&2
    exit 1
  fi
  if command -v sha256sum >/dev/null; then sum=(sha256sum); else sum=(shasum -a 256); fi
  (cd "$dir" && "${sum[@]}" --check --status archive.sha256) || {
    echo "$archive does not match its sha256 in checksums.txt of $NFD_FN_VERSION: not installed" >&2
    exit 1
  }
  tar -xzf "$dir/$archive" -C "$dir/bin" nfd-fn
fi

version=$("$dir/bin/nfd-fn" --version)
echo "$dir/bin" >>"$GITHUB_PATH"
echo "version=$version" >>"$GITHUB_OUTPUT"
echo "installed nfd-fn $version" >&2
