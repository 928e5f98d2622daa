package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/tools/internal/corpus"
)

// verdict is a create's outcome in the terms both sides share: refused
// or not, and the unknown fields named (pruned when not refused).
type verdict struct {
	refused bool
	fields  []string
}

// testFieldValidation creates an object with a misspelt field and one
// with a newer release's field on a release's CRDs under Strict and Warn,
// and runs nfd-fn validate on it with strictFieldValidation "true"
// (Strict) and "false" (Warn): the two verdicts must be the table's, and
// equal unless the row names a known difference.
func testFieldValidation(t *testing.T, p *plane) {
	cases := []struct {
		name, file, release, fieldValidation string
		server, nfdFn                        verdict
		// knownDifference says why nfd-fn answers otherwise today.
		knownDifference string
	}{
		{name: "a misspelt field refuses the object under Strict", file: "misspelt-field.yaml", release: "v0.19.0", fieldValidation: "Strict",
			server: verdict{refused: true, fields: []string{"spec.rules[0].lables"}},
			nfdFn:  verdict{refused: true, fields: []string{"spec.rules[0].lables"}}},
		{name: "a misspelt field is pruned under Warn", file: "misspelt-field.yaml", release: "v0.19.0", fieldValidation: "Warn",
			server: verdict{fields: []string{"spec.rules[0].lables"}},
			nfdFn:  verdict{fields: []string{"spec.rules[0].lables"}}},
		{name: "a newer release's field refuses the object under Strict", file: "newer-field.yaml", release: "v0.16.9", fieldValidation: "Strict",
			server: verdict{refused: true, fields: []string{"spec.featureGroupRules[0].vars"}},
			nfdFn:  verdict{refused: true, fields: []string{"spec.featureGroupRules[0].vars"}}},
		{name: "a newer release's field is pruned under Warn", file: "newer-field.yaml", release: "v0.16.9", fieldValidation: "Warn",
			server: verdict{fields: []string{"spec.featureGroupRules[0].vars"}},
			nfdFn:  verdict{fields: []string{"spec.featureGroupRules[0].vars"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join("testdata/fieldvalidation", c.file)
			if err := p.useCRDs(crdStream(t, c.release)); err != nil {
				t.Fatal(err)
			}
			server := serverVerdict(t, p, path, c.fieldValidation)
			nfdFn := nfdFnVerdict(t, path, c.release, c.fieldValidation == "Strict")
			if !server.equal(c.server) {
				t.Errorf("API server (%s's CRDs, fieldValidation=%s): %+v, want %+v", c.release, c.fieldValidation, server, c.server)
			}
			if !nfdFn.equal(c.nfdFn) {
				t.Errorf("nfd-fn validate (nfdVersion %s, strictFieldValidation=%v): %+v, want %+v", c.release, c.fieldValidation == "Strict", nfdFn, c.nfdFn)
			}
			switch differ := !c.server.equal(c.nfdFn); {
			case differ && c.knownDifference == "":
				t.Errorf("nfd-fn's verdict %+v differs from the API server's %+v", c.nfdFn, c.server)
			case !differ && c.knownDifference != "":
				t.Errorf("the row names a known difference (%s) but the verdicts agree", c.knownDifference)
			case differ:
				t.Logf("known difference under fieldValidation=%s: %s", c.fieldValidation, c.knownDifference)
			}
		})
	}
}

func (v verdict) equal(w verdict) bool {
	return v.refused == w.refused && slices.Equal(v.fields, w.fields)
}

// serverVerdict creates a file's object (dry run) under fieldValidation.
func serverVerdict(t *testing.T, p *plane, path, fieldValidation string) verdict {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	var head struct{ Kind string }
	_ = json.Unmarshal(js, &head)
	a := p.create(corpus.Object{Where: path, Kind: head.Kind, JSON: js}, fieldValidation)
	return verdict{refused: a.refused, fields: a.unknown}
}

// nfdFnVerdict runs nfd-fn validate -o json on a file for a release and
// reads its admission verdict: refused by an error of unknown-field or
// admission-rejected; the fields are those of these results and of
// admission-pruned warnings.
func nfdFnVerdict(t *testing.T, path, release string, strict bool) verdict {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	s := "false"
	if strict {
		s = "true"
	}
	conf := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nfd-fn-config}\ndata:\n  nfdVersion: " + release +
		"\n  featureGates: NodeFeatureGroupAPI=true\n  strictFieldValidation: \"" + s + "\"\n"
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := testkit.Exec(t, exec.Command(testkit.Binary(t), "validate", "-o", "json", "--config", cfg, path), nil)
	var results []testkit.Result
	if err := json.Unmarshal([]byte(stdout), &results); err != nil || code > 1 {
		t.Fatalf("nfd-fn validate: exit %d, %v\n%s%s", code, err, stdout, stderr)
	}
	var v verdict
	for _, r := range results {
		switch r.Tags["check"] {
		case "unknown-field", "admission-rejected":
			v.refused = v.refused || r.Severity == "error"
			v.fields = append(v.fields, r.Field.Path)
		case "admission-pruned":
			v.fields = append(v.fields, r.Field.Path)
		}
	}
	slices.Sort(v.fields)
	return v
}
