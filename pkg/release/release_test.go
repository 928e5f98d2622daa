package release

import (
	"strings"
	"testing"
)

func TestParseReadsReleasesAndProfiles(t *testing.T) {
	tests := []struct {
		in, name, engine, schema string
	}{
		{"v0.17.1", "v0.17.1", "v0.17.1", "v0.17.1"},
		{"0.18.3", "v0.18.3", "v0.18.3", "v0.18.3"},
		{"v0.17", "v0.17.4", "v0.17.4", "v0.17.4"},
		{"v0.19.0", "v0.19.0", "v0.19.0", "v0.19.0"},
		{"v0.16.9", "v0.16.9", "v0.16.9", "v0.16.9"},
		{"openshift-5.0", "openshift-5.0", "v0.18.3", "v0.17.1"},
		{"OpenShift-4.20", "openshift-4.20", "v0.18.3", "v0.17.1"},
		{"openshift-4.18", "openshift-4.18", "v0.17.1", "v0.17.1"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, err := Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if r.Name != tt.name || r.Engine.String() != tt.engine || r.Schema.String() != tt.schema {
				t.Errorf("Parse(%q) = %s engine %s schema %s, want %s engine %s schema %s", tt.in, r.Name, r.Engine, r.Schema, tt.name, tt.engine, tt.schema)
			}
		})
	}
}

func TestParseRefusesUnknownReleasesListingTheSupportedOnes(t *testing.T) {
	for _, in := range []string{"v0.15.0", "v0.17.5", "v0.19.1", "v1.0.0", "latest", "openshift-4.1", "v0.17.01", ""} {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), "v0.17.0 to v0.17.4") || !strings.Contains(err.Error(), "openshift-5.0") {
			t.Errorf("Parse(%q) = %v, want an error listing the supported releases", in, err)
		}
	}
}

func TestDefaultIsTheLatestReleaseAssumed(t *testing.T) {
	d := Default()
	if d.Name != "v0.19.0" || !d.Assumed || !d.Upstream() {
		t.Errorf("Default() = %+v", d)
	}
}

// TestCapabilityTable checks every line of the table on the releases on
// either side of its change.
func TestCapabilityTable(t *testing.T) {
	tests := []struct {
		cap  Capability
		has  []string
		lack []string
	}{
		{SprigFuncs, []string{"v0.18.0", "v0.19.0", "openshift-5.0"}, []string{"v0.16.9", "v0.17.4", "openshift-4.18"}},
		{HostEnvFuncs, []string{"v0.18.0", "v0.18.3", "openshift-5.0"}, []string{"v0.17.4", "v0.19.0"}},
		{TemplateSizeCap, []string{"v0.19.0"}, []string{"v0.18.3", "openshift-5.0"}},
		{MissingFeatureFails, []string{"v0.16.0", "v0.16.9"}, []string{"v0.17.0", "v0.19.0"}},
		{Restrictions, []string{"v0.17.0", "v0.19.0"}, []string{"v0.16.9"}},
		{AutoDefaultNs, []string{"v0.16.9", "v0.17.4"}, []string{"v0.18.0", "openshift-5.0"}},
		{ResourceLabels, []string{"v0.16.9"}, []string{"v0.17.0"}},
		{UnprefixedNames, []string{"v0.18.0", "openshift-5.0"}, []string{"v0.17.4"}},
		{UnprefixedAnnotations, []string{"v0.18.0", "v0.19.0"}, []string{"v0.17.4", "openshift-4.20", "openshift-5.0"}},
		{GroupGate, []string{"v0.16.8", "v0.17.3", "v0.18.0", "openshift-5.0"}, []string{"v0.16.7", "v0.17.0", "v0.17.2"}},
		{GroupBackrefs, []string{"v0.18.0", "v0.19.0", "openshift-4.20"}, []string{"v0.16.9", "v0.17.4", "openshift-4.18"}},
	}
	for _, tt := range tests {
		for _, name := range tt.has {
			if r, _ := Parse(name); !r.Has(tt.cap) {
				t.Errorf("%s lacks capability %d", name, tt.cap)
			}
		}
		for _, name := range tt.lack {
			if r, _ := Parse(name); r.Has(tt.cap) {
				t.Errorf("%s has capability %d", name, tt.cap)
			}
		}
	}
}

func TestFirstAndLastReleaseOfACapability(t *testing.T) {
	if v, ok := SprigFuncs.First(); !ok || v.String() != "v0.18.0" {
		t.Errorf("SprigFuncs.First() = %v %v", v, ok)
	}
	if v, ok := AutoDefaultNs.Last(); !ok || v.String() != "v0.17.4" {
		t.Errorf("AutoDefaultNs.Last() = %v %v", v, ok)
	}
}

func TestReleaseFromImageAndWorkerVersion(t *testing.T) {
	tests := []struct {
		image, want string
	}{
		{"registry.k8s.io/nfd/node-feature-discovery:v0.17.1", "v0.17.1"},
		{"registry.k8s.io/nfd/node-feature-discovery:v0.18.3-minimal", "v0.18.3"},
		{"gcr.io/k8s-staging-nfd/node-feature-discovery:v0.19.0@sha256:abc", "v0.19.0"},
		{"registry.redhat.io/openshift4/ose-node-feature-discovery-rhel9:v4.20", "openshift-4.20"},
		{"registry.k8s.io/nfd/node-feature-discovery:master", ""},
		{"registry.k8s.io/nfd/node-feature-discovery", ""},
		{"quay.io/other/image:v0.17.1", ""},
	}
	for _, tt := range tests {
		r, ok := FromImage(tt.image)
		if got := map[bool]string{true: r.Name}[ok]; got != tt.want {
			t.Errorf("FromImage(%q) = %q, want %q", tt.image, got, tt.want)
		}
	}
	if r, ok := FromBuildVersion("v0.18.0-devel-12-gabc"); !ok || r.Name != "v0.18.0" {
		t.Errorf("FromBuildVersion = %v %v", r, ok)
	}
	if _, ok := FromBuildVersion("v0.99.0"); ok {
		t.Error("FromBuildVersion accepted an unknown release")
	}
}

func TestUnreadableSaysWhyAnNFDImageShowsNoRelease(t *testing.T) {
	tests := []struct{ image, want string }{
		{"registry.redhat.io/openshift4/ose-node-feature-discovery-rhel9@sha256:0123", "OpenShift's NFD operand pinned by digest"},
		{"registry.redhat.io/openshift4/ose-node-feature-discovery-rhel9:v4.19", "OpenShift 4.19, for which nfd-fn has no profile"},
		{"registry.redhat.io/openshift4/ose-node-feature-discovery-rhel9:v4.19.0-202503041234.p0", "OpenShift 4.19, for which"},
		{"registry.redhat.io/openshift4/ose-node-feature-discovery-rhel9:latest", `tagged "latest"`},
		{"registry.k8s.io/nfd/node-feature-discovery@sha256:0123", "an NFD image pinned by digest"},
		{"registry.k8s.io/nfd/node-feature-discovery:v0.15.2", "NFD v0.15.2, a release nfd-fn does not model"},
		{"registry.k8s.io/nfd/node-feature-discovery:master", `tagged "master"`},
		{"registry.k8s.io/nfd/node-feature-discovery:v0.17.1", ""},
		{"registry.redhat.io/openshift4/ose-node-feature-discovery-rhel9:v4.20", ""},
		{"quay.io/other/image@sha256:0123", ""},
	}
	for _, tt := range tests {
		got := Unreadable(tt.image)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("Unreadable(%q) = %q, want %q", tt.image, got, tt.want)
		}
	}
}
