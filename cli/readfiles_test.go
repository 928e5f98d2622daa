package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// Validate, explain and plan read their files as render does (inputs.Reader):
// the tests here run them on what that makes possible (exports larger than
// a file nfd-fn parses whole, JSON exports, directories on both sides of a
// plan) and on what it must not change (--context).

// exportedFeature is one NodeFeature of a kubectl get -o yaml export, as
// nfd-worker publishes it and the API server returns it: managedFields
// mirror every feature the spec holds, kernel.config lists the kernel's
// options. label is its metadata.labels entry.
func exportedFeature(name, label string) string {
	return strings.NewReplacer("NAME", name, "LABEL", label).Replace(exportedFeatureText)
}

var exportedFeatureText = func() string {
	var b strings.Builder
	b.WriteString("- apiVersion: nfd.k8s-sigs.io/v1alpha1\n  kind: NodeFeature\n  metadata:\n")
	b.WriteString("    annotations:\n      nfd.node.kubernetes.io/worker.version: v0.19.0\n")
	b.WriteString("    creationTimestamp: \"2025-10-01T12:00:00Z\"\n    generation: 17\n    labels:\n      LABEL\n")
	b.WriteString("    managedFields:\n    - apiVersion: nfd.k8s-sigs.io/v1alpha1\n      fieldsType: FieldsV1\n      fieldsV1:\n")
	b.WriteString("        f:spec:\n          .: {}\n          f:features:\n            .: {}\n            f:attributes:\n              .: {}\n")
	b.WriteString("              f:kernel.config:\n                .: {}\n                f:elements:\n                  .: {}\n")
	for i := range 400 {
		fmt.Fprintf(&b, "                  f:CONFIG_DRIVER_OPTION_%04d: {}\n", i)
	}
	b.WriteString("      manager: nfd-worker\n      operation: Update\n      time: \"2025-10-01T12:00:00Z\"\n")
	b.WriteString("    name: NAME\n    namespace: node-feature-discovery\n")
	b.WriteString("    resourceVersion: \"48211\"\n    uid: 0a0b0c0d-1111-4222-8333-444455556661\n")
	b.WriteString("  spec:\n    features:\n      attributes:\n        kernel.config:\n          elements:\n")
	for i := range 400 {
		fmt.Fprintf(&b, "            CONFIG_DRIVER_OPTION_%04d: \"y\"\n", i)
	}
	b.WriteString("        kernel.version:\n          elements:\n            full: 6.8.0-1015-aws\n            major: \"6\"\n            minor: \"8\"\n")
	b.WriteString("      flags:\n        cpu.cpuid:\n          elements:\n            AVX: {}\n            AVX2: {}\n            AVX512F: {}\n")
	b.WriteString("      instances:\n        pci.device:\n          elements:\n          - attributes:\n              class: \"0300\"\n              device: \"2330\"\n              vendor: 10de\n")
	return b.String()
}()

// largeExport is what writeLargeExport wrote: how many nodes, and the
// lines of the problems it holds.
type largeExport struct {
	nodes int
	// first and againStart are where the two worker-00007 start, again
	// the metadata.name of the second; stray the metadata.labels of the
	// NodeFeature without a node-name label.
	first, againStart, again, stray int
}

