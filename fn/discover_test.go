package fn

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// fakeDiscover returns a DiscoverFunc that records the options it was
// called with and builds a small NodeFeature from them.
func fakeDiscover(got *[]config.DiscoverOptions, warnings []string, err error) DiscoverFunc {
	var diags diag.List
	for _, w := range warnings {
		diags = append(diags, diag.Diagnostic{Severity: diag.Warning, Message: w})
	}
	return func(ctx context.Context, o config.DiscoverOptions) (*api.NodeFeature, diag.List, error) {
		*got = append(*got, o)
		if err != nil {
			return nil, diags, err
		}
		ns := o.Namespace
		if ns == "" {
			ns = "node-feature-discovery"
		}
		return &api.NodeFeature{
			APIVersion: "nfd.k8s-sigs.io/v1alpha1", Kind: "NodeFeature",
			Metadata: api.ObjectMeta{Name: o.NodeName, Namespace: ns,
				Labels:      map[string]string{api.NodeNameLabel: o.NodeName},
				Annotations: map[string]string{"nfd-fn.dev/version": "v0.0.0-test"}},
			Spec: api.NodeFeatureSpec{Labels: map[string]string{"host-root": o.HostRoot}},
		}, diags, nil
	}
}

// discoverInput builds a ResourceList with a ConfigMap functionConfig.
func discoverInput(items, data string) string {
	return "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items +
		"functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn}\n  data:\n" + data
}

// kptNodeFeature is a NodeFeature item as kpt passes it, read from nf.yaml.
const kptNodeFeature = `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata:
    name: worker-1
    namespace: node-feature-discovery
    labels:
      nfd.node.kubernetes.io/node-name: worker-1
    annotations:
      config.kubernetes.io/index: '0'
      config.kubernetes.io/path: 'nf.yaml'
      internal.config.kubernetes.io/index: '0'
      internal.config.kubernetes.io/path: 'nf.yaml'
      internal.config.kubernetes.io/id: '2'
      config.k8s.io/id: '2'
      stale: "yes"
  spec:
    labels: {old: "true"}
`

// otherNodeFeature belongs to the same node but another publisher.
const otherNodeFeature = `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata:
    name: worker-1
    namespace: gpu-operator
    labels:
      nfd.node.kubernetes.io/node-name: worker-1
  spec:
    labels: {gpu: "true"}
`

// runDiscoverMode runs Run with a fake DiscoverFunc.
func runDiscoverMode(t *testing.T, input string, fake DiscoverFunc) (string, int) {
	t.Helper()
	out, code := testkit.Run(t, runWith(RunOptions{Discover: fake}), []byte(input))
	return string(out), code
}

// nodeFeatureItems decodes the NodeFeature items of a ResourceList.
func nodeFeatureItems(t *testing.T, out string) []api.NodeFeature {
	t.Helper()
	var rl struct {
		Items []api.NodeFeature `json:"items"`
	}
	if err := yaml.Unmarshal([]byte(out), &rl); err != nil {
		t.Fatal(err)
	}
	var nfs []api.NodeFeature
	for _, it := range rl.Items {
		if it.Kind == "NodeFeature" {
			nfs = append(nfs, it)
		}
	}
	return nfs
}

func TestDiscoverModeAppendsTheHostNodeFeature(t *testing.T) {
	var calls []config.DiscoverOptions
	out, code := runDiscoverMode(t, discoverInput("- {apiVersion: v1, kind: ConfigMap, metadata: {name: other}}\n",
		"    mode: discover\n    nodeName: worker-9\n    hostRoot: /snap\n"), fakeDiscover(&calls, nil, nil))
	if code != 0 {
		t.Fatalf("exit code %d:\n%s", code, out)
	}
	nfs := nodeFeatureItems(t, out)
	if len(nfs) != 1 {
		t.Fatalf("got %d NodeFeatures, want 1:\n%s", len(nfs), out)
	}
	want := map[string]string{
		"nfd-fn.dev/version":                 "v0.0.0-test",
		"internal.config.kubernetes.io/path": "nodefeatures/worker-9.yaml", "internal.config.kubernetes.io/index": "0",
		"config.kubernetes.io/path": "nodefeatures/worker-9.yaml", "config.kubernetes.io/index": "0",
	}
	if diff := cmp.Diff(want, nfs[0].Metadata.Annotations); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}
	if nfs[0].Spec.Labels["host-root"] != "/snap" {
		t.Errorf("hostRoot not passed: %v", nfs[0].Spec.Labels)
	}
}

