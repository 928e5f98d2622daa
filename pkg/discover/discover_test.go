package discover

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

const fixtureDir = "../../testdata/discover"

// fixtureArchs are the architectures of the fixture hosts.
func fixtureArchs() map[string]string {
	return map[string]string{"full-host": "amd64", "bare-host": "amd64", "arm64-host": "arm64"}
}

// fakeCPUs are the CPUID answers of the amd64 fixture hosts.
func fakeCPUs() map[string]CPUInfo {
	return map[string]CPUInfo{
		"full-host": {
			Flags:      []string{"AVX", "AVX2", "AVX512F", "AVX10", "SSE4", "CMOV", "X86_64_V1", "X86_64_V2", "X86_64_V3", "X86_64_V4"},
			Attributes: map[string]string{"AVX10_VERSION": "1"},
			VendorID:   "Intel", Family: 6, Model: 143,
			VM: true, HypervisorVendor: "KVM",
			SGXEPCSize: 1 << 30,
			Leaves: map[Leaf]Regs{
				{EAX: leafExtFeatures}:           {EBX: extFeaturesEBXRDTM | extFeaturesEBXRDTA},
				{EAX: leafRDTMonitoring}:         {EDX: rdtMonEDXL3},
				{EAX: leafRDTMonitoring, ECX: 1}: {EDX: rdtL3MonEDXOccupancy | rdtL3MonEDXTotalBW | rdtL3MonEDXLocalBW},
				{EAX: leafRDTAllocation}:         {EBX: rdtAllocEBXL3 | rdtAllocEBXMemBW},
				{EAX: leafFrequencyInfo}:         {EAX: 2000},
			},
		},
		"bare-host": {
			Flags:    []string{"SSE2", "X86_64_V1"},
			VendorID: "AMD", Family: 25, Model: 1,
		},
	}
}

// fixtureOptions returns the discovery options of a fixture host.
func fixtureOptions(t testing.TB, name string) Options {
	t.Helper()
	cfg, err := os.ReadFile(filepath.Join(fixtureDir, name+".worker-config.yaml"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	cpu, ok := fakeCPUs()[name]
	return Options{
		HostRoot:     filepath.Join(fixtureDir, name),
		NodeName:     "node-datacenter1-rack1-server1",
		WorkerConfig: cfg,
		Version:      "v0.0.0-test",
		Arch:         fixtureArchs()[name],
		Now:          func() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) },
		CPUID: CPUIDFunc(func() CPUInfo {
			if !ok {
				panic("CPUID read for a host whose CPU data must come from its tree")
			}
			return cpu
		}),
	}
}

// warningsText renders warnings one per line with the fixture root hidden.
func warningsText(ws diag.List, root string) []byte {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(strings.ReplaceAll(w.Describe(), root, "<root>") + "\n")
	}
	return []byte(b.String())
}

func TestDiscoverRejectsBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"missing-node-name", Options{}, "node name is required"},
		{"node-name-that-is-a-path", Options{NodeName: "../../../../tmp/x"}, `node name "../../../../tmp/x" is not a valid Kubernetes node name`},
		{"node-name-with-a-newline", Options{NodeName: "a\nb"}, `node name "a\nb" is not a valid`},
		{"node-name-of-300-characters", Options{NodeName: strings.Repeat("a", 300)}, "must be no more than 253 characters"},
		{"unknown-source", Options{NodeName: "n", Sources: []string{"gpu"}}, `unknown source "gpu"`},
		{"unknown-skipped-source", Options{NodeName: "n", SkipSources: []string{"fake"}}, `unknown source "fake"`},
		{"unsupported-arch", Options{NodeName: "n", Arch: "s390x"}, `architecture "s390x" is not modelled (supported: amd64, arm64)`},
		{"unparsable-worker-config", Options{NodeName: "n", WorkerConfig: []byte("core: [")}, "parsing worker config"},
		{"bad-label-whitelist", Options{NodeName: "n", WorkerConfig: []byte("core: {labelWhiteList: '('}")}, "labelWhiteList"},
		{"values-typo-in-custom-rule", Options{NodeName: "n", WorkerConfig: []byte(
			"sources: {custom: [{name: x, matchFeatures: [{feature: a.b, matchExpressions: {k: {op: In, values: [x]}}}]}]}")},
			"value must be non-empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Discover(context.Background(), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestDiscoverHonoursSourceSelection(t *testing.T) {
	tests := []struct {
		name         string
		sources      []string
		skip         []string
		config       string
		wantFeatures []string
		wantLabel    string
	}{
		{"only-kernel", []string{"kernel"}, nil, "", []string{"kernel.config", "kernel.enabledmodule", "kernel.kvm", "kernel.loadedmodule", "kernel.selinux", "kernel.version"}, "feature.node.kubernetes.io/kernel-version.major"},
		{"skip-all-but-system", nil, []string{"cpu", "kernel", "memory", "network", "pci", "storage", "usb", "local", "custom"}, "", []string{"system.dmiid", "system.name", "system.osrelease"}, "feature.node.kubernetes.io/system-os_release.ID"},
		{"config-feature-sources", nil, nil, "core: {featureSources: [all, -cpu, -kernel, -memory, -network, -pci, -usb, -system, -local], labelSources: [storage]}", []string{"storage.block"}, "feature.node.kubernetes.io/storage-nonrotationaldisk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := fixtureOptions(t, "full-host")
			o.Sources, o.SkipSources, o.WorkerConfig = tt.sources, tt.skip, []byte(tt.config)
			nf, _, err := Discover(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			f := nf.Spec.Features
			got := append(append(sortedKeys(f.Flags), sortedKeys(f.Attributes)...), sortedKeys(f.Instances)...)
			if diff := cmp.Diff(tt.wantFeatures, sortedStrings(got)); diff != "" {
				t.Errorf("features (-want +got):\n%s", diff)
			}
			if _, ok := nf.Spec.Labels[tt.wantLabel]; !ok {
				t.Errorf("label %q missing from %v", tt.wantLabel, nf.Spec.Labels)
			}
		})
	}
}

// sortedStrings returns s sorted.
func sortedStrings(s []string) []string {
	m := map[string]bool{}
	for _, x := range s {
		m[x] = true
	}
	return sortedKeys(m)
}

func TestDiscoverStopsWaitingWhenContextEnds(t *testing.T) {
	o := fixtureOptions(t, "full-host")
	block := make(chan struct{})
	defer close(block)
	o.CPUID = CPUIDFunc(func() CPUInfo { <-block; return CPUInfo{} })
	// The kernel source reads a few fixture files within the deadline,
	// even on a machine at load 20; the cpu source never finishes.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	nf, warnings, err := Discover(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := nf.Spec.Features.Attributes["kernel.version"]; !ok {
		t.Error("kernel features missing although the kernel source finished")
	}
	if _, ok := nf.Spec.Features.Flags["cpu.cpuid"]; ok {
		t.Error("cpu features present although the cpu source never finished")
	}
	found := false
	for _, w := range warnings {
		found = found || (w.Field == "cpu" && strings.Contains(w.Message, "did not finish"))
	}
	if !found {
		t.Errorf("no warning for the unfinished cpu source in %v", warnings)
	}
}

func TestDiscoverRecoversFromPanickingSource(t *testing.T) {
	o := fixtureOptions(t, "full-host")
	o.CPUID = CPUIDFunc(func() CPUInfo { panic("cpuid exploded") })
	nf, warnings, err := Discover(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := nf.Spec.Features.Instances["pci.device"]; !ok {
		t.Error("pci features missing after the cpu source panicked")
	}
	if !strings.Contains(warningsAsText(warnings), "cpuid exploded") {
		t.Errorf("panic not reported: %v", warnings)
	}
}

// warningsAsText joins warnings for substring checks.
func warningsAsText(ws diag.List) string {
	return string(warningsText(ws, "\x00"))
}

func BenchmarkDiscoverHost(b *testing.B) {
	o := Options{HostRoot: "/", NodeName: "bench", FeaturesDir: b.TempDir()}
	for b.Loop() {
		if _, _, err := Discover(context.Background(), o); err != nil {
			b.Fatal(err)
		}
	}
}