// writeLargeExport writes to path a kubectl export of NodeFeatures over
// objects.MaxFileSize bytes, whose last two items are one defined twice
// (worker-00007 again) and one with no node-name label.
func writeLargeExport(t *testing.T, path string) largeExport {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	line, size := 1, 0
	write := func(s string) (start int) {
		start = line
		w.WriteString(s)
		line += strings.Count(s, "\n")
		size += len(s)
		return start
	}
	// lineOf is the line of the first line of s holding at, s starting on
	// line start.
	lineOf := func(start int, s, at string) int { return start + strings.Count(s[:strings.Index(s, at)], "\n") }
	var e largeExport
	write("apiVersion: v1\nitems:\n")
	for ; size <= objects.MaxFileSize; e.nodes++ {
		name := fmt.Sprintf("worker-%05d", e.nodes)
		if at := write(exportedFeature(name, "nfd.node.kubernetes.io/node-name: "+name)); e.nodes == 7 {
			e.first = at
		}
	}
	again := exportedFeature("worker-00007", "nfd.node.kubernetes.io/node-name: worker-00007")
	e.againStart = write(again)
	e.again = lineOf(e.againStart, again, "    name: ")
	stray := exportedFeature("stray", "team: ml")
	e.stray = lineOf(write(stray), stray, "team: ml")
	write("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestValidateReadsAnExportLargerThanAFileParsedWhole: a cluster's export
// over the 64 MiB nfd-fn parses whole from one file is validated, not
// refused, and its problems are reported at their lines, as in a small
// file: the object defined twice naming both places, the NodeFeature
// attached to no node, the rule matching no node of the export. With
// --context, the export only lends its nodes to the fleet checks.
func TestValidateReadsAnExportLargerThanAFileParsedWhole(t *testing.T) {
	dir := t.TempDir()
	e := writeLargeExport(t, filepath.Join(dir, "export.yaml"))
	writeFile(t, filepath.Join(dir, "rules.yaml"), `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: accelerators
spec:
  rules:
  - name: nvidia-gpu
    labels:
      nvidia.com/gpu.present: "true"
    matchFeatures:
    - feature: pci.device
      matchExpressions:
        vendor: {op: In, value: ["10de"]}
  - name: kernel-7
    labels:
      kernel-7: "true"
    matchFeatures:
    - feature: kernel.version
      matchExpressions:
        major: {op: Gt, value: ["6"]}
`)
	noNode := fmt.Sprintf("rules.yaml:14:5: warning: NodeFeatureRule/accelerators spec.rules[1]: rule \"kernel-7\" matches none of the %d nodes in the input [NFD020]", e.nodes)
	tests := []struct {
		name    string
		args    []string
		exit    int
		stdout  []string
		summary string
	}{{
		name: "export-and-rules",
		args: []string{"."},
		exit: 1,
		stdout: []string{
			fmt.Sprintf("export.yaml:%d:11: error: NodeFeature/worker-00007 metadata.name: NodeFeature node-feature-discovery/worker-00007 is defined twice, at export.yaml:%d and at export.yaml:%d: "+
				"applied in that order the cluster keeps only the last, so nfd-fn uses this one [NFD018]", e.again, e.first, e.againStart),
			fmt.Sprintf("export.yaml:%d:7: warning: NodeFeature/stray metadata.labels: NodeFeature has no nfd.node.kubernetes.io/node-name label, so nfd-master attaches it to no node [NFD026]", e.stray),
			noNode,
		},
		summary: "nfd-fn validate: 1 error, 2 warnings, 0 notes in 2 files",
	}, {
		name:    "rules-with-the-export-as-context",
		args:    []string{"--context", ".", "rules.yaml"},
		stdout:  []string{noNode},
		summary: "nfd-fn validate: 0 errors, 1 warning, 0 notes in 1 file",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runIn(t, dir, append([]string{"validate"}, tt.args...)...)
			if want := strings.Join(tt.stdout, "\n") + "\n"; code != tt.exit || stdout != want {
				t.Errorf("exit %d, want %d; stdout:\n%s\nwant:\n%s", code, tt.exit, stdout, want)
			}
			if !strings.Contains(stderr, tt.summary) {
				t.Errorf("stderr %q lacks %q", stderr, tt.summary)
			}
		})
	}
}

// TestExplainReadsAJSONExportAsItsYAML: the cluster export as kubectl get
// -o json writes it explains every node, and every rule, exactly as the
// same export in YAML does.
func TestExplainReadsAJSONExportAsItsYAML(t *testing.T) {
	snapshot := filepath.Join(exportDir, "snapshot.yaml")
	rules := filepath.Join(exportDir, "rules")
	asJSON := filepath.Join(t.TempDir(), "snapshot.json")
	writeJSONOf(t, snapshot, asJSON)
	tests := []struct {
		name string
		args []string
	}{
		{"nvidia-node", []string{"--node", "dgx-h100-01"}},
		{"amd-node", []string{"--node", "mi300x-node-01"}},
		{"amd-node-one-rule", []string{"--node", "mi300x-node-01", "--rule", "amd-gpu-mi300x"}},
		{"intel-node", []string{"--node", "spr-accel-01"}},
		{"node-with-a-coral-device", []string{"--node", "homelab-nuc-01", "--rule", "google.coral"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			explain := func(export string) (string, int) {
				var stdout, stderr strings.Builder
				code := Main(append(append([]string{"explain"}, tt.args...), export, rules), strings.NewReader(""), &stdout, &stderr)
				return stdout.String() + stderr.String(), code
			}
			want, wantCode := explain(snapshot)
			got, code := explain(asJSON)
			if code != wantCode || got != want || wantCode != 0 {
				t.Errorf("from JSON: exit %d, from YAML: exit %d (want 0)\n--- JSON:\n%s\n--- YAML:\n%s", code, wantCode, got, want)
			}
		})
	}
}

// TestPlanBaseAndHeadAsDirectories: the rule change planned from two
// checkouts of a repository, each a directory holding the export and its
// rules, is the change planned from the export and the two rule folders.
func TestPlanBaseAndHeadAsDirectories(t *testing.T) {
	fixture, err := filepath.Abs(planFixture)
	if err != nil {
		t.Fatal(err)
	}
	checkout := func(rules string) string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "cluster", "snapshot.yaml"), readFile(t, filepath.Join(fixture, "snapshot.yaml")))
		for _, f := range []string{"cpu.yaml", "gpu.yaml"} {
			writeFile(t, filepath.Join(dir, "rules", f), readFile(t, filepath.Join(fixture, rules, f)))
		}
		return dir
	}
	base, head := checkout("base"), checkout("rules")
	tests := []struct {
		name       string
		base, head []string
		note       string
	}{
		{"base-rules-folder-head-checkout", []string{filepath.Join(base, "rules")}, []string{head}, ""},
		{"both-checkouts", []string{base}, []string{head},
			"info: 7 NodeFeature or Node objects in the --base paths not read: both sides use the snapshot in the PATHs"},
	}
	for _, format := range []string{"text", "json"} {
		want, _, wantCode := runIn(t, fixture, "plan", "-o", format, "--config", "config.yaml", "--base", "base", "--workloads", "workloads", "snapshot.yaml", "rules")
		for _, tt := range tests {
			t.Run(tt.name+"-"+format, func(t *testing.T) {
				args := []string{"plan", "-o", format, "--config", "config.yaml", "--workloads", "workloads"}
				for _, b := range tt.base {
					args = append(args, "--base", b)
				}
				stdout, stderr, code := runIn(t, fixture, append(args, tt.head...)...)
				if code != wantCode || stdout != want {
					t.Errorf("exit %d, want %d; stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, wantCode, stdout, want, stderr)
				}
				if !strings.Contains(stderr, tt.note) {
					t.Errorf("stderr lacks %q:\n%s", tt.note, stderr)
				}
			})
		}
	}
}