func TestDiscoverModeReplacesTheWorkersObjectOnly(t *testing.T) {
	var calls []config.DiscoverOptions
	out, code := runDiscoverMode(t, discoverInput(kptNodeFeature+otherNodeFeature, "    mode: discover\n    nodeName: worker-1\n"),
		fakeDiscover(&calls, nil, nil))
	if code != 0 {
		t.Fatalf("exit code %d:\n%s", code, out)
	}
	nfs := nodeFeatureItems(t, out)
	if len(nfs) != 2 {
		t.Fatalf("got %d NodeFeatures, want 2:\n%s", len(nfs), out)
	}
	want := map[string]string{
		"nfd-fn.dev/version":        "v0.0.0-test",
		"config.kubernetes.io/path": "nf.yaml", "config.kubernetes.io/index": "0",
		"internal.config.kubernetes.io/path": "nf.yaml", "internal.config.kubernetes.io/index": "0",
		"internal.config.kubernetes.io/id": "2", "config.k8s.io/id": "2",
	}
	if diff := cmp.Diff(want, nfs[0].Metadata.Annotations); diff != "" {
		t.Errorf("replaced item annotations (-want +got):\n%s", diff)
	}
	if _, stale := nfs[0].Spec.Labels["old"]; stale {
		t.Errorf("old spec kept: %v", nfs[0].Spec.Labels)
	}
	if nfs[1].Metadata.Namespace != "gpu-operator" || nfs[1].Spec.Labels["gpu"] != "true" {
		t.Errorf("another publisher's NodeFeature changed: %+v", nfs[1])
	}
}

func TestDiscoverModeRerunIsByteIdentical(t *testing.T) {
	for name, items := range map[string]string{"appended": "", "replaced": kptNodeFeature + otherNodeFeature} {
		t.Run(name, func(t *testing.T) {
			var calls []config.DiscoverOptions
			fake := fakeDiscover(&calls, nil, nil)
			first, _ := runDiscoverMode(t, discoverInput(items, "    mode: discover\n    nodeName: worker-1\n"), fake)
			second, _ := runDiscoverMode(t, first, fake)
			if diff := cmp.Diff(first, second); diff != "" {
				t.Errorf("second run changed the output (-first +second):\n%s", diff)
			}
		})
	}
}

func TestDiscoverModePassesSettings(t *testing.T) {
	want := config.DiscoverOptions{HostRoot: "/snap", NodeName: "worker-2", Namespace: "nfd", FeaturesDir: "/f.d",
		Sources: []string{"cpu", "kernel"}, SkipSources: []string{"usb"}, WorkerConfig: "/etc/nfd-worker.conf", Arch: "arm64", NFDVersion: "v0.18.3"}
	tests := []struct {
		name, functionConfig string
	}{
		{"configmap", "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn}\n  data:\n    mode: discover\n    hostRoot: /snap\n    nodeName: worker-2\n    nfdNamespace: nfd\n    featuresDir: /f.d\n    sources: cpu, kernel\n    skipSources: usb\n    workerConfig: /etc/nfd-worker.conf\n    arch: arm64\n    nfdVersion: v0.18.3\n"},
		{"typed", "functionConfig:\n  apiVersion: fn.nfd-fn.dev/v1alpha1\n  kind: NFDFunctionConfig\n  mode: discover\n  hostRoot: /snap\n  nodeName: worker-2\n  nfdNamespace: nfd\n  featuresDir: /f.d\n  sources: [cpu, kernel]\n  skipSources: [usb]\n  workerConfig: /etc/nfd-worker.conf\n  arch: arm64\n  nfdVersion: v0.18.3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls []config.DiscoverOptions
			out, code := runDiscoverMode(t, "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n"+tt.functionConfig,
				fakeDiscover(&calls, nil, nil))
			if code != 0 || len(calls) != 1 {
				t.Fatalf("exit code %d, %d calls:\n%s", code, len(calls), out)
			}
			if diff := cmp.Diff(want, calls[0]); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiscoverModeResults(t *testing.T) {
	tests := []struct {
		name, data  string
		warnings    []string
		err         error
		wantCode    int
		wantCalls   int
		wantResults []string
	}{
		{"bad-settings-skip-discovery", "    mode: discover\n    arch: sparc\n    sources: cpu,gpu\n    nodeName: Not_A_Node\n", nil, nil, 1, 0,
			[]string{`error: data.arch: functionConfig: unsupported arch "sparc": want amd64 or arm64`,
				`error: data.nodeName: functionConfig: invalid node name "Not_A_Node"`,
				`error: data.sources: functionConfig: unknown source "gpu"`,
				"info: discover: not run, the functionConfig has errors"}},
		{"discover-warnings-become-results", "    mode: discover\n    nodeName: w\n", []string{"pci: unreadable"}, nil, 0, 1,
			[]string{"warning: discover: pci: unreadable"}},
		{"discover-error-fails", "    mode: discover\n    nodeName: w\n", nil, errors.New("parsing worker config: boom"), 1, 1,
			[]string{"error: discover: parsing worker config: boom"}},
		{"settings-outside-discover-warn", "    hostRoot: /snap\n    arch: arm64\n", nil, nil, 0, 0,
			[]string{"warning: data.hostRoot: functionConfig: hostRoot is a mode discover setting; mode render ignores it",
				"warning: data.arch: functionConfig: arch is a mode discover setting; mode render ignores it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls []config.DiscoverOptions
			out, code := runDiscoverMode(t, discoverInput("", tt.data), fakeDiscover(&calls, tt.warnings, tt.err))
			if code != tt.wantCode || len(calls) != tt.wantCalls {
				t.Errorf("exit code %d, %d calls; want %d, %d", code, len(calls), tt.wantCode, tt.wantCalls)
			}
			rl := testkit.Read(t, []byte(out))
			var got []string
			for _, r := range rl.Results {
				msg := r.Severity + ": "
				if r.Field.Path != "" {
					msg += r.Field.Path + ": "
				}
				got = append(got, msg+r.Message)
			}
			if len(got) != len(tt.wantResults) {
				t.Fatalf("results %q, want %q", got, tt.wantResults)
			}
			for i, w := range tt.wantResults {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("result %d = %q, want prefix %q", i, got[i], w)
				}
			}
		})
	}
}

// TestDiscoverModeUnderKptFnEval snapshots the arm64 fixture host into a
// package with the real binary under `kpt fn eval --exec`, twice: the file
// must hold the NodeFeature nfd-worker v0.19.0 published for that tree
// (its cpu source aside, which the reference machine's CPU made) and the
// second run must change nothing.
func TestDiscoverModeUnderKptFnEval(t *testing.T) {
	const kpt = "/usr/bin/kpt"
	if _, err := os.Stat(kpt); err != nil {
		t.Skipf("%s not installed", kpt)
	}
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := testkit.Binary(t, "-ldflags", "-X github.com/nfd-fn/nfd-fn/pkg/version.Version=v0.0.0-test")
	pkg := filepath.Join(dir, "pkg")
	mustWriteFile(t, filepath.Join(pkg, "Kptfile"), "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n")
	root, err := filepath.Abs("../testdata/discover/arm64-host")
	if err != nil {
		t.Fatal(err)
	}
	const node = "node-datacenter1-rack1-server1"
	eval := func() {
		cmd := exec.Command(kpt, "fn", "eval", pkg, "--exec", bin, "--",
			"mode=discover", "hostRoot="+root, "arch=arm64", "nodeName="+node)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("kpt fn eval: %v\n%s", err, b)
		}
	}
	eval()
	got := readFile(t, filepath.Join(pkg, "nodefeatures", node+".yaml"))
	var gotNF, wantNF api.NodeFeature
	if err := yaml.Unmarshal([]byte(got), &gotNF); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(readFile(t, "../testdata/discover/arm64-host.nfd-worker.json")), &wantNF); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(withoutCPU(wantNF), withoutCPU(gotNF)); diff != "" {
		t.Errorf("nodefeatures/%s.yaml differs from nfd-worker's NodeFeature (-nfd-worker +nfd-fn):\n%s", node, diff)
	}
	eval()
	if again := readFile(t, filepath.Join(pkg, "nodefeatures", node+".yaml")); again != got {
		t.Errorf("second kpt fn eval changed the file:\n%s", cmp.Diff(got, again))
	}
	ents, err := os.ReadDir(filepath.Join(pkg, "nodefeatures"))
	if err != nil || len(ents) != 1 {
		t.Errorf("nodefeatures/ holds %d files (%v), want 1", len(ents), err)
	}
}

