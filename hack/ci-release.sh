#!/usr/bin/env bash
# CI's release block (issue 38), called by .ci/run after the tests: the
# image and the release snapshot, built and checked the way a release
# builds them. A missing tool is a failure: hack/install-e2e-tools.sh
# (umoci, podman, runc) and hack/install-release-tools.sh (goreleaser,
# cyclonedx-gomod, cached under $XDG_CACHE_HOME) install them first.
# The container tests themselves (e2e/container_test.go) run in go test.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$(bash hack/install-e2e-tools.sh):$(bash hack/install-release-tools.sh):$PATH"
export PATH

# make image: the OCI archive, loaded by podman under its full name.
start=$SECONDS
make image IMAGE_ARCHIVE=bin/nfd-fn-image.tar
echo "ci-release: make image took $((SECONDS - start))s" >&2

# make release-snapshot: goreleaser offline into dist/, checked by
# tools/distcheck (checksums, binaries, SBOMs, krew manifest, cask).
start=$SECONDS
make release-snapshot
echo "ci-release: make release-snapshot took $((SECONDS - start))s" >&2
