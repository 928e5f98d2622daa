package ruletest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/golden"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// compileSchema compiles the embedded RuleTest schema.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return testkit.CompileSchema(t, Schema)
}

// validateYAML checks every document of a YAML text against s.
func validateYAML(s *jsonschema.Schema, text []byte) error {
	for _, doc := range bytes.Split(text, []byte("\n---\n")) {
		j, err := sigsyaml.YAMLToJSON(doc)
		if err != nil {
			return err
		}
		if err := testkit.ValidateJSON(s, j); err != nil {
			return err
		}
	}
	return nil
}

// TestSchemaValidatesTheExamples: every RuleTest in the project's test
// data, examples and docs passes the schema, and Parse reads it.
func TestSchemaValidatesTheExamples(t *testing.T) {
	s := compileSchema(t)
	var files []string
	for _, glob := range []string{"../../testdata/ruletest/*/*.yaml", "../../examples/*/*.ruletest.yaml", "../../examples/*/tests/*.yaml"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	if len(files) < 3 {
		t.Fatalf("found only %v", files)
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !Mentions(text) {
			continue
		}
		if err := validateYAML(s, text); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if _, err := Parse(text, f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestSchemaRejectsWhatParseRejects: the schema refuses the mistakes the
// parser refuses, so an editor flags them before nfd-fn test does.
func TestSchemaRejectsWhatParseRejects(t *testing.T) {
	s := compileSchema(t)
	head := "apiVersion: nfd-fn.dev/v1alpha1\nkind: RuleTest\nmetadata: {name: t}\n"
	for name, text := range map[string]string{
		"misspelt-field":   head + "spec:\n  inputs: [.]\n  expect:\n    nodes:\n      - node: a\n        lables: {x: y}\n",
		"no-inputs":        head + "spec:\n  expect: {}\n",
		"group-no-members": head + "spec:\n  inputs: [.]\n  expect:\n    groups:\n      - group: ns/g\n",
		"label-not-string": head + "spec:\n  inputs: [.]\n  expect:\n    nodes:\n      - node: a\n        labels: {x: {y: z}}\n",
		"wrong-apiversion": "apiVersion: v1\nkind: RuleTest\nmetadata: {name: t}\nspec:\n  inputs: [.]\n",
	} {
		t.Run(name, func(t *testing.T) {
			if err := validateYAML(s, []byte(text)); err == nil {
				t.Error("the schema accepts it")
			}
			if _, err := Parse([]byte(text), "t.yaml"); err == nil {
				t.Error("Parse accepts it")
			}
		})
	}
}

// TestSchemaDocCopyInStep: docs/schema/ruletest.json is the embedded
// schema (go test -update rewrites it).
func TestSchemaDocCopyInStep(t *testing.T) {
	golden.Check(t, "../../docs/schema/ruletest.json", Schema)
	if !strings.Contains(string(Schema), `"const": "RuleTest"`) {
		t.Error("the schema does not pin the kind")
	}
}
