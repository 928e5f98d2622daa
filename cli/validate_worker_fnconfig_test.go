package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

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