// TestValidateContextReportsOnlyTheGivenFiles is pre-commit's run on a
// repository that keeps rule files beside a cluster export and a Helm
// chart: the context resolves back-references and feeds the fleet
// checks, but only the files given are reported and counted.
func TestValidateContextReportsOnlyTheGivenFiles(t *testing.T) {
	repo := t.TempDir()
	rule := func(object, name, label, match string) string {
		return `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: ` + object + `
spec:
  rules:
  - name: ` + name + `
    labels:
      ` + label + `: "true"
    matchFeatures:
` + match
	}
	writeFile(t, filepath.Join(repo, "rules", "10-gpu.yaml"), rule("a-gpu", "gpu", "gpu-present",
		"    - feature: pci.device\n      matchExpressions:\n        vendor: {op: In, value: [\"10de\"]}\n"))
	writeFile(t, filepath.Join(repo, "rules", "20-cuda.yaml"), rule("b-cuda", "cuda", "cuda-ready",
		"    - feature: rule.matched\n      matchExpressions:\n        gpu-present: {op: IsTrue}\n"))
	writeFile(t, filepath.Join(repo, "rules", "30-broken.yaml"), rule("c-broken", "broken", "broken",
		"    - feature: kernel.version\n      matchExpressions:\n        major: {op: Gt, value: [\"five\"]}\n"))
	writeFile(t, filepath.Join(repo, "cluster", "export.yaml"), "apiVersion: v1\nitems:\n"+
		exportedFeature("worker-1", "nfd.node.kubernetes.io/node-name: worker-1")+
		exportedFeature("worker-1", "nfd.node.kubernetes.io/node-name: worker-1")+"kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	writeFile(t, filepath.Join(repo, "chart", "templates", "rule.yaml"), rule("{{ .Release.Name }}", "x", "x", "    {{- toYaml .Values.match | nindent 4 }}\n"))
	// The rule fails on worker-1, so it is reported as failing there, not
	// also as matching no node.
	broken := "rules/30-broken.yaml:13:32: error: NodeFeatureRule/c-broken spec.rules[0].matchFeatures[0].matchExpressions.major.value: not a number \"five\" in {op: \"Gt\", value: [\"five\"]}; " +
		"the rule fails on every node where the element is present with a value (hit on node worker-1) [NFD005]"
	tests := []struct {
		name    string
		args    []string
		stdout  string
		summary string
		exit    int
	}{
		{"reference-resolves-against-the-context", []string{"--context", ".", "rules/20-cuda.yaml"}, "", "0 errors, 0 warnings, 0 notes in 1 file", 0},
		{"reference-unresolved-without-the-context", []string{"rules/20-cuda.yaml"},
			"rules/20-cuda.yaml:13:9: warning: NodeFeatureRule/b-cuda spec.rules[0].matchFeatures[0].matchExpressions.gpu-present: no rule produces a label or var \"gpu-present\" for rule.matched to match [NFD017]\n",
			"0 errors, 1 warning, 0 notes in 1 file", 0},
		{"problems-of-the-given-file-reported", []string{"--context", ".", "rules/30-broken.yaml"}, broken + "\n", "1 error, 0 warnings, 0 notes in 1 file", 1},
		{"problems-of-the-context-not-reported", []string{"--context", ".", "rules/10-gpu.yaml", "rules/20-cuda.yaml"}, "", "0 errors, 0 warnings, 0 notes in 2 files", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runIn(t, repo, append([]string{"validate"}, tt.args...)...)
			if code != tt.exit || stdout != tt.stdout || !strings.Contains(stderr, "nfd-fn validate: "+tt.summary) {
				t.Errorf("exit %d, want %d; stdout:\n%s\nwant:\n%s\nstderr: %s (want %q)", code, tt.exit, stdout, tt.stdout, stderr, tt.summary)
			}
		})
	}
}

// TestFileCommandsRefuseAFIFOInsteadOfHanging: a named FIFO among the
// file arguments (opening it would wait for a writer) is refused as not a
// regular file; one inside a directory is not opened either, and named.
func TestFileCommandsRefuseAFIFOInsteadOfHanging(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"validate", []string{"validate", fifo}, 2},
		{"validate-context", []string{"validate", "--context", dir, fifo}, 2},
		{"explain", []string{"explain", "--node", "worker-1", fifo}, 2},
		{"plan", []string{"plan", fifo}, 2},
		{"plan-base", []string{"plan", "--base", fifo, dir}, 2},
		{"render", []string{"render", fifo}, 2}, // one exit code for a path that cannot be read
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr strings.Builder
			var code int
			testkit.NoHang(t, "reading a FIFO", func() {
				code = Main(tt.args, strings.NewReader(""), io.Discard, &stderr)
			})
			// As an argument, or met in a directory argument (plan-base):
			// named, as not a regular file.
			named := strings.Contains(stderr.String(), "reading "+fifo+": not a regular file") ||
				strings.Contains(stderr.String(), fifo+" (a FIFO, not a regular file)")
			if code != tt.exit || !named {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.exit, stderr.String())
			}
		})
	}
}
