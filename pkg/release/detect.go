package release

import (
	"fmt"
	"regexp"
	"strings"
)

// WorkerVersionAnnotation is the annotation nfd-worker writes on its
// NodeFeature objects with its release.
const WorkerVersionAnnotation = "nfd.node.kubernetes.io/worker.version"

// leadingVersion is the vX.Y.Z a build version starts with
// (v0.17.1, v0.18.0-devel-12-gabc, v0.17.1-minimal).
var leadingVersion = regexp.MustCompile(`^v?(\d+\.\d+\.\d+)`)

// FromBuildVersion reads the release a worker.version annotation or an
// image tag names; ok is false for a release nfd-fn does not know.
func FromBuildVersion(s string) (Release, bool) {
	m := leadingVersion.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Release{}, false
	}
	v, ok := parseVersion(m[1])
	if !ok {
		return Release{}, false
	}
	return upstream(v), true
}

// openShiftTag is the tag of an OpenShift NFD operand image: v4.20,
// v4.20.0-202511...
var openShiftTag = regexp.MustCompile(`^v?(\d+\.\d+)`)

// FromImage reads the release an nfd-master or nfd-worker image names:
// upstream's node-feature-discovery:vX.Y.Z (-minimal, -full), or
// OpenShift's ose-node-feature-discovery:v4.N. ok is false for an image
// that is not NFD's or a release nfd-fn does not know.
func FromImage(image string) (Release, bool) {
	repo, tag, ok := splitImage(image)
	if !ok || !strings.Contains(repo, "node-feature-discovery") {
		return Release{}, false
	}
	if strings.Contains(repo, "ose-node-feature-discovery") || strings.Contains(repo, "openshift") {
		m := openShiftTag.FindStringSubmatch(tag)
		if m == nil {
			return Release{}, false
		}
		r, err := Parse("openshift-" + m[1])
		return r, err == nil
	}
	return FromBuildVersion(tag)
}

// Unreadable says why an NFD image shows no release nfd-fn renders as:
// an image pinned by digest alone (as OLM deploys OpenShift's operand),
// an OpenShift release without a profile (v4.19), a tag that names no
// release, or a release nfd-fn does not know. It is "" for an image
// FromImage reads and for an image that is not NFD's.
func Unreadable(image string) string {
	repo, tag, ok := splitImage(image)
	if !strings.Contains(repo, "node-feature-discovery") {
		return ""
	}
	if _, known := FromImage(image); known {
		return ""
	}
	openShift := strings.Contains(repo, "ose-node-feature-discovery") || strings.Contains(repo, "openshift")
	switch {
	case !ok && strings.Contains(image, "@"):
		if openShift {
			return "OpenShift's NFD operand pinned by digest, which does not name its release"
		}
		return "an NFD image pinned by digest, which does not name its release"
	case !ok:
		return "an NFD image without a tag"
	case openShift && openShiftTag.MatchString(tag):
		return fmt.Sprintf("OpenShift's NFD operand of OpenShift %s, for which nfd-fn has no profile (docs/releases.md)", openShiftTag.FindStringSubmatch(tag)[1])
	case openShift:
		return fmt.Sprintf("OpenShift's NFD operand tagged %q, which does not name an OpenShift release", tag)
	case leadingVersion.MatchString(tag):
		return fmt.Sprintf("NFD v%s, a release nfd-fn does not model", leadingVersion.FindStringSubmatch(tag)[1])
	}
	return fmt.Sprintf("an NFD image tagged %q, which does not name a release", tag)
}

// splitImage splits repo:tag (a digest after @ is dropped).
func splitImage(image string) (repo, tag string, ok bool) {
	image, _, _ = strings.Cut(image, "@")
	i := strings.LastIndex(image, ":")
	if i < 0 || strings.Contains(image[i:], "/") {
		return image, "", false
	}
	return image[:i], image[i+1:], true
}
