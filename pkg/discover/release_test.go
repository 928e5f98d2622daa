package discover

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	nfdrelease "github.com/nfd-fn/nfd-fn/pkg/release"
)

// oldestModelledWorker is the first minor whose nfd-worker discover
// reproduces; every later line of pkg/release's table must have one.
const oldestModelledWorker = 17

// TestEveryReleaseHasAWorkerProfile fails when a minor of pkg/release's
// table (from the oldest modelled worker on) names no worker release or
// has no profile here, and when a profile has no line: a release added
// to the table without its worker is caught here.
func TestEveryReleaseHasAWorkerProfile(t *testing.T) {
	profiles := releases()
	lines := 0
	for _, l := range nfdrelease.Lines() {
		if l.Minor < oldestModelledWorker {
			continue
		}
		lines++
		p, ok := profiles[l.Minor]
		if l.Worker.Minor != l.Minor || !ok {
			t.Errorf("v0.%d: worker %v in pkg/release, profile here %v: every release from v0.%d on needs both", l.Minor, l.Worker, ok, oldestModelledWorker)
			continue
		}
		if want := fmt.Sprintf("v0.%d", l.Minor); p.name != want {
			t.Errorf("profile of v0.%d is named %q, want %q", l.Minor, p.name, want)
		}
	}
	if lines != len(profiles) {
		t.Errorf("%d worker profiles for %d releases: a profile has no line in pkg/release", len(profiles), lines)
	}
	if DefaultNFDVersion != nfdrelease.LatestWorker.String() || nfdrelease.LatestWorker.Minor != nfdrelease.Latest.Minor {
		t.Errorf("discover's default %s is not the latest release %s", DefaultNFDVersion, nfdrelease.Latest)
	}
}

// releaseHost is a tree with something for every per-release switch: huge
// pages, a NIC with an mtu, kvm, all DMI files, the hybrid-CPU probe path,
// a kernel config only at usr/src/linux-rt-<release>/.config and no
// proc/sysinfo.
func releaseHost(t *testing.T, extra map[string]string) string {
	files := map[string]string{
		"sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages": "4\n",
		"sys/class/net/eth0/device":                             "->../../../devices/pci0000:00/0000:00:03.0",
		"sys/devices/pci0000:00/0000:00:03.0/vendor":            "0x8086\n",
		"sys/class/net/eth0/operstate":                          "up\n",
		"sys/class/net/eth0/mtu":                                "9000\n",
		"sys/devices/virtual/misc/kvm/dev":                      "10:232\n",
		"sys/sys/devices/cpu_core/cpus":                         "0-7\n",
		"proc/sys/kernel/osrelease":                             "6.6.0-rt\n",
		"usr/src/linux-rt-6.6.0-rt/.config":                     "CONFIG_PREEMPT_RT=y\n",
	}
	for _, a := range latestRelease().dmiIDAttributes() {
		files["sys/devices/virtual/dmi/id/"+a] = a + "\n"
	}
	for k, v := range extra {
		files[k] = v
	}
	return tree(t, files)
}

// discoverRelease runs every source of the host as the given release would.
func discoverRelease(t *testing.T, root, version, config string) *v1alpha1.NodeFeature {
	t.Helper()
	nf, _, err := Discover(context.Background(), Options{HostRoot: root, NodeName: "n", NFDVersion: version, Arch: "amd64",
		WorkerConfig: []byte(config),
		CPUID: CPUIDFunc(func() CPUInfo {
			return CPUInfo{Flags: []string{"AVX2", "AMXTF32", "FRED", "X86_64_V1", "X86_64_V2", "X86_64_V3"}, VendorID: "Intel", Attributes: map[string]string{}}
		})})
	if err != nil {
		t.Fatal(err)
	}
	return nf
}

// releaseFacts reduces a NodeFeature to what the releases differ in.
func releaseFacts(nf *v1alpha1.NodeFeature) map[string]any {
	f := nf.Spec.Features
	_, hugepages := f.Attributes["memory.hugepages"]
	_, kvm := f.Attributes["kernel.kvm"]
	mtu := ""
	if devs := f.Instances["network.device"].Elements; len(devs) > 0 {
		mtu = devs[0].Attributes["mtu"]
	}
	hv, hasHV := f.Attributes["cpu.model"].Elements["hypervisor"]
	if !hasHV {
		hv = "(none)"
	}
	var levels, late []string
	for flag := range f.Flags["cpu.cpuid"].Elements {
		switch {
		case strings.HasPrefix(flag, "X86_64_V"):
			levels = append(levels, flag)
		case flag != "AVX2":
			late = append(late, flag)
		}
	}
	slices.Sort(levels)
	slices.Sort(late)
	return map[string]any{
		"memory.hugepages":     hugepages,
		"network mtu":          mtu,
		"kernel.kvm":           kvm,
		"system.dmiid count":   len(f.Attributes["system.dmiid"].Elements),
		"X86_64 levels":        levels,
		"later cpuid flags":    late,
		"cpu.model.hypervisor": hv,
		"cpu-cpu_core label":   nf.Spec.Labels["feature.node.kubernetes.io/cpu-cpu_core"],
		"rt kernel config":     f.Attributes["kernel.config"].Elements["PREEMPT_RT"],
	}
}

