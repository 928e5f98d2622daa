package yamlstrict

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

const locateDoc = `spec:
  rules:
    - name: a
      labels:
        "vendor.io/x": "1"
      matchFeatures:
        - feature: cpu.security
          matchExpressions:
            sgx.enabled: {op: IsTrue}
`

func TestLocatePointsAtTheNodeOfAFieldPath(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(locateDoc), &doc); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		path      string
		key       bool
		line, col int
	}{
		{"indexed-value", "spec.rules[0].name", false, 3, 13},
		{"key-node", "spec.rules[0].name", true, 3, 7},
		{"quoted-key", `spec.rules[0].labels["vendor.io/x"]`, false, 5, 24},
		{"dotted-key-unquoted", "spec.rules[0].matchFeatures[0].matchExpressions.sgx.enabled.op", false, 9, 31},
		{"missing-field-falls-back-to-parent", "spec.rules[0].matchFeatures[0].matchName", false, 7, 11},
		{"index-out-of-range-falls-back-to-the-list", "spec.rules[3].name", false, 3, 5},
		{"empty-path-is-root", "", false, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Locate(&doc, tt.path, tt.key)
			if n == nil || n.Line != tt.line || n.Column != tt.col {
				t.Fatalf("Locate(%q) at %d:%d, want %d:%d", tt.path, n.Line, n.Column, tt.line, tt.col)
			}
		})
	}
}

func TestDecodeAcceptsFreeFormAndNumbers(t *testing.T) {
	type target struct {
		Metadata map[string]any `json:"metadata"`
		Ratio    float64        `json:"ratio"`
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("metadata: {name: x, labels: {a: b}, generation: 3}\nratio: 1.5\n"), &doc); err != nil {
		t.Fatal(err)
	}
	var got target
	if errs := NewDecoder(nil).Decode(&doc, &got, ""); len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if got.Metadata["name"] != "x" || got.Ratio != 1.5 {
		t.Fatalf("got %+v", got)
	}
	var bad target
	if err := yaml.Unmarshal([]byte("ratio: lots\n"), &doc); err != nil {
		t.Fatal(err)
	}
	if errs := NewDecoder(nil).Decode(&doc, &bad, ""); len(errs) != 1 || errs[0].Path != "ratio" {
		t.Fatalf("errors = %v, want one at ratio", errs)
	}
}
