package diag_test

import (
	"os"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Every layer reports problems as diagnostics; WriteText prints them one
// to a line, the way editors and pre-commit read them. The check's stable
// ID comes from the catalogue; the nodes a problem was found on are for
// the KRM results and SARIF, not the one-line text.
func ExampleWriteText() {
	list := diag.List{{
		Severity: diag.Error,
		Check:    "invalid-op",
		Object:   diag.ObjectRef{Kind: "NodeFeatureRule", Name: "intel-nic"},
		Field:    "spec.rules[0].matchFeatures[0].matchExpressions.vendor.op",
		Pos:      diag.Position{File: "rules/nic.yaml", Line: 13, Column: 26},
		Message:  `op "in" is not a match operator: did you mean "In"?`,
	}, {
		Severity: diag.Warning,
		Check:    "output-label",
		Object:   diag.ObjectRef{Kind: "NodeFeatureRule", Name: "intel-nic"},
		Field:    "spec.rules[0].labels",
		Message:  "label intel.com/nic is in a denied namespace",
		Nodes:    []string{"worker-1", "worker-2"},
	}}
	_ = diag.WriteText(os.Stdout, list)
	// Output:
	// rules/nic.yaml:13:26: error: NodeFeatureRule/intel-nic spec.rules[0].matchFeatures[0].matchExpressions.vendor.op: op "in" is not a match operator: did you mean "In"? [NFD004]
	// <input>: warning: NodeFeatureRule/intel-nic spec.rules[0].labels: label intel.com/nic is in a denied namespace [NFD012]
}
