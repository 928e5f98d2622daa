#!/usr/bin/env bash
# Builds nfd-fn's container image offline, without a Docker engine, as an
# OCI image archive (an OCI layout in a tar, what `podman load`, `skopeo
# copy --all oci-archive:...` and `docker buildx` understand). The image is
# the one the Dockerfile describes: a static nfd-fn at
# /usr/local/bin/nfd-fn, /etc/passwd and /etc/group naming nobody, user
# 65534:65534, entrypoint nfd-fn. The archive holds one image index, named
# in full (ghcr.io/nfd-fn/nfd-fn:VERSION, so `podman load` gives that name),
# with a linux/amd64 and a linux/arm64 image, each labelled with the
# org.opencontainers.image.* labels (title, version, revision, source,
# licenses, created). Files and dates come from the commit, so the same
# commit gives the same layers. It needs umoci (apt-get install -y umoci).
#
#   hack/image.sh OUT.tar [VERSION]
#
# VERSION defaults to `git describe`, else the default in pkg/version;
# IMAGE_REPO (default ghcr.io/nfd-fn/nfd-fn) and IMAGE_PLATFORMS (default
# "amd64 arm64", linux each) change the name and the platforms.
set -euo pipefail

out=${1:?usage: hack/image.sh OUT.tar [VERSION]}
root=$(cd "$(dirname "$0")/.." && pwd)
version=${2:-$(git -C "$root" describe --tags --always --dirty 2>/dev/null || true)}
repo=${IMAGE_REPO:-ghcr.io/nfd-fn/nfd-fn}
read -r -a arches <<<"${IMAGE_PLATFORMS:-amd64 arm64}"
pkg=github.com/nfd-fn/nfd-fn/pkg/version
command -v umoci >/dev/null || { echo "hack/image.sh: umoci is not installed (apt-get install -y umoci)" >&2; exit 1; }

revision=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ldflags="-s -w"
[ -n "$version" ] && ldflags="$ldflags -X $pkg.Version=$version"
for arch in "${arches[@]}"; do
  (cd "$root" && CGO_ENABLED=0 GOOS=linux GOARCH=$arch go build -trimpath -ldflags "$ldflags" -o "$work/bin/$arch/nfd-fn" .)
done
host=$work/bin/$(go env GOARCH)/nfd-fn
if [ -x "$host" ]; then tag=$("$host" --version); else tag=$(CGO_ENABLED=0 go -C "$root" run -ldflags "$ldflags" . --version); fi

rootless=()
[ "$(id -u)" = 0 ] || rootless=(--rootless)
umoci init --layout "$work/oci"
for arch in "${arches[@]}"; do
  umoci new --image "$work/oci:$arch"
  rm -rf "$work/bundle"
  umoci unpack "${rootless[@]}" --image "$work/oci:$arch" "$work/bundle"
  rootfs=$work/bundle/rootfs
  install -d -m 0755 "$rootfs/usr/local/bin" "$rootfs/etc"
  install -d -m 1777 "$rootfs/tmp"
  install -m 0755 "$work/bin/$arch/nfd-fn" "$rootfs/usr/local/bin/nfd-fn"
  install -m 0644 "$root/hack/image/passwd" "$rootfs/etc/passwd"
  install -m 0644 "$root/hack/image/group" "$rootfs/etc/group"
  find "$rootfs" -exec touch -h -d "@$epoch" {} +
  umoci repack --history.created "$created" --history.created_by "hack/image.sh" \
    --image "$work/oci:$arch" "$work/bundle"
  umoci config --image "$work/oci:$arch" --created "$created" \
    --history.created "$created" --history.created_by "hack/image.sh" \
    --os linux --architecture "$arch" \
    --config.user 65534:65534 \
    --config.entrypoint /usr/local/bin/nfd-fn \
    --config.workingdir / \
    --config.label "org.opencontainers.image.title=nfd-fn" \
    --config.label "org.opencontainers.image.description=node-feature-discovery's rules as a KRM function" \
    --config.label "org.opencontainers.image.version=$tag" \
    --config.label "org.opencontainers.image.revision=$revision" \
    --config.label "org.opencontainers.image.created=$created" \
    --config.label "org.opencontainers.image.source=https://github.com/nfd-fn/nfd-fn" \
    --config.label "org.opencontainers.image.licenses=Apache-2.0"
done
umoci gc --layout "$work/oci"
# One index under the full name in place of the per-platform tags.
go -C "$root/tools" run ./ociindex -layout "$work/oci" -name "$repo:$tag" "${arches[@]}"
find "$work/oci" -exec touch -h -d "@$epoch" {} +
mkdir -p "$(dirname "$out")"
tar -C "$work/oci" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf "$out" .
echo "hack/image.sh: wrote $out ($repo:$tag for linux/${arches[*]}, user 65534:65534)" >&2
