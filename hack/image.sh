#!/usr/bin/env bash
# Builds nfd-fn's container image offline, without a Docker engine, as an
# OCI image archive (an OCI layout in a tar, what `podman load`, `skopeo
# copy oci-archive:...` and `docker buildx` understand). The image is the
# one the Dockerfile describes: a static nfd-fn at /usr/local/bin/nfd-fn,
# /etc/passwd and /etc/group naming nobody, user 65534:65534, entrypoint
# nfd-fn. It needs umoci (apt-get install -y umoci).
#
#   hack/image.sh OUT.tar [VERSION]
#
# VERSION defaults to `git describe`, else the default in pkg/version.
set -euo pipefail

out=${1:?usage: hack/image.sh OUT.tar [VERSION]}
root=$(cd "$(dirname "$0")/.." && pwd)
version=${2:-$(git -C "$root" describe --tags --always --dirty 2>/dev/null || true)}
pkg=github.com/nfd-fn/nfd-fn/pkg/version
command -v umoci >/dev/null || { echo "hack/image.sh: umoci is not installed (apt-get install -y umoci)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ldflags="-s -w"
[ -n "$version" ] && ldflags="$ldflags -X $pkg.Version=$version"
(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$work/nfd-fn" .)
tag=$("$work/nfd-fn" --version)

rootless=()
[ "$(id -u)" = 0 ] || rootless=(--rootless)
umoci init --layout "$work/oci"
umoci new --image "$work/oci:$tag"
umoci unpack "${rootless[@]}" --image "$work/oci:$tag" "$work/bundle"
rootfs=$work/bundle/rootfs
install -d -m 0755 "$rootfs/usr/local/bin" "$rootfs/etc"
install -d -m 1777 "$rootfs/tmp"
install -m 0755 "$work/nfd-fn" "$rootfs/usr/local/bin/nfd-fn"
install -m 0644 "$root/hack/image/passwd" "$rootfs/etc/passwd"
install -m 0644 "$root/hack/image/group" "$rootfs/etc/group"
umoci repack --image "$work/oci:$tag" "$work/bundle"
umoci config --image "$work/oci:$tag" \
  --os linux --architecture "$(go env GOARCH)" \
  --config.user 65534:65534 \
  --config.entrypoint /usr/local/bin/nfd-fn \
  --config.workingdir / \
  --config.label "org.opencontainers.image.title=nfd-fn" \
  --config.label "org.opencontainers.image.version=$tag" \
  --config.label "org.opencontainers.image.source=https://github.com/nfd-fn/nfd-fn"
umoci gc --layout "$work/oci"
mkdir -p "$(dirname "$out")"
tar -C "$work/oci" --sort=name --owner=0 --group=0 --numeric-owner -cf "$out" .
echo "hack/image.sh: wrote $out (nfd-fn $tag, user 65534:65534)" >&2
