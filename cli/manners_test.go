package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestHelpExitsZeroForEveryCommand checks that -h and --help print the
// command's usage on stdout and exit 0.
func TestHelpExitsZeroForEveryCommand(t *testing.T) {
	for _, cmd := range []string{"render", "validate", "explain", "plan", "discover", "test", "schema"} {
		for _, flag := range []string{"-h", "--help"} {
			var out, errOut bytes.Buffer
			code := Main([]string{cmd, flag}, strings.NewReader(""), &out, &errOut)
			if code != 0 || !strings.Contains(out.String(), "Usage: nfd-fn "+cmd) || errOut.Len() != 0 {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q", cmd, flag, code, out.String(), errOut.String())
			}
		}
	}
}

// TestTopLevelHelpNamesEveryCommand checks that nfd-fn help lists every
// subcommand and output.
func TestTopLevelHelpNamesEveryCommand(t *testing.T) {
	var out bytes.Buffer
	if code := Main([]string{"help"}, strings.NewReader(""), &out, &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"render", "--output apply", "--output nova", "validate", "explain", "discover", "version"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, out.String())
		}
	}
}

// TestBadFlagValuesAreUsageErrors checks exit 2 and the accepted values.
func TestBadFlagValuesAreUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"discover", "--arch", "sparc"}, `unknown --arch "sparc": want amd64 or arm64`},
		{[]string{"discover", "--sources", "cpu,gpu"}, `unknown source "gpu"`},
		{[]string{"discover", "--nfd-version", "v0.16.9"}, `--nfd-version: nfd-worker release "v0.16.9" is not modelled (supported: v0.17.x, v0.18.x, v0.19.0, and OpenShift's operand as openshift-4.18 to openshift-5.0)`},
		{[]string{"render", "--output", "xml", "x.yaml"}, "want resourcelist, apply, apply-status, nova, labels or labels-json"},
		{[]string{"validate", "--output", "xml", "x.yaml"}, "want text, json, sarif, github or junit"},
		{[]string{"render", "--no-such-flag"}, "flag provided but not defined"},
		{[]string{"render", "--config", "c.yaml"}, "--config needs FILE or DIR arguments"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := Main(tt.args, strings.NewReader(""), &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit 2 and %q", tt.args, code, errOut.String(), tt.want)
		}
	}
}

// TestRenderEndsWithASummaryLine checks the one-line summary a render of
// files ends with on stderr.
func TestRenderEndsWithASummaryLine(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"render", "--config", "../testdata/cluster-export/config.yaml", "../testdata/cluster-export/snapshot.yaml", "../testdata/cluster-export/rules"}
	if code := Main(args, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
	last := lines[len(lines)-1]
	for _, want := range []string{"nfd-fn render: 4 nodes, 28 rules; ", " labels and 0 taints set; 0 errors, ", " warnings; ", "s"} {
		if !strings.Contains(last, want) {
			t.Errorf("last stderr line %q lacks %q", last, want)
		}
	}
}

// TestHelpCommandPrintsThatCommandsUsage: `nfd-fn help CMD` is `nfd-fn
// CMD --help`, as git's and kubectl's are; a mistyped CMD is bad usage
// with a did-you-mean, for every command, test and schema included.
func TestHelpCommandPrintsThatCommandsUsage(t *testing.T) {
	for _, cmd := range []string{"render", "validate", "explain", "plan", "discover", "test", "schema"} {
		var out, errOut bytes.Buffer
		if code := Main([]string{"help", cmd}, strings.NewReader(""), &out, &errOut); code != 0 || !strings.Contains(out.String(), "Usage: nfd-fn "+cmd) {
			t.Errorf("help %s: exit %d, stdout %.80q, stderr %q", cmd, code, out.String(), errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := Main([]string{"help", "tst"}, strings.NewReader(""), &out, &errOut); code != 2 || !strings.Contains(errOut.String(), `unknown command "tst"; did you mean test?`) {
		t.Errorf("help tst: exit %d, stderr %q", code, errOut.String())
	}
}
