#!/usr/bin/env bash
# Installs what the end-to-end tests (e2e/) drive besides kpt, and prints
# the directory to put first on PATH:
#
#   export PATH="$(bash hack/install-e2e-tools.sh):$PATH"
#
# - kustomize v5.8.2 (newer ones need Go 1.27), built with go install into
#   $NFD_FN_TOOLS (default: nfd-fn-tools in the temporary directory, kept
#   between runs on the same machine);
# - umoci, podman and runc (and the docker CLI if missing), from Debian,
#   for `make image` and the container tests.
# kpt is not packaged by Debian; the machine image has it at /usr/bin/kpt.
# Progress goes to stderr; only the directory goes to stdout.
set -euo pipefail
tools=${NFD_FN_TOOLS:-${TMPDIR:-/tmp}/nfd-fn-tools}
mkdir -p "$tools"

if [ "$("$tools/kustomize" version 2>/dev/null)" != "v5.8.2" ]; then
  echo "installing kustomize v5.8.2 into $tools" >&2
  GOBIN=$tools go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2 >&2
fi

# umoci builds the image; podman and runc run it (e2e/container_test.go,
# with hack/podman/containers.conf); the docker CLI talks to podman's API
# socket for kustomize's container functions (Debian's docker.io has it,
# when the machine has no docker client of its own).
missing=()
for tool in umoci podman runc docker; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  packages=("${missing[@]}")
  packages=("${packages[@]/#docker/docker.io}")
  echo "installing ${packages[*]} with apt-get" >&2
  "${sudo[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${packages[@]}" >&2
fi

command -v kpt >/dev/null || echo "warning: kpt is not on PATH; the kpt examples will fail under NFD_FN_E2E=1" >&2
echo "$tools"
