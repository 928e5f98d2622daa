package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestValidateWorkerConfigKRMAndFilesReportTheSameLabelsGone is issue 37
// point 3 in both drivers of validate: the gpu-operator#1469 example's
// files, and the same objects as a ResourceList on stdin (one item per
// object, with kpt's path annotations), checked against the worker
// configuration after the change, give the same NFD311 findings; with the
// configuration the snapshot was taken with, neither gives any.
func TestValidateWorkerConfigKRMAndFilesReportTheSameLabelsGone(t *testing.T) {
	bin := buildListTestBinary(t)
	t.Chdir(upgradeExample)
	list := exampleResourceList(t, "snapshot.yaml", "gpu-operator.yaml")
	for _, tc := range []struct {
		worker string
		want   int
	}{{"worker-after.yaml", 3}, {"worker-before.yaml", 0}} {
		t.Run(tc.worker, func(t *testing.T) {
			files := runBinary(t, bin, nil, "validate", "-o", "json", "--worker-config", tc.worker, "snapshot.yaml", "gpu-operator.yaml")
			if files.code != 0 {
				t.Fatalf("files: exit %d\n%s", files.code, files.stderr)
			}
			var fromFiles testkit.List
			if err := json.Unmarshal([]byte(files.stdout), &fromFiles.Results); err != nil {
				t.Fatalf("files: -o json: %v\n%s", err, files.stdout)
			}
			krm := runBinary(t, bin, list, "validate", "--worker-config", tc.worker)
			if krm.code != 0 {
				t.Fatalf("ResourceList: exit %d\n%s", krm.code, krm.stderr)
			}
			got, want := labelsGone(testkit.Read(t, []byte(krm.stdout))), labelsGone(fromFiles)
			if len(want) != tc.want {
				t.Fatalf("files: %d NFD311 findings, want %d:\n%s", len(want), tc.want, strings.Join(want, "\n"))
			}
			if !slices.Equal(got, want) {
				t.Errorf("the ResourceList's NFD311 findings differ from the files':\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
	t.Run("unreadable-worker-config", func(t *testing.T) {
		got := runBinary(t, bin, list, "validate", "--worker-config", "does-not-exist.yaml")
		if got.code != 2 || !strings.Contains(got.stderr, "nfd-fn validate: --worker-config:") || got.stdout != "" {
			t.Errorf("exit %d, want 2 and no output\nstdout:\n%s\nstderr:\n%s", got.code, got.stdout, got.stderr)
		}
	})
}

// labelsGone are the NFD311 findings of l, each as its severity, object,
// file and message, sorted.
func labelsGone(l testkit.List) []string {
	var out []string
	for _, r := range l.WithCheck("worker-label-gone") {
		ref := r.ResourceRef
		out = append(out, fmt.Sprintf("%s %s/%s/%s %s: %s", r.Severity, ref["kind"], ref["namespace"], ref["name"], r.File.Path, r.Message))
	}
	slices.Sort(out)
	return out
}

// exampleResourceList is the objects of files (a kubectl List or a
// multi-document stream, as helm template prints it) as a ResourceList's
// items, one per object with kpt's path and index annotations naming the
// file it came from, as kpt fn source gives them.
func exampleResourceList(t *testing.T, files ...string) []byte {
	t.Helper()
	var items []map[string]any
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, obj := range exampleObjects(t, file, string(text)) {
			meta, _ := obj["metadata"].(map[string]any)
			annotations, _ := meta["annotations"].(map[string]any)
			if annotations == nil {
				annotations = map[string]any{}
			}
			annotations["config.kubernetes.io/path"] = filepath.ToSlash(file)
			annotations["config.kubernetes.io/index"] = fmt.Sprint(i)
			meta["annotations"] = annotations
			items = append(items, obj)
		}
	}
	out, err := sigsyaml.Marshal(map[string]any{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": items})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// exampleObjects are the objects of one file's text: a List's items, or
// each document of a stream.
func exampleObjects(t *testing.T, file, text string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, doc := range strings.Split("\n"+text, "\n---") {
		var obj map[string]any
		if err := sigsyaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		switch items, _ := obj["items"].([]any); {
		case obj == nil:
		case obj["kind"] == "List":
			for _, it := range items {
				objs = append(objs, it.(map[string]any))
			}
		default:
			objs = append(objs, obj)
		}
	}
	return objs
}

// exampleWorkerConfigMap is the worker ConfigMap of the gpu-operator#1469
// example (worker-before.yaml and worker-after.yaml hold one each).
const exampleWorkerConfigMap = "gpu-operator/gpu-operator-node-feature-discovery-worker-conf"

// withFunctionConfig adds a ConfigMap functionConfig with data (flow
// style) to a ResourceList.
func withFunctionConfig(list []byte, data string) []byte {
	return append(list, []byte("functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: function-input}\n  data: "+data+"\n")...)
}

// TestWorkerConfigMapUnderKptGivesWhatTheFlagGives is issue 37's
// functionConfig setting for the worker configuration about to roll out:
// with the example's package (the fleet export, the operator's
// DaemonSets, and the chart's worker ConfigMap after the change),
// workerConfigMap naming that ConfigMap gives validate the NFD311
// findings validate --worker-config gives over the files, on stdin and
// under the real kpt (kpt fn eval --exec), and gives render the labels
// render --worker-config gives.
func TestWorkerConfigMapUnderKptGivesWhatTheFlagGives(t *testing.T) {
	bin := buildListTestBinary(t)
	t.Chdir(upgradeExample)
	files := runBinary(t, bin, nil, "validate", "-o", "json", "--worker-config", "worker-after.yaml", "snapshot.yaml", "gpu-operator.yaml")
	var fromFiles testkit.List
	if err := json.Unmarshal([]byte(files.stdout), &fromFiles.Results); err != nil || files.code != 0 {
		t.Fatalf("files: exit %d, %v\n%s%s", files.code, err, files.stdout, files.stderr)
	}
	want := labelsGone(fromFiles)
	if len(want) != 3 {
		t.Fatalf("files: %d NFD311 findings, want 3:\n%s", len(want), strings.Join(want, "\n"))
	}
	pkg := exampleResourceList(t, "snapshot.yaml", "gpu-operator.yaml", "worker-after.yaml")
	t.Run("stdin", func(t *testing.T) {
		got := runBinary(t, bin, withFunctionConfig(pkg, "{mode: validate, workerConfigMap: "+exampleWorkerConfigMap+"}"))
		if got.code != 0 {
			t.Fatalf("exit %d\n%s", got.code, got.stderr)
		}
		if g := labelsGone(testkit.Read(t, []byte(got.stdout))); !slices.Equal(g, want) {
			t.Errorf("NFD311 findings differ from validate --worker-config's:\ngot:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
		}
	})
	t.Run("render", func(t *testing.T) {
		flag := runBinary(t, bin, withFunctionConfig(pkg, "{}"), "render", "--worker-config", "worker-after.yaml")
		named := runBinary(t, bin, withFunctionConfig(pkg, "{workerConfigMap: "+exampleWorkerConfigMap+"}"))
		if flag.code != 0 || named.code != 0 {
			t.Fatalf("exit %d and %d\n%s\n%s", flag.code, named.code, flag.stderr, named.stderr)
		}
		f, n := testkit.Read(t, []byte(flag.stdout)), testkit.Read(t, []byte(named.stdout))
		for _, node := range []string{"dgx-h100-01", "dgx-a100-02"} {
			fl, nl := testkit.Labels(f.Item("Node", node)), testkit.Labels(n.Item("Node", node))
			if _, renamed := nl["feature.node.kubernetes.io/pci-10de.present"]; renamed || len(nl) == 0 || !sameLabels(fl, nl) {
				t.Errorf("node %s: labels with workerConfigMap %v, with --worker-config %v", node, nl, fl)
			}
		}
	})
	t.Run("kpt", func(t *testing.T) {
		kpt, err := exec.LookPath("kpt")
		if err != nil {
			t.Skip("kpt not installed")
		}
		dir := t.TempDir()
		sink := exec.Command(kpt, "fn", "sink", filepath.Join(dir, "pkg"))
		sink.Stdin = strings.NewReader(string(pkg))
		if b, err := sink.CombinedOutput(); err != nil {
			t.Fatalf("kpt fn sink: %v\n%s", err, b)
		}
		res := filepath.Join(dir, "results")
		eval := exec.Command(kpt, "fn", "eval", filepath.Join(dir, "pkg"), "--exec", bin, "--results-dir", res, "--", "mode=validate", "workerConfigMap="+exampleWorkerConfigMap)
		if b, err := eval.CombinedOutput(); err != nil {
			t.Fatalf("kpt fn eval: %v\n%s", err, b)
		}
		data, err := os.ReadFile(filepath.Join(res, "results.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var kptResults struct {
			Items []testkit.List `json:"items"`
		}
		if err := sigsyaml.Unmarshal(data, &kptResults); err != nil || len(kptResults.Items) != 1 {
			t.Fatalf("kpt's results file (%v):\n%s", err, data)
		}
		if g := labelsGone(kptResults.Items[0]); !slices.Equal(g, want) {
			t.Errorf("NFD311 findings under kpt differ from validate --worker-config's:\ngot:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
		}
	})
}

// sameLabels reports whether two label maps hold the same entries.
func sameLabels(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
