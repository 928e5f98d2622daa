package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// buildListTestBinary is nfd-fn built once for the package's tests
// (testkit.Binary), for tests that run the real binary as kpt, CI scripts
// and people run it.
func buildListTestBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	return testkit.Binary(t)
}

// binRun is one run of the binary.
type binRun struct {
	stdout, stderr string
	code           int
}

// runBinary runs bin with args, stdin (nil: none) and returns what it
// wrote and its exit code.
func runBinary(t *testing.T, bin string, stdin []byte, args ...string) binRun {
	t.Helper()
	stdout, stderr, code := testkit.Exec(t, exec.Command(bin, args...), stdin)
	return binRun{stdout: stdout, stderr: stderr, code: code}
}

const quickstartList = "../examples/render-quickstart/resourcelist.yaml"

// TestResourceListInAFileIsReadAsItsItems is issue 26 point 3: a
// ResourceList given as a file (the quickstart's, the same list as JSON,
// kpt fn source's output, nfd-fn's own output) is rendered exactly as on
// stdin, "-" reads stdin in every command, and validate, plan and explain
// read the list's items and functionConfig instead of skipping it as
// "not an NFD kind".
func TestResourceListInAFileIsReadAsItsItems(t *testing.T) {
	bin := buildListTestBinary(t)
	dir := t.TempDir()
	quick := readFile(t, quickstartList)
	jsonList, err := sigsyaml.YAMLToJSON([]byte(quick))
	if err != nil {
		t.Fatal(err)
	}
	jsonPath := filepath.Join(dir, "rl.json")
	mustWrite(t, jsonPath, string(jsonList))

	sameAsStdin := func(t *testing.T, path string) binRun {
		t.Helper()
		data := []byte(readFile(t, path))
		want := runBinary(t, bin, data)
		for _, args := range [][]string{{"render", path}, {"render", "-"}} {
			in := data
			if args[1] != "-" {
				in = nil
			}
			got := runBinary(t, bin, in, args...)
			if got.code != want.code || got.stdout != want.stdout {
				t.Errorf("nfd-fn %s: exit %d, %d bytes out; stdin gives exit %d, %d bytes; stderr:\n%s",
					strings.Join(args, " "), got.code, len(got.stdout), want.code, len(want.stdout), got.stderr)
			}
		}
		return want
	}

	t.Run("quickstart-renders-as-on-stdin", func(t *testing.T) {
		out := sameAsStdin(t, quickstartList)
		if out.code != 0 || strings.Count(out.stdout, "kind: Node\n") != 2 || !strings.Contains(out.stdout, "path: nodes/worker-a.yaml") {
			t.Errorf("want both nodes' Nodes, exit 0; got exit %d:\n%s%s", out.code, out.stdout, out.stderr)
		}
		// The list's functionConfig (enableTaints) is the run's.
		if !strings.Contains(out.stdout, "vendor.io/sriov") {
			t.Errorf("the list's functionConfig (enableTaints) was not used:\n%s", out.stdout)
		}
	})
	t.Run("json-list-gives-json", func(t *testing.T) {
		out := sameAsStdin(t, jsonPath)
		if !strings.HasPrefix(out.stdout, "{") || !strings.Contains(out.stdout, `"vendor.io/sriov"`) {
			t.Errorf("a JSON list must come back as JSON, with the taint; got:\n%s", out.stdout)
		}
	})
	t.Run("json-files-give-json", func(t *testing.T) {
		// The cluster export and its rules as JSON files only: the list
		// comes back as JSON, the Nodes as the YAML files render them.
		jdir := filepath.Join(dir, "json-export")
		snap, err := sigsyaml.YAMLToJSON([]byte(readFile(t, "../testdata/cluster-export/snapshot.yaml")))
		if err != nil {
			t.Fatal(err)
		}
		mustWrite(t, filepath.Join(jdir, "snapshot.json"), string(snap))
		for _, f := range []string{"intel/platform-labeling.json", "nvidia/nics-list.json"} {
			mustWrite(t, filepath.Join(jdir, "rules", filepath.Base(f)), readFile(t, "../testdata/cluster-export/rules/"+f))
		}
		cfg := "../testdata/cluster-export/config.yaml"
		got := runBinary(t, bin, nil, "render", "--config", cfg, jdir)
		var list map[string]any
		if err := json.Unmarshal([]byte(got.stdout), &list); err != nil || got.code != 0 {
			t.Fatalf("JSON files: exit %d, output not JSON (%v):\n%.2000s\n%s", got.code, err, got.stdout, got.stderr)
		}
		yamlDir := filepath.Join(dir, "yaml-export")
		mustWrite(t, filepath.Join(yamlDir, "snapshot.yaml"), readFile(t, "../testdata/cluster-export/snapshot.yaml"))
		for _, f := range []string{"intel/platform-labeling.json", "nvidia/nics-list.json"} {
			rule, err := sigsyaml.JSONToYAML([]byte(readFile(t, "../testdata/cluster-export/rules/"+f)))
			if err != nil {
				t.Fatal(err)
			}
			mustWrite(t, filepath.Join(yamlDir, "rules", strings.TrimSuffix(filepath.Base(f), ".json")+".yaml"), string(rule))
		}
		want := runBinary(t, bin, nil, "render", "--config", cfg, yamlDir)
		if !strings.HasPrefix(want.stdout, "apiVersion:") {
			t.Fatalf("YAML files must give YAML:\n%.500s", want.stdout)
		}
		gotNodes, wantNodes := nodeLabels(t, got.stdout), nodeLabels(t, want.stdout)
		if len(gotNodes) != 4 || !reflect.DeepEqual(gotNodes, wantNodes) {
			t.Errorf("Nodes from JSON files:\n%v\nfrom YAML files:\n%v", gotNodes, wantNodes)
		}
		if !strings.Contains(got.stdout, `"config.kubernetes.io/path": "`+filepath.Join(jdir, "snapshot.json")+`"`) {
			t.Errorf("the JSON items lack their place annotations:\n%.3000s", got.stdout)
		}
	})
	t.Run("own-output-reads-back", func(t *testing.T) {
		first := runBinary(t, bin, nil, "render", quickstartList)
		path := filepath.Join(dir, "rendered.yaml")
		mustWrite(t, path, first.stdout)
		again := sameAsStdin(t, path)
		if again.code != 0 || !strings.Contains(again.stdout, "feature.node.kubernetes.io/kernel-recent") {
			t.Errorf("nfd-fn's own output read back: exit %d\n%s", again.code, again.stderr)
		}
	})
	t.Run("validate-plan-explain-read-the-items", func(t *testing.T) {
		for _, args := range [][]string{{"validate", quickstartList}, {"validate", "-"}} {
			got := runBinary(t, bin, []byte(quick), args...)
			if got.code != 0 || strings.Contains(got.stdout+got.stderr, "not an NFD kind") || !strings.Contains(got.stderr, "0 errors") {
				t.Errorf("nfd-fn %v: exit %d\n%s%s", args, got.code, got.stdout, got.stderr)
			}
		}
		for _, args := range [][]string{{"plan", quickstartList}, {"plan", "-"}} {
			got := runBinary(t, bin, []byte(quick), args...)
			if got.code != 0 || strings.Contains(got.stdout, "no changes") || !strings.Contains(got.stdout, "vendor.io/sriov") {
				t.Errorf("nfd-fn %v: want the nodes' changes, taints included (the list's enableTaints); exit %d\n%s%s", args, got.code, got.stdout, got.stderr)
			}
		}
		got := runBinary(t, bin, []byte(quick), "explain", "--node", "worker-a", "-")
		if got.code != 0 || !strings.Contains(got.stdout, "node worker-a: 3 of 3 rules matched") {
			t.Errorf("explain -: exit %d\n%s%s", got.code, got.stdout, got.stderr)
		}
	})
	t.Run("plan-workloads-from-stdin", func(t *testing.T) {
		fixture := "../testdata/plan/stale-labels"
		args := []string{"plan", "--config", fixture + "/config.yaml", "--base", fixture + "/base", fixture + "/snapshot.yaml", fixture + "/rules"}
		var workloads strings.Builder
		entries, err := os.ReadDir(fixture + "/workloads")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			workloads.WriteString("---\n" + readFile(t, fixture+"/workloads/"+e.Name()))
		}
		want := runBinary(t, bin, nil, append(args, "--workloads", fixture+"/workloads")...)
		got := runBinary(t, bin, []byte(workloads.String()), append(args, "--workloads", "-")...)
		if got.code != want.code || got.stdout != want.stdout || !strings.Contains(want.stdout, "Workloads") {
			t.Errorf("--workloads - (helm template | nfd-fn plan): exit %d, want %d; got:\n%s\nwant:\n%s\n%s", got.code, want.code, got.stdout, want.stdout, got.stderr)
		}
	})
	t.Run("validate-points-into-the-file", func(t *testing.T) {
		broken := strings.Replace(quick, "op: Exists", "op: Exist", 1)
		path := filepath.Join(dir, "broken.yaml")
		mustWrite(t, path, broken)
		line := 1 + strings.Count(broken[:strings.Index(broken, "op: Exist")], "\n")
		got := runBinary(t, bin, nil, "validate", path)
		want := regexp.MustCompile(regexp.QuoteMeta(path) + ":" + itoa(line) + ":\\d+: error: ")
		if got.code != 1 || !want.MatchString(got.stdout) {
			t.Errorf("want exit 1 and an error at %s:%d; got exit %d:\n%s%s", path, line, got.code, got.stdout, got.stderr)
		}
	})
	t.Run("one-functionConfig-only", func(t *testing.T) {
		cfg := filepath.Join(dir, "config.yaml")
		mustWrite(t, cfg, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  enableTaints: \"false\"\n")
		for _, cmd := range []string{"render", "validate", "plan"} {
			got := runBinary(t, bin, nil, cmd, "--config", cfg, quickstartList)
			if got.code != 2 || got.stdout != "" || !strings.Contains(got.stderr, "both configure the run") {
				t.Errorf("%s --config with a list that has a functionConfig: exit %d (want 2, bad usage in every command), stdout %q, stderr:\n%s", cmd, got.code, got.stdout, got.stderr)
			}
		}
		got := runBinary(t, bin, nil, "render", quickstartList, cfg)
		if got.code != 2 || !strings.Contains(got.stderr, "is a ResourceList, which nfd-fn reads alone") {
			t.Errorf("a list with other files: exit %d, stderr:\n%s", got.code, got.stderr)
		}
	})
	t.Run("kpt-fn-source-output", func(t *testing.T) {
		kpt, err := exec.LookPath("kpt")
		if err != nil {
			t.Skip("kpt not installed")
		}
		// The quickstart's items as a package (kpt fn sink), read back by
		// kpt fn source with the quickstart's functionConfig.
		pkg := filepath.Join(dir, "pkg")
		sink := exec.Command(kpt, "fn", "sink", pkg)
		sink.Stdin = strings.NewReader(quick)
		if b, err := sink.CombinedOutput(); err != nil {
			t.Fatalf("kpt fn sink: %v\n%s", err, b)
		}
		cfg := filepath.Join(dir, "fn-config.yaml")
		mustWrite(t, cfg, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nfd-fn-config\ndata:\n  enableTaints: \"true\"\n")
		src, err := exec.Command(kpt, "fn", "source", pkg, "--fn-config", cfg).Output()
		if err != nil {
			t.Fatalf("kpt fn source: %v", err)
		}
		path := filepath.Join(dir, "source.yaml")
		mustWrite(t, path, string(src))
		out := sameAsStdin(t, path)
		var rl struct {
			Items []struct {
				Kind string `yaml:"kind"`
			} `yaml:"items"`
		}
		if err := yaml.Unmarshal([]byte(out.stdout), &rl); err != nil {
			t.Fatal(err)
		}
		nodes := 0
		for _, it := range rl.Items {
			if it.Kind == "Node" {
				nodes++
			}
		}
		if out.code != 0 || nodes != 2 || !strings.Contains(out.stdout, "vendor.io/sriov") {
			t.Errorf("kpt fn source's list: exit %d, %d Nodes (want 2, a taint)\n%s", out.code, nodes, out.stderr)
		}
		plan := runBinary(t, bin, nil, "plan", path)
		if plan.code != 0 || !strings.Contains(plan.stdout, "2 of 2 nodes change") {
			t.Errorf("plan of kpt fn source's list: exit %d\n%s%s", plan.code, plan.stdout, plan.stderr)
		}
	})
}

// nodeLabels is the labels of each Node of a rendered list (YAML or
// JSON).
func nodeLabels(t *testing.T, out string) map[string]map[string]string {
	t.Helper()
	var list struct {
		Items []struct {
			Kind     string `yaml:"kind"`
			Metadata struct {
				Name   string            `yaml:"name"`
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
		} `yaml:"items"`
	}
	if err := yaml.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	nodes := map[string]map[string]string{}
	for _, it := range list.Items {
		if it.Kind == "Node" {
			nodes[it.Metadata.Name] = it.Metadata.Labels
		}
	}
	return nodes
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string {
	b, _ := yaml.Marshal(n)
	return strings.TrimSpace(string(b))
}