// mustWriteFile creates a file and its parents.
func mustWriteFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readFile returns a file's content.
func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDiscoverModeRunsDiscoveryUnderADeadline(t *testing.T) {
	var deadline time.Time
	var hasDeadline bool
	fake := func(ctx context.Context, o config.DiscoverOptions) (*api.NodeFeature, diag.List, error) {
		deadline, hasDeadline = ctx.Deadline()
		return nil, nil, errors.New("stop")
	}
	runDiscoverMode(t, discoverInput("", "    mode: discover\n    nodeName: worker-9\n"), fake)
	if !hasDeadline || time.Until(deadline) > DiscoverTimeout {
		t.Errorf("discovery ran with deadline %v (set: %v), want one within %v", deadline, hasDeadline, DiscoverTimeout)
	}
}

// withoutCPU returns a NodeFeature's spec without the cpu.* features and
// cpu-* labels, which depend on the CPU of the machine that ran discovery.
func withoutCPU(nf api.NodeFeature) api.NodeFeatureSpec {
	spec := api.NodeFeatureSpec{Labels: map[string]string{}}
	spec.Features = api.Features{Flags: map[string]api.FlagFeatureSet{}, Attributes: map[string]api.AttributeFeatureSet{}, Instances: map[string]api.InstanceFeatureSet{}}
	f := nf.Spec.Features
	for k, v := range f.Flags {
		if !strings.HasPrefix(k, "cpu.") {
			spec.Features.Flags[k] = v
		}
	}
	for k, v := range f.Attributes {
		if !strings.HasPrefix(k, "cpu.") {
			spec.Features.Attributes[k] = v
		}
	}
	for k, v := range f.Instances {
		if !strings.HasPrefix(k, "cpu.") {
			spec.Features.Instances[k] = v
		}
	}
	for k, v := range nf.Spec.Labels {
		if !strings.Contains(k, "cpu-") {
			spec.Labels[k] = v
		}
	}
	return spec
}
