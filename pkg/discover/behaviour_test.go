package discover

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// tree writes files (path -> content) below a new host root; a content
// starting with "->" makes a symlink to the rest.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		if target, ok := strings.CutPrefix(c, "->"); ok {
			mustLink(t, target, filepath.Join(root, p))
		} else {
			mustWrite(t, filepath.Join(root, p), c)
		}
	}
	return root
}

// discoverTree runs the given sources on a host root.
func discoverTree(t *testing.T, root string, sources ...string) (*v1alpha1.NodeFeature, diag.List) {
	t.Helper()
	nf, warnings, err := Discover(context.Background(), Options{HostRoot: root, NodeName: "n", Sources: sources,
		Arch: "amd64", CPUID: CPUIDFunc(func() CPUInfo { return CPUInfo{} })})
	if err != nil {
		t.Fatal(err)
	}
	return nf, warnings
}

func TestNoSystemLibcFeatureAsNfdWorkerV019HasNone(t *testing.T) {
	nf, _ := discoverTree(t, tree(t, map[string]string{"etc/os-release": "ID=x\n", "lib/x86_64-linux-gnu/libc.so.6": "\x7fELF"}), "system")
	if _, ok := nf.Spec.Features.Attributes["system.libc"]; ok {
		t.Error("system.libc discovered; nfd-worker v0.19.0 has no such feature")
	}
}

func TestNetworkInterfacesReportMTU(t *testing.T) {
	nf, _ := discoverTree(t, tree(t, map[string]string{
		"sys/class/net/eth0/device/vendor": "0x8086\n", "sys/class/net/eth0/mtu": "9000\n",
		"sys/class/net/lo/mtu": "65536\n",
	}), "network")
	f := nf.Spec.Features.Instances
	if got := f["network.device"].Elements[0].Attributes["mtu"]; got != "9000" {
		t.Errorf("device mtu = %q, want 9000", got)
	}
	if got := f["network.virtual"].Elements[0].Attributes["mtu"]; got != "65536" {
		t.Errorf("virtual mtu = %q, want 65536", got)
	}
}

