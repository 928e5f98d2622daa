package objects

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// A rule with a misspelt field, and one with a value of the wrong type.
const (
	misspelt  = "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: r}\nspec:\n  rules:\n  - name: x\n    labels: {a: \"1\"}\n    lables: {b: \"1\"}\n"
	wrongType = "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: r}\nspec:\n  rules:\n  - name: x\n    labels: [a]\n"
	mapping   = "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: r}\nspec:\n  rules:\n  - name: {gpu: display}\n    labels: {a: \"1\"}\n"
)

// TestUnknownFieldFollowsFieldValidation: a misspelt field (NFD003) is
// judged as the API server judges it under the client's fieldValidation:
// Strict (kubectl apply) refuses the object whole with a strict decoding
// error; Warn (client-go, Helm) prunes the field with a warning and the
// object is used. A wrong type refuses the object under both.
func TestUnknownFieldFollowsFieldValidation(t *testing.T) {
	tests := []struct {
		name          string
		yaml          string
		strict        bool
		severity      diag.Severity
		rejected      bool
		wantInMessage string
	}{
		{"misspelt-field-refused-under-strict", misspelt, true, diag.Error, true,
			"kubectl apply (fieldValidation=Strict) refuses this NodeFeatureRule whole: strict decoding error: unknown field \"spec.rules[0].lables\""},
		{"misspelt-field-pruned-under-warn", misspelt, false, diag.Warning, false,
			"pruned under fieldValidation=Warn, client-go/Helm's default (Warning: unknown field \"spec.rules[0].lables\")"},
		{"wrong-type-refused-under-strict", wrongType, true, diag.Error, true, `NodeFeatureRule.nfd.k8s-sigs.io "r" is invalid: spec.rules[0].labels: Invalid value: "array": spec.rules[0].labels in body must be of type object: "array"; expected a mapping, got a list`},
		{"wrong-type-refused-under-warn", wrongType, false, diag.Error, true, `NodeFeatureRule.nfd.k8s-sigs.io "r" is invalid: spec.rules[0].labels: Invalid value: "array": spec.rules[0].labels in body must be of type object: "array"; expected a mapping, got a list`},
		{"mapping-for-a-string-refused-for-its-keys-under-strict", mapping, true, diag.Error, true,
			`kubectl apply (fieldValidation=Strict) refuses this NodeFeatureRule whole: strict decoding error: unknown field "spec.rules[0].name.gpu"`},
		{"mapping-for-a-string-refused-for-its-type-under-warn", mapping, false, diag.Error, true,
			`spec.rules[0].name in body must be of type string: "object" (after its warnings under fieldValidation=Warn, client-go/Helm's default: unknown field "spec.rules[0].name.gpu")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &Set{StrictFieldValidation: tc.strict}
			ds := readText(s, []byte(tc.yaml), "rules.yaml", false)
			if len(ds) != 1 || ds[0].Severity != tc.severity || !strings.Contains(ds[0].Message, tc.wantInMessage) {
				t.Fatalf("diagnostics = %v, want one %s saying %q", ds, tc.severity, tc.wantInMessage)
			}
			if len(s.Rules) != 1 || s.Rules[0].Rejected != tc.rejected {
				t.Fatalf("rejected = %v, want %v", s.Rules[0].Rejected, tc.rejected)
			}
			if !tc.rejected && s.Rules[0].Obj.Spec.Rules[0].Labels["a"] != "1" {
				t.Errorf("the pruned object lost its known fields: %+v", s.Rules[0].Obj.Spec.Rules[0])
			}
		})
	}
}
