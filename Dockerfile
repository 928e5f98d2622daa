# nfd-fn as a KRM function image (kpt fn render / eval --image, kustomize's
# container: form). `make image` builds the same image without a Docker
# engine (hack/image.sh, with umoci), and releases build it with goreleaser
# (hack/image/Dockerfile.release): keep the three in step.
#
#   docker build --build-arg VERSION=v0.1.0 -t ghcr.io/nfd-fn/nfd-fn:v0.1.0 .
FROM golang:1.26 AS build
ARG VERSION=v0.1.0-dev
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# A static binary carrying its version, and the few files the image holds.
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags="-s -w -X github.com/nfd-fn/nfd-fn/pkg/version.Version=${VERSION}" \
      -o /rootfs/usr/local/bin/nfd-fn . \
 && install -D -m 0644 hack/image/passwd /rootfs/etc/passwd \
 && install -D -m 0644 hack/image/group /rootfs/etc/group \
 && install -d -m 1777 /rootfs/tmp

FROM scratch
COPY --from=build /rootfs/ /
# The KRM function spec asks functions to run as nobody.
USER 65534:65534
ENTRYPOINT ["/usr/local/bin/nfd-fn"]
