package modes

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/golden"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// TestExplainFilesGolden explains the node and rule each case of
// testdata/explain names in args.txt (--node NAME [--rule NAME]) and
// compares the explanation with expected-<a, b, ...>.txt; nothing is to
// be told beside it.
func TestExplainFilesGolden(t *testing.T) {
	cases, err := filepath.Glob("../../testdata/explain/*")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range cases {
		args, err := os.ReadFile(filepath.Join(dir, "args.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSpace(string(args)), "\n") {
			t.Run(filepath.Base(dir)+"/"+strings.ReplaceAll(strings.TrimSpace(line), " ", "_"), func(t *testing.T) {
				flags := explainFlags(t, line)
				f := OpenFiles([]string{dir}, nil)
				defer f.Close()
				if _, err := f.LoadSettings(SettingsFlags{}); err != nil {
					t.Fatal(err)
				}
				e, told, err := ExplainFiles(f, flags["--node"], flags["--rule"])
				if err != nil || len(told) > 0 {
					t.Fatalf("error %v; told %v", err, told)
				}
				var out bytes.Buffer
				if err := e.Write(&out); err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join(dir, "expected-"+string(rune('a'+i))+".txt"), out.Bytes())
			})
		}
	}
}

// explainFlags reads an args.txt line of --flag value pairs.
func explainFlags(t *testing.T, line string) map[string]string {
	t.Helper()
	fields := strings.Fields(line)
	if len(fields)%2 != 0 {
		t.Fatalf("args.txt: %q is not --flag value pairs", line)
	}
	flags := map[string]string{}
	for i := 0; i < len(fields); i += 2 {
		flags[fields[i]] = fields[i+1]
	}
	return flags
}

// TestExplainFilesTellsWhatItLeavesOut: the errors in the files, and
// admission's findings that are not notes, come back to be told beside
// the explanation, and the objects they affect are left out of it; an
// unknown node is an error naming the known ones.
func TestExplainFilesTellsWhatItLeavesOut(t *testing.T) {
	const node = "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata:\n  name: worker-1\n  namespace: nfd\n  labels: {nfd.node.kubernetes.io/node-name: worker-1}\nspec:\n  features:\n    attributes:\n      kernel.version: {elements: {major: \"6\"}}\n"
	const good = "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: good}\nspec:\n  rules:\n  - name: kernel\n    labels: {kernel: \"6\"}\n    matchFeatures:\n    - feature: kernel.version\n      matchExpressions: {major: {op: In, value: [\"6\"]}}\n"
	bad := strings.Replace(strings.Replace(good, "name: good", "name: bad", 1), "labels:", "lables:", 1)
	t.Chdir(t.TempDir())
	testkit.WriteFiles(t, ".", map[string]string{"node.yaml": node, "good.yaml": good, "bad.yaml": bad})
	// explain assumes fieldValidation=Warn, as render does: the misspelt
	// lables is pruned, told as a warning, and bad explained without it;
	// with strictFieldValidation (kubectl's Strict) bad is refused, told
	// as an error, and left out.
	for _, tc := range []struct {
		name     string
		strict   bool
		severity diag.Severity
		badShown bool
	}{{"warn-prunes", false, diag.Warning, true}, {"strict-refuses", true, diag.Error, false}} {
		t.Run(tc.name, func(t *testing.T) {
			f := OpenFiles([]string{"."}, nil)
			defer f.Close()
			if _, err := f.LoadSettings(SettingsFlags{}); err != nil {
				t.Fatal(err)
			}
			f.Settings.StrictFieldValidation = tc.strict
			e, told, err := ExplainFiles(f, "worker-1", "")
			if err != nil {
				t.Fatal(err)
			}
			if len(told) != 1 || told[0].Severity != tc.severity || told[0].Object.Name != "bad" || !strings.Contains(told[0].Message, `unknown field "lables"`) {
				t.Errorf("told %v, want the unknown field of bad, a %s", told, tc.severity)
			}
			var out bytes.Buffer
			if err := e.Write(&out); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "good") || strings.Contains(out.String(), "bad") != tc.badShown {
				t.Errorf("bad explained = %v, want %v:\n%s", !tc.badShown, tc.badShown, out.String())
			}
			if _, _, err := ExplainFiles(f, "worker-9", ""); err == nil || !strings.Contains(err.Error(), "known nodes: worker-1") {
				t.Errorf("an unknown node: %v, want the known nodes named", err)
			}
		})
	}
}
