// Package version holds nfd-fn's build version. Release builds set it with
//
//	go build -ldflags "-X github.com/nfd-fn/nfd-fn/pkg/version.Version=v1.2.3"
//
// (make build and make image do, from `git describe --tags`), so that
// `nfd-fn version`, the image tag, the optional version annotation on the
// Nodes nfd-fn writes and the one on discovered NodeFeatures all carry the
// same string.
package version

// Release is the release this tree prepares: the next vX.Y.Z tag, the
// top entry of CHANGELOG.md, the image tag and the pre-commit rev the docs
// show. A test keeps them in step.
const Release = "v0.1.0"

// Version is the version of this build. The default marks an untagged
// development build of Release.
var Version = Release + "-dev"

// Annotation is the annotation that records, on each Node nfd-fn creates
// or changes, the nfd-fn version that wrote it. It lives in nfd-fn's own
// domain, not in NFD's nfd.node.kubernetes.io/ namespace, because every
// annotation there on a Node belongs to nfd-master.
const Annotation = "nfd-fn.dev/version"
