package diag_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// writeSARIF is diag.WriteSARIF's output for l.
func writeSARIF(t *testing.T, l diag.List) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := diag.WriteSARIF(&b, l, "1.2.3"); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSARIFValidatesAgainstTheSARIF210Schema checks the log against the
// OASIS SARIF 2.1.0 schema (testdata/, vendored), which code-scanning
// uploads are checked against.
func TestSARIFValidatesAgainstTheSARIF210Schema(t *testing.T) {
	schema, err := os.ReadFile("testdata/sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatal(err)
	}
	s := testkit.CompileSchema(t, schema)
	for name, l := range map[string]diag.List{"sample": diag.SARIFSample, "empty": nil} {
		if err := testkit.ValidateJSON(s, writeSARIF(t, l)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// The schema does refuse a log that breaks it.
	if testkit.ValidateJSON(s, []byte(`{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}`)) == nil {
		t.Error("the schema accepts a driver without a name")
	}
}
