package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// assertion is .expected/assert.yaml: a structural check for examples
// whose output depends on the machine they run on.
type assertion struct {
	// Files are exactly the files the run must create or change.
	Files []fileAssertion `json:"files"`
}

// fileAssertion says what one file must hold: one object with this
// identity, at least these labels and annotations, and these fields.
type fileAssertion struct {
	Path        string            `json:"path"`
	APIVersion  string            `json:"apiVersion,omitempty"`
	Kind        string            `json:"kind,omitempty"`
	Name        string            `json:"name,omitempty"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	// Fields are paths that must exist, one entry per mapping key (keys
	// may hold dots, as feature names do).
	Fields [][]string `json:"fields,omitempty"`
}

func parseAssertion(b []byte) (*assertion, error) {
	var a assertion
	if err := yaml.UnmarshalStrict(b, &a); err != nil {
		return nil, err
	}
	if len(a.Files) == 0 {
		return nil, fmt.Errorf("files: list at least one file")
	}
	return &a, nil
}

// check compares the changed files with the assertion.
func (a *assertion) check(t *testing.T, pkg string, changed []string) {
	t.Helper()
	var want []string
	for _, f := range a.Files {
		want = append(want, f.Path)
	}
	sort.Strings(want)
	sort.Strings(changed)
	if diff := cmp.Diff(want, changed); diff != "" {
		t.Errorf("changed files (-want +got):\n%s", diff)
	}
	for _, f := range a.Files {
		for _, p := range f.problems(pkg) {
			t.Errorf("%s: %s", f.Path, p)
		}
	}
}

// problems lists how the file falls short of the assertion.
func (f fileAssertion) problems(pkg string) []string {
	b, err := os.ReadFile(filepath.Join(pkg, filepath.FromSlash(f.Path)))
	if err != nil {
		return []string{err.Error()}
	}
	var obj map[string]any
	if err := yaml.Unmarshal(b, &obj); err != nil {
		return []string{"not one YAML object: " + err.Error()}
	}
	var out []string
	for _, c := range []struct{ field, want string }{
		{"apiVersion", f.APIVersion}, {"kind", f.Kind},
		{"metadata.name", f.Name}, {"metadata.namespace", f.Namespace},
	} {
		if got := lookupString(obj, strings.Split(c.field, ".")); c.want != "" && got != c.want {
			out = append(out, fmt.Sprintf("%s is %q, want %q", c.field, got, c.want))
		}
	}
	for _, m := range []struct {
		field string
		want  map[string]string
	}{{"labels", f.Labels}, {"annotations", f.Annotations}} {
		for k, v := range m.want {
			if got := lookupString(obj, []string{"metadata", m.field, k}); got != v {
				out = append(out, fmt.Sprintf("metadata.%s[%q] is %q, want %q", m.field, k, got, v))
			}
		}
	}
	for _, path := range f.Fields {
		if _, ok := lookup(obj, path); !ok {
			out = append(out, fmt.Sprintf("no field %s", strings.Join(path, " > ")))
		}
	}
	return out
}

func lookup(v any, path []string) (any, bool) {
	for _, key := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[key]; !ok {
			return nil, false
		}
	}
	return v, true
}

func lookupString(v any, path []string) string {
	got, _ := lookup(v, path)
	s, _ := got.(string)
	return s
}

// TestAssertionReportsEveryShortfall checks the structural check itself on
// a file that matches and one that misses each kind of expectation.
func TestAssertionReportsEveryShortfall(t *testing.T) {
	dir := t.TempDir()
	obj := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {app.kubernetes.io/name: a}\ndata:\n  k.with.dots: v\n"
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(obj), 0o644); err != nil {
		t.Fatal(err)
	}
	match := fileAssertion{Path: "a.yaml", APIVersion: "v1", Kind: "ConfigMap", Name: "a",
		Labels: map[string]string{"app.kubernetes.io/name": "a"}, Fields: [][]string{{"data", "k.with.dots"}}}
	if p := match.problems(dir); len(p) != 0 {
		t.Errorf("a matching file has problems: %v", p)
	}
	miss := fileAssertion{Path: "a.yaml", Kind: "Secret", Namespace: "ns",
		Annotations: map[string]string{"x": "y"}, Fields: [][]string{{"data", "k"}}}
	want := []string{
		`kind is "ConfigMap", want "Secret"`,
		`metadata.namespace is "", want "ns"`,
		`metadata.annotations["x"] is "", want "y"`,
		`no field data > k`,
	}
	if diff := cmp.Diff(want, miss.problems(dir)); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if p := (fileAssertion{Path: "missing.yaml"}).problems(dir); len(p) != 1 {
		t.Errorf("a missing file gives %v, want one problem", p)
	}
}
