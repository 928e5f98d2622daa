#!/usr/bin/env bash
# make release-snapshot: the release goreleaser would publish, built offline
# into dist/ and checked, without tagging or publishing anything.
#
# - goreleaser release --snapshot --clean, with the module proxy off and
#   without the image (dockers_v2 needs docker buildx and a daemon: `make
#   image` builds the same image offline) and without keyless signing
#   (that needs the release workflow's OIDC identity);
# - when cosign is on PATH, signs dist/checksums.txt with a throwaway key
#   pair and verifies the signature (the keyless release signs the same
#   file);
# - tools/distcheck: checksums, binaries, SBOMs, krew manifest and cask.
#
# It needs goreleaser and cyclonedx-gomod on PATH (hack/install-release-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in goreleaser cyclonedx-gomod; do
  command -v "$tool" >/dev/null || { echo "make release-snapshot: $tool is not on PATH (export PATH=\"\$(bash hack/install-release-tools.sh):\$PATH\")" >&2; exit 1; }
done

# The tap token is read even when nothing is uploaded.
# The snapshot's version is the release the tree prepares.
NFD_FN_RELEASE=$(sed -n 's/^const Release = "\(v[^"]*\)"$/\1/p' pkg/version/version.go)
[ -n "$NFD_FN_RELEASE" ] || { echo "make release-snapshot: no Release in pkg/version/version.go" >&2; exit 1; }
export NFD_FN_RELEASE GOTOOLCHAIN=local GOPROXY=off HOMEBREW_TAP_TOKEN=${HOMEBREW_TAP_TOKEN:-}
goreleaser check # the configuration, deprecated fields included
start=$SECONDS
goreleaser release --snapshot --clean --skip=docker,sign
echo "release-snapshot: goreleaser took $((SECONDS - start))s" >&2

if command -v cosign >/dev/null; then
  keys=$(mktemp -d)
  trap 'rm -rf "$keys"' EXIT
  (cd "$keys" && COSIGN_PASSWORD= cosign generate-key-pair >/dev/null)
  COSIGN_PASSWORD= cosign sign-blob --yes --tlog-upload=false --key "$keys/cosign.key" \
    --output-signature dist/checksums.txt.sig dist/checksums.txt
  cosign verify-blob --insecure-ignore-tlog --key "$keys/cosign.pub" \
    --signature dist/checksums.txt.sig dist/checksums.txt
  echo "release-snapshot: dist/checksums.txt signed with a throwaway key and verified" >&2
else
  echo "release-snapshot: cosign is not on PATH: checksums.txt left unsigned (the release workflow signs keyless)" >&2
fi

go -C tools run ./distcheck -dist "$PWD/dist"
