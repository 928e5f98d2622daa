package cli

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// FuzzValidateFiles writes arbitrary bytes to a rule file in a temporary
// directory and runs `nfd-fn validate DIR` and `nfd-fn render DIR` on it,
// as pre-commit and a user would. Neither may panic or exit other than 0
// or 1; nothing either prints may hold a raw control character or bidi
// override; and render's stdout must be one complete ResourceList whose
// items' path annotations stay inside the package (or nothing, with exit
// 1, for a file that is a ResourceList nfd-fn cannot read: as on stdin).
func FuzzValidateFiles(f *testing.F) {
	addFileSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "rules.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"validate", "render"} {
			var stdout, stderr bytes.Buffer
			code := Main([]string{cmd, dir}, strings.NewReader(""), &stdout, &stderr)
			if code != 0 && code != 1 {
				t.Fatalf("%s: exit %d\n%s", cmd, code, stderr.String())
			}
			if hasTerminalControl(stderr.String()) || (cmd == "validate" && hasTerminalControl(stdout.String())) {
				t.Fatalf("%s prints a raw control character:\n%q\n%q", cmd, stdout.String(), stderr.String())
			}
			if _, list, _ := krm.ListHeader(data, nil); cmd == "render" && list && code == 1 && stdout.Len() == 0 {
				continue // a ResourceList that cannot be read: nothing, as on stdin
			}
			if cmd == "render" {
				checkRenderedList(t, stdout.Bytes(), filepath.Join(dir, "rules.yaml"))
			}
		}
	})
}

// hasTerminalControl reports a character diag.Escape would have escaped,
// other than the newlines that end lines.
func hasTerminalControl(s string) bool {
	return strings.ContainsAny(s, "\x00\x07\x08\x1b\r\u0085\u009b\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
}

// checkRenderedList fails unless out is one YAML document holding a
// ResourceList whose items' path annotations are the input file (items
// read from it) or clean relative paths (items nfd-fn adds, which kpt
// writes into the package).
func checkRenderedList(t *testing.T, out []byte, input string) {
	t.Helper()
	var list struct {
		Kind  string      `yaml:"kind"`
		Items []yaml.Node `yaml:"items"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&list); err != nil || list.Kind != "ResourceList" {
		t.Fatalf("stdout is not a ResourceList (%v):\n%.3000s", err, out)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		t.Fatalf("stdout holds more than one YAML document:\n%.3000s", out)
	}
	for i := range list.Items {
		var it struct {
			Metadata struct {
				Annotations map[string]string `yaml:"annotations"`
			} `yaml:"metadata"`
		}
		if list.Items[i].Decode(&it) != nil {
			continue // an item that is not an object, reported as an error
		}
		for _, k := range []string{kioutil.PathAnnotation, kioutil.LegacyPathAnnotation} {
			if p, ok := it.Metadata.Annotations[k]; ok && p != input && !insidePackage(p) {
				t.Fatalf("an item is written to %q, outside the package", p)
			}
		}
	}
}

// insidePackage reports whether p is a clean path relative to the package
// that does not leave it.
func insidePackage(p string) bool {
	return p != "" && !path.IsAbs(p) && path.Clean(p) == p && p != ".." && !strings.HasPrefix(p, "../")
}

// addFileSeeds seeds with the validate cases, the cluster export, the
// explain cases and the hostile inputs.
func addFileSeeds(f *testing.F) {
	testkit.SeedFiles(f, "../testdata/validate/*/*.yaml", "../testdata/cluster-export/*.yaml",
		"../testdata/explain/*/*.yaml", "../testdata/hostile/*.yaml")
	f.Add([]byte("apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata: {name: nf, namespace: nfd, labels: {nfd.node.kubernetes.io/node-name: ../../../../tmp/x}}\nspec: {labels: {a: b}}\n"))
	f.Add([]byte("apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: \"r\\u202e\\x1b[2J\"}\nspec: {rules: [{name: \"x\\ny\", labels: {\"a\\x1b\": b}}]}\n"))
}
