package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestExplainUnknownNodeNamesTheKnownOnes: explain's failure to explain
// (modes.ExplainFiles' error) exits 1 with the reason on stderr.
func TestExplainUnknownNodeNamesTheKnownOnes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"explain", "--node", "worker-9", "../testdata/explain/nic-node"}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "known nodes: worker-1") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}
