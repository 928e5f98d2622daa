// Package release is the table of NFD releases nfd-fn can render as, and
// of what each one can do: the one place the engine, the master, the
// admission of objects and lint ask "does this release do X?". A Release
// names the upstream nfd-master code it runs (Engine) and the CRDs its API
// server admits objects with (Schema); for upstream releases both are the
// release itself, for OpenShift's operand they differ.
package release

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Version is an upstream NFD release, v0.Minor.Patch.
type Version struct{ Minor, Patch int }

// String is the release tag, v0.Minor.Patch.
func (v Version) String() string { return fmt.Sprintf("v0.%d.%d", v.Minor, v.Patch) }

// Less orders releases.
func (v Version) Less(w Version) bool {
	return v.Minor < w.Minor || (v.Minor == w.Minor && v.Patch < w.Patch)
}

// Release is what nfd-fn renders as.
type Release struct {
	// Name is the release as the user names it: v0.17.1, openshift-5.0.
	Name string
	// Engine is the upstream nfd-master code the release runs.
	Engine Version
	// Schema is the upstream release whose CRDs its API server has.
	Schema Version
	// without lists capabilities of Engine the release lacks (a fork's
	// missing commits).
	without []Capability
	// Assumed marks the default release, used when none is given.
	Assumed bool
	// By is what chose the release, for messages: the setting that named
	// it ("nfdVersion", "--nfd-version") or "the input" that showed it;
	// empty for the default (Chosen says so).
	By string
}

// Chosen is the release's name with what chose it, for messages that
// depend on the release: "v0.17.1 (--nfd-version)", "v0.19.0 (nfd-fn's
// default: nfdVersion unset)".
func (r Release) Chosen() string {
	if r.By == "" {
		return r.Name + " (nfd-fn's default: nfdVersion unset)"
	}
	return r.Name + " (" + r.By + ")"
}

// Has reports whether the release has a capability.
func (r Release) Has(c Capability) bool {
	for _, w := range r.without {
		if w == c {
			return false
		}
	}
	return c.in(r.Engine)
}

// WithCRDs is r behind the CRDs of another release (a CRD chart that
// lags its operand): its nfd-master is r's, its API server admits objects
// with the schema of crds.
func (r Release) WithCRDs(crds Release) Release {
	r.Schema = crds.Schema
	return r
}

// Upstream reports a release of NFD itself (not a vendor's profile).
func (r Release) Upstream() bool { return r.Name == r.Engine.String() }

// String is the release's name.
func (r Release) String() string { return r.Name }

// Default is the release nfd-fn renders as when none is given.
func Default() Release {
	r := upstream(Latest)
	r.Assumed = true
	return r
}

// Line is one minor release of NFD as nfd-fn knows it: the one table of
// release knowledge that admission (which CRDs), discover (which worker)
// and the release names derive from. Adding a release is adding a line
// (and its CRD file, and its worker profile in pkg/discover).
type Line struct {
	// Minor is the minor version: 19 for v0.19.x.
	Minor int
	// LastPatch is the last patch release of the minor nfd-fn knows.
	LastPatch int
	// CRDs is the release whose CRD file (pkg/admission/crds) holds the
	// schemas of every patch release of the minor: the CRDs do not
	// change between patch releases.
	CRDs Version
	// Worker is the nfd-worker release whose published features
	// pkg/discover reproduces for the minor (no patch release changes
	// what the worker publishes); zero when discover does not model the
	// minor's worker (v0.16).
	Worker Version
}

// lines are the minors nfd-fn knows, oldest first.
var lines = []Line{
	{Minor: 16, LastPatch: 9, CRDs: Version{16, 9}},
	{Minor: 17, LastPatch: 4, CRDs: Version{17, 1}, Worker: Version{17, 1}},
	{Minor: 18, LastPatch: 3, CRDs: Version{18, 3}, Worker: Version{18, 3}},
	{Minor: 19, LastPatch: 0, CRDs: Version{19, 0}, Worker: Version{19, 0}},
}

// Lines lists the minors nfd-fn knows, oldest first.
func Lines() []Line { return slices.Clone(lines) }

// LineOf returns the line of a minor, and whether nfd-fn knows it.
func LineOf(minor int) (Line, bool) {
	for _, l := range lines {
		if l.Minor == minor {
			return l, true
		}
	}
	return Line{}, false
}

// Latest is the newest NFD release nfd-fn knows: the last patch of the
// last line.
var Latest = Version{lines[len(lines)-1].Minor, lines[len(lines)-1].LastPatch}

// LatestWorker is the newest nfd-worker release discover reproduces, its
// default.
var LatestWorker = lines[len(lines)-1].Worker

// profiles are the vendors' builds of NFD: OpenShift's operand is a fork
// of upstream v0.18.3 without commit dcc8e4764 (unprefixed annotations
// with DisableAutoPrefix) behind the CRDs of v0.17 (no Ge/Le/GeLe, no
// type, no group vars) from OpenShift 4.20 on; 4.18 ships about v0.17.
var profiles = []Release{
	{Name: "openshift-4.18", Engine: Version{17, 1}, Schema: Version{17, 1}},
	{Name: "openshift-4.20", Engine: Version{18, 3}, Schema: Version{17, 1}, without: []Capability{UnprefixedAnnotations}},
	{Name: "openshift-4.21", Engine: Version{18, 3}, Schema: Version{17, 1}, without: []Capability{UnprefixedAnnotations}},
	{Name: "openshift-5.0", Engine: Version{18, 3}, Schema: Version{17, 1}, without: []Capability{UnprefixedAnnotations}},
}

func upstream(v Version) Release { return Release{Name: v.String(), Engine: v, Schema: v} }

// Parse reads a release name: v0.MINOR.PATCH (the v optional), v0.MINOR
// (its last patch release) or a profile (openshift-5.0). An unknown name
// is an error listing the supported ones.
func Parse(s string) (Release, error) {
	name := strings.TrimSpace(s)
	for _, p := range profiles {
		if strings.EqualFold(name, p.Name) {
			return p, nil
		}
	}
	if v, ok := parseVersion(name); ok {
		return upstream(v), nil
	}
	return Release{}, fmt.Errorf("unknown NFD release %q: nfd-fn renders as %s", s, strings.Join(Supported(), ", "))
}

func parseVersion(s string) (Version, bool) {
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "0" {
		return Version{}, false
	}
	minor, err := strconv.Atoi(parts[1])
	line, known := LineOf(minor)
	if err != nil || !known {
		return Version{}, false
	}
	if len(parts) == 2 {
		return Version{minor, line.LastPatch}, true
	}
	patch, err := strconv.Atoi(parts[2])
	if err != nil || patch < 0 || patch > line.LastPatch || strconv.Itoa(patch) != parts[2] {
		return Version{}, false
	}
	return Version{minor, patch}, true
}

// Supported lists the release names Parse accepts, in short form.
func Supported() []string {
	var out []string
	for _, l := range lines {
		if l.LastPatch > 0 {
			out = append(out, fmt.Sprintf("v0.%d.0 to v0.%d.%d", l.Minor, l.Minor, l.LastPatch))
		} else {
			out = append(out, fmt.Sprintf("v0.%d.0", l.Minor))
		}
	}
	for _, p := range profiles {
		out = append(out, p.Name)
	}
	return out
}

// Upstreams lists every upstream release nfd-fn knows, oldest first.
func Upstreams() []Version {
	var out []Version
	for _, l := range lines {
		for p := 0; p <= l.LastPatch; p++ {
			out = append(out, Version{l.Minor, p})
		}
	}
	return out
}
