package krm

import (
	"encoding/json"
	"testing"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestSDKResultsEncodeAsFrameworkResultsDid checks that the kpt function
// SDK's results (issue 26 point 6), which replaced kyaml framework's,
// encode to the same YAML and JSON: kpt and kustomize read the same
// results as before the switch.
func TestSDKResultsEncodeAsFrameworkResultsDid(t *testing.T) {
	tests := []struct {
		name string
		old  framework.Result
		new  sdk.Result
	}{
		{"message-only", framework.Result{Message: "m"}, sdk.Result{Message: "m"}},
		{"severities", framework.Result{Severity: framework.Warning, Message: "w"}, sdk.Result{Severity: sdk.Warning, Message: "w"}},
		{"everything",
			framework.Result{Severity: framework.Error, Message: "bad\nvalue",
				ResourceRef: &kyaml.ResourceIdentifier{TypeMeta: kyaml.TypeMeta{APIVersion: "nfd.k8s-sigs.io/v1alpha1", Kind: "NodeFeatureRule"},
					NameMeta: kyaml.NameMeta{Name: "r", Namespace: "ns"}},
				Field: &framework.Field{Path: "spec.rules[0].name", ProposedValue: "x"}, File: &framework.File{Path: "rules/r.yaml", Index: 2},
				Tags: map[string]string{"check": "yaml", "checkID": "NFD001"}},
			sdk.Result{Severity: sdk.Error, Message: "bad\nvalue",
				ResourceRef: &sdk.ResourceRef{APIVersion: "nfd.k8s-sigs.io/v1alpha1", Kind: "NodeFeatureRule", Name: "r", Namespace: "ns"},
				Field:       &sdk.Field{Path: "spec.rules[0].name", ProposedValue: "x"}, File: &sdk.File{Path: "rules/r.yaml", Index: 2},
				Tags: map[string]string{"check": "yaml", "checkID": "NFD001"}}},
		{"severity-strings", framework.Result{Severity: framework.Info, Message: "i"}, sdk.Result{Severity: sdk.Info, Message: "i"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldY, err := yaml.Marshal(&tt.old)
			if err != nil {
				t.Fatal(err)
			}
			newY, err := yaml.Marshal(&tt.new)
			if err != nil {
				t.Fatal(err)
			}
			if string(oldY) != string(newY) {
				t.Errorf("YAML differs:\nframework:\n%s\nsdk:\n%s", oldY, newY)
			}
			oldJ, _ := json.Marshal(&tt.old)
			newJ, _ := json.Marshal(&tt.new)
			if string(oldJ) != string(newJ) {
				t.Errorf("JSON differs:\nframework: %s\nsdk:       %s", oldJ, newJ)
			}
		})
	}
}
