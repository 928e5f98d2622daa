package cli

import (
	"bytes"
	"os"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/golden"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// brokenRules are the broken-rule example's rules: errors at compile time
// and at run time, in two files.
const brokenRules = "../examples/broken-rule"

// TestValidateGitHubAndJUnitReports: validate -o github annotates each
// finding at its file, line and column; -o junit has a testsuite per
// file and a testcase per check that fired, failing on errors. Both exit
// 1, as text does, on errors (golden files).
func TestValidateGitHubAndJUnitReports(t *testing.T) {
	for _, format := range []string{"github", "junit"} {
		t.Run(format, func(t *testing.T) {
			stdout, stderr, code := testkit.Command(Main, "", "validate", "-o", format, brokenRules)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s", code, stderr)
			}
			golden.Check(t, "../testdata/validate-ci/broken-rule."+format+".golden", []byte(stdout))
		})
	}
}

// TestValidateSARIFPassesTheSARIF210Schema: what validate -o sarif
// writes over vendors' rules and a cluster export, and over broken
// rules, passes the SARIF 2.1.0 schema code scanning checks uploads
// against (pkg/diag/testdata).
func TestValidateSARIFPassesTheSARIF210Schema(t *testing.T) {
	schema, err := os.ReadFile("../pkg/diag/testdata/sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatal(err)
	}
	s := testkit.CompileSchema(t, schema)
	for name, args := range map[string][]string{
		"broken-rule":    {brokenRules},
		"cluster-export": {"--config", "../testdata/cluster-export/config.yaml", "../testdata/cluster-export"},
	} {
		t.Run(name, func(t *testing.T) {
			stdout, _, _ := testkit.Command(Main, "", append([]string{"validate", "-o", "sarif"}, args...)...)
			if err := testkit.ValidateJSON(s, []byte(stdout)); err != nil {
				t.Error(err)
			}
			if !bytes.Contains([]byte(stdout), []byte(`"helpUri"`)) || !bytes.Contains([]byte(stdout), []byte(`"partialFingerprints"`)) {
				t.Error("no helpUri or partialFingerprints")
			}
		})
	}
}