// nfd-worker v0.19.0 lists every entry of sys/class/net but
// bonding_masters: a regular file becomes a virtual interface with only its
// name (the reference odd-devices/nfd-worker.json has {"name": "README"}).
func TestRegularFileInSysClassNetIsAVirtualInterfaceAsInNfdWorker(t *testing.T) {
	nf, _ := discoverTree(t, tree(t, map[string]string{"sys/class/net/README": "not an interface\n", "sys/class/net/bonding_masters": "bond0\n"}), "network")
	want := []v1alpha1.InstanceFeature{{Attributes: map[string]string{"name": "README"}}}
	if diff := cmp.Diff(want, nf.Spec.Features.Instances["network.virtual"].Elements); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSelinuxWithoutEnforceIsDisabled(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"selinux-dir-without-enforce": {"sys/fs/selinux/policyvers": "33\n"},
		"no-selinux-dir":              {"sys/fs/cgroup/x": ""},
		"enforce-0":                   {"sys/fs/selinux/enforce": "0"},
	} {
		t.Run(name, func(t *testing.T) {
			nf, _ := discoverTree(t, tree(t, files), "kernel")
			if diff := cmp.Diff(map[string]string{"enabled": "false"}, nf.Spec.Features.Attributes["kernel.selinux"].Elements); diff != "" {
				t.Errorf("kernel.selinux (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDMIIDReadsAllSixteenAttributes(t *testing.T) {
	files := map[string]string{}
	want := map[string]string{}
	for _, a := range latestRelease().dmiIDAttributes() {
		files["sys/devices/virtual/dmi/id/"+a] = " " + a + "-value \n"
		want[a] = a + "-value"
	}
	files["sys/devices/virtual/dmi/id/product_serial"] = "secret\n"
	nf, _ := discoverTree(t, tree(t, files), "system")
	if diff := cmp.Diff(want, nf.Spec.Features.Attributes["system.dmiid"].Elements); diff != "" {
		t.Errorf("system.dmiid (-want +got):\n%s", diff)
	}
	if len(want) != 16 {
		t.Errorf("%d DMI attributes, nfd-worker v0.19 reads 16", len(want))
	}
}

func TestCustomDFileWithUnknownFieldIsSkippedWhole(t *testing.T) {
	nf, warnings := discoverTree(t, tree(t, map[string]string{
		customDirRel + "/typo.yaml":   "- name: ok\n  labels: {first: \"true\"}\n- name: typo\n  labels: {second: \"true\"}\n  matchFeature: []\n",
		customDirRel + "/legacy.yaml": "- name: legacy\n  matchOn: [{loadedKMod: [kvm]}]\n",
		customDirRel + "/good.yaml":   "- name: good\n  labels: {good: \"true\"}\n  matchFeatures: [{feature: rule.matched, matchExpressions: {a: {op: DoesNotExist, type: ignored}}}]\n",
	}), "custom")
	if diff := cmp.Diff(map[string]string{"good": "true"}, nf.Spec.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	text := warningsAsText(warnings)
	for _, w := range []string{"typo.yaml, skipping it", `unknown field "matchFeature"`, "legacy.yaml, skipping it", `good.yaml: line 3`} {
		if !strings.Contains(text, w) {
			t.Errorf("warnings lack %q:\n%s", w, text)
		}
	}
}

func TestFeaturesDSymlinksResolveInsideHostRoot(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.txt")
	mustWrite(t, outside, "stolen=1\n")
	root := tree(t, map[string]string{
		featuresDirRel + "/10-abs":     "->/etc/abs.txt",
		featuresDirRel + "/20-rel":     "->../../rel.txt",
		featuresDirRel + "/30-escape":  "->../../../../../../../../../.." + outside,
		featuresDirRel + "/40-outside": "->" + outside,
		"etc/abs.txt":                  "abs=1\n",
		"etc/kubernetes/rel.txt":       "rel=1\n",
	})
	nf, warnings := discoverTree(t, root, "local")
	want := map[string]string{"abs": "1", "rel": "1"}
	if diff := cmp.Diff(want, nf.Spec.Features.Attributes["local.feature"].Elements); diff != "" {
		t.Errorf("local.feature (-want +got):\n%s", diff)
	}
	if text := warningsAsText(warnings); strings.Contains(text, "stolen") {
		t.Errorf("a file outside the root leaked into the warnings:\n%s", text)
	}
}

func TestHybridCPULabelsComeFromTheDoubledSysPath(t *testing.T) {
	nf, _ := discoverTree(t, tree(t, map[string]string{
		"sys/sys/devices/cpu_core/cpus": "0-7\n",
		"sys/devices/cpu_atom/cpus":     "8-15\n",
	}), "cpu")
	got := cpuLabelsOf(nf, "cpu_core", "cpu_atom")
	if diff := cmp.Diff(map[string]string{"cpu_core": "true"}, got); diff != "" {
		t.Errorf("hybrid labels (-want +got):\n%s", diff)
	}
}

func TestNoPublishFeaturesLeaveTheObjectAfterLabelling(t *testing.T) {
	root := tree(t, map[string]string{"sys/block/nvme0n1/queue/rotational": "0\n", "etc/os-release": "ID=x\n"})
	nf, warnings, err := Discover(context.Background(), Options{HostRoot: root, NodeName: "n", Sources: []string{"storage", "system"},
		WorkerConfig: []byte("core: {noPublishFeatures: [storage.*, system.osrelease, gpu.device]}")})
	if err != nil {
		t.Fatal(err)
	}
	f := nf.Spec.Features.Attributes
	if _, ok := nf.Spec.Features.Instances["storage.block"]; ok {
		t.Error("storage.block published")
	}
	if _, ok := f["system.osrelease"]; ok {
		t.Error("system.osrelease published")
	}
	if _, ok := f["system.name"]; !ok {
		t.Error("system.name removed although no pattern names it")
	}
	if nf.Spec.Labels["feature.node.kubernetes.io/storage-nonrotationaldisk"] != "true" || nf.Spec.Labels["feature.node.kubernetes.io/system-os_release.ID"] != "x" {
		t.Errorf("labels were not made from the full feature set: %v", nf.Spec.Labels)
	}
	if !strings.Contains(warningsAsText(warnings), "1 pattern(s) matched no feature") {
		t.Errorf("unmatched pattern not reported: %v", warnings)
	}
}

func TestOddByteInFeaturesDLosesOnlyItsLine(t *testing.T) {
	root := tree(t, map[string]string{
		featuresDirRel + "/odd": "good=1\ndel=a\x7fb\nnel=a\u0085b\nnonchar=a\ufffeb\nbad\xffutf8=1\nlast=2\n",
		"etc/os-release":        "ID=x\nPRETTY_NAME=\"x\x7f\"\n",
	})
	nf, warnings := discoverTree(t, root, "local", "system")
	want := map[string]string{"good": "1", "bad\ufffdutf8": "1", "last": "2"}
	if diff := cmp.Diff(want, nf.Spec.Features.Attributes["local.feature"].Elements); diff != "" {
		t.Errorf("local.feature (-want +got):\n%s", diff)
	}
	if _, err := yaml.Marshal(nf); err != nil {
		t.Errorf("the object does not encode: %v", err)
	}
	text := warningsAsText(warnings)
	for _, w := range []string{"odd: line 2: skipped", "odd: line 3: skipped", "odd: line 4: skipped", "etc/os-release: line 2: skipped PRETTY_NAME"} {
		if !strings.Contains(text, w) {
			t.Errorf("warnings lack %q:\n%s", w, text)
		}
	}
}

func TestFIFOsAreNeverOpened(t *testing.T) {
	root := tree(t, map[string]string{"sys/class/net/lo/mtu": "65536\n"})
	for _, p := range []string{"etc/os-release", featuresDirRel + "/pipe", customDirRel + "/pipe.yaml", "proc/modules", "etc/nfd-worker.conf"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(filepath.Join(root, p), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	// The source deadline is past the hang timeout, so that a read
	// blocked on a FIFO shows as a hang instead of a dropped source.
	var err error
	testkit.NoHang(t, "discovery with FIFOs for files", func() {
		_, _, err = Discover(context.Background(), Options{HostRoot: root, NodeName: "n", SourceTimeout: 2 * testkit.HangTimeout,
			Sources: []string{"system", "local", "custom", "kernel"}, CPUID: CPUIDFunc(func() CPUInfo { return CPUInfo{} })})
	})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Discover(context.Background(), Options{HostRoot: root, NodeName: "n", Confine: true, WorkerConfigPath: "/etc/nfd-worker.conf", Sources: []string{"system"}})
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("worker config FIFO: error = %v, want not a regular file", err)
	}
}

func TestFilesOverTheSizeCapAreNotRead(t *testing.T) {
	root := tree(t, map[string]string{featuresDirRel + "/big": strings.Repeat("a=1\n", maxFeatureFileSize/4+1)})
	h := newHost(root)
	if _, err := h.readFileMax(featuresDirRel+"/big", 1024); err == nil || !strings.Contains(err.Error(), "larger than 1024 bytes") {
		t.Errorf("readFileMax over the cap: error = %v", err)
	}
	nf, warnings := discoverTree(t, root, "local")
	if len(nf.Spec.Features.Attributes["local.feature"].Elements) != 0 || !strings.Contains(warningsAsText(warnings), "file size limit exceeded") {
		t.Errorf("a features.d file over 64 KiB was read: %v", warnings)
	}
}

func TestConfinedPathsNeverLeaveTheHostRoot(t *testing.T) {
	secretDir := t.TempDir()
	mustWrite(t, filepath.Join(secretDir, "shadow"), "root:SECRET-HASH:19000::::::\n")
	mustWrite(t, filepath.Join(secretDir, "features.d/f"), "SECRET-FEATURE=1\n")
	root := tree(t, map[string]string{"etc/os-release": "ID=x\n"})
	for name, o := range map[string]Options{
		"worker-config-absolute":    {WorkerConfigPath: filepath.Join(secretDir, "shadow")},
		"worker-config-dotdot":      {WorkerConfigPath: "../../../../../../../../../.." + filepath.Join(secretDir, "shadow")},
		"features-dir-absolute":     {FeaturesDir: filepath.Join(secretDir, "features.d")},
		"features-dir-dotdot":       {FeaturesDir: "../../../../../../../.." + filepath.Join(secretDir, "features.d")},
		"worker-config-not-yaml-in": {WorkerConfig: []byte("root:SECRET-HASH:19000::::::\n")},
	} {
		t.Run(name, func(t *testing.T) {
			o.HostRoot, o.NodeName, o.Confine, o.Sources = root, "n", true, []string{"local", "system"}
			nf, warnings, err := Discover(context.Background(), o)
			all := warningsAsText(warnings)
			if err != nil {
				all += err.Error()
			}
			if nf != nil {
				b, _ := yaml.Marshal(nf)
				all += string(b)
			}
			if strings.Contains(all, "SECRET") {
				t.Errorf("content from outside the host root or of the file leaked:\n%s", all)
			}
		})
	}
}

func TestConfinedWarningsNeverQuoteFileContents(t *testing.T) {
	root := tree(t, map[string]string{
		featuresDirRel + "/f":           "SECRET!name=1\nok=SECRET value with spaces\n# +SECRET-directive\n",
		customDirRel + "/bad.yaml":      "- name: SECRET-rule\n  SECRETfield: 1\n",
		customDirRel + "/badop.yaml":    "- name: r\n  matchFeatures: [{feature: a.b, matchExpressions: {k: {op: SECRETOP}}}]\n",
		"etc/os-release":                "ID=x\nNAME=\"SECRET\x7f\"\n",
		"etc/kubernetes/nfd-worker.yml": "core: {SECRETkey: 1}\nsources: {pci: {deviceLabelFields: [SECRETfield]}}\n",
	})
	_, warnings, err := Discover(context.Background(), Options{HostRoot: root, NodeName: "n", Confine: true,
		WorkerConfigPath: "/etc/kubernetes/nfd-worker.yml", Sources: []string{"local", "custom", "system"}})
	if err != nil {
		t.Fatal(err)
	}
	text := warningsAsText(warnings)
	if strings.Contains(text, "SECRET") {
		t.Errorf("warnings quote file contents:\n%s", text)
	}
	for _, w := range []string{"f: line 3: invalid directive", "bad.yaml, skipping it", "badop.yaml, skipping it", "etc/os-release: line 2", "line 1: a field nfd-worker v0.19 ignores", "ignoring a label with an invalid name"} {
		if !strings.Contains(text, w) {
			t.Errorf("warnings lack %q:\n%s", w, text)
		}
	}
}

func TestSourceOutlivingItsDeadlineIsDroppedAlone(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	root := tree(t, map[string]string{"etc/os-release": "ID=x\n"})
	// The deadline is what the system source must finish within, reading
	// one small file: seconds, so that a machine at load 20 makes it.
	var nf *v1alpha1.NodeFeature
	var warnings diag.List
	var err error
	testkit.NoHang(t, "discovery with a source blocked for good", func() {
		nf, warnings, err = Discover(context.Background(), Options{HostRoot: root, NodeName: "n", Sources: []string{"cpu", "system"},
			SourceTimeout: 2 * time.Second, Arch: "amd64", CPUID: CPUIDFunc(func() CPUInfo { <-block; return CPUInfo{} })})
	})
	if err != nil {
		t.Fatal(err)
	}
	if nf.Spec.Features.Attributes["system.osrelease"].Elements["ID"] != "x" {
		t.Error("the system source was lost with the blocked cpu source")
	}
	if !strings.Contains(warningsAsText(warnings), "cpu: did not finish: context deadline exceeded") {
		t.Errorf("no warning for the cpu source: %v", warnings)
	}
}