func TestDiscoverPublishesWhatEachNfdWorkerReleasePublishes(t *testing.T) {
	root := releaseHost(t, nil)
	v19 := map[string]any{
		"memory.hugepages": true, "network mtu": "9000", "kernel.kvm": true, "system.dmiid count": 16,
		"X86_64 levels": []string{"X86_64_V1", "X86_64_V2", "X86_64_V3"}, "later cpuid flags": []string{"AMXTF32", "FRED"}, "cpu.model.hypervisor": "none",
		"cpu-cpu_core label": "true", "rt kernel config": "y",
	}
	v18 := map[string]any{
		"memory.hugepages": true, "network mtu": "9000", "kernel.kvm": false, "system.dmiid count": 2,
		"X86_64 levels": []string(nil), "later cpuid flags": []string{"AMXTF32"}, "cpu.model.hypervisor": "(none)", "cpu-cpu_core label": "", "rt kernel config": "",
	}
	v17 := map[string]any{
		"memory.hugepages": false, "network mtu": "", "kernel.kvm": false, "system.dmiid count": 2,
		"X86_64 levels": []string(nil), "later cpuid flags": []string(nil), "cpu.model.hypervisor": "(none)", "cpu-cpu_core label": "", "rt kernel config": "",
	}
	tests := []struct {
		version string
		want    map[string]any
	}{
		{"", v19}, {"v0.19.0", v19}, {"v0.18.3", v18}, {"v0.18.x", v18}, {"v0.18", v18}, {"v0.17.1", v17}, {"v0.17.x", v17},
	}
	for _, tt := range tests {
		t.Run("version-"+tt.version, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, releaseFacts(discoverRelease(t, root, tt.version, ""))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestHypervisorOfV018ComesFromProcSysinfoOnlyAndOfV019FromCPUID(t *testing.T) {
	tests := []struct{ version, sysinfo, want string }{
		{"v0.18.3", "Manufacturer: IBM\n", "PR_SM"},
		{"v0.18.3", "VM00 Control Program: z/VM    7.3.0\n", "z_VM_7.3.0"},
		// v0.19 reads proc/sysinfo only when built for s390x.
		{"v0.19.0", "VM00 Control Program: z/VM    7.3.0\n", "none"},
	}
	for _, tt := range tests {
		root := releaseHost(t, map[string]string{"proc/sysinfo": tt.sysinfo})
		got := discoverRelease(t, root, tt.version, "").Spec.Features.Attributes["cpu.model"].Elements["hypervisor"]
		if got != tt.want {
			t.Errorf("%s, sysinfo %q: hypervisor %q, want %q", tt.version, tt.sysinfo, got, tt.want)
		}
	}
}

func TestNoPublishFeaturesAndOwnerRefsAreUnknownBeforeV019(t *testing.T) {
	root := releaseHost(t, nil)
	config := "core: {noPublishFeatures: [memory.*], ownerRefs: [not-an-owner]}"
	nf := discoverRelease(t, root, "v0.18.3", config)
	if _, ok := nf.Spec.Features.Attributes["memory.hugepages"]; !ok {
		t.Error("v0.18: memory.hugepages left out; nfd-worker v0.18 has no noPublishFeatures and publishes it")
	}
	_, warnings, err := parseWorkerConfig([]byte(config), releases()[18], false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`line 1: core.noPublishFeatures: unknown field "noPublishFeatures": nfd-worker v0.18 ignores it; it exists from nfd-worker v0.19`,
		`line 1: core.ownerRefs: unknown field "ownerRefs": nfd-worker v0.18 ignores it; it exists from nfd-worker v0.19`,
	}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if _, _, err := parseWorkerConfig([]byte(config), latestRelease(), false); err == nil {
		t.Error("v0.19: no error for ownerRefs [not-an-owner], want one (nfd-worker v0.19 stops)")
	}
}

func TestUnknownNfdVersionIsAnErrorListingTheSupportedOnes(t *testing.T) {
	for _, v := range []string{"v0.16.9", "v0.19.1", "v0.18.3-rc1", "latest", "v1.0.0"} {
		err := ValidNFDVersion(v)
		if err == nil || !strings.Contains(err.Error(), "v0.17.x, v0.18.x, v0.19.0") {
			t.Errorf("%q: error %v, want one listing v0.17.x, v0.18.x, v0.19.0", v, err)
		}
	}
	for _, v := range []string{"", "v0.17.0", "v0.17.4", "v0.18.x", "v0.19.0", "v0.19.x", "v0.19"} {
		if err := ValidNFDVersion(v); err != nil {
			t.Errorf("%q: %v", v, err)
		}
	}
}

// OpenShift's operand runs an upstream worker under its own release
// names; discover reproduces the upstream code its engine is.
func TestOpenShiftProfileDiscoversAsItsEngineRelease(t *testing.T) {
	for profile, want := range map[string]string{"openshift-4.18": "v0.17", "openshift-4.20": "v0.18", "openshift-5.0": "v0.18"} {
		rel, err := resolveRelease(profile)
		if err != nil {
			t.Errorf("%s: %v", profile, err)
			continue
		}
		if rel.name != want {
			t.Errorf("%s discovers as %s, want %s (its engine's release)", profile, rel.name, want)
		}
	}
}
