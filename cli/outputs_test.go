package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestOutputTablesNameTheFlagsForms: each command's --output table holds
// the forms its flag's help lists, in that order, and exactly the forms
// another program acts on fail closed.
func TestOutputTablesNameTheFlagsForms(t *testing.T) {
	closed := map[string]bool{}
	for _, o := range renderOutputs {
		if o.FailsClosed != "" {
			closed[o.Name] = true
		}
	}
	for _, tt := range []struct {
		name, got, want string
	}{
		{"validate", validateOutputs.Want(), "text, json, sarif, github or junit"},
		{"render", renderOutputs.Want(), "resourcelist, apply, apply-status, nova, labels or labels-json"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s's forms: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	for _, name := range []string{"apply", "apply-status", "nova", "labels-json"} {
		if !closed[name] {
			t.Errorf("render --output %s does not fail closed", name)
		}
	}
	if len(closed) != 4 {
		t.Errorf("render's forms failing closed: %v, want apply, apply-status, nova and labels-json", closed)
	}
}

// TestUnknownOutputFormIsRefused: a name no table holds is bad usage in
// every command, and the message lists the table's forms.
func TestUnknownOutputFormIsRefused(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "--output", "yaml"}, `unknown --output "yaml": want resourcelist, apply, apply-status, nova, labels or labels-json`},
		{[]string{"validate", "--output", "yaml", "."}, `unknown --output "yaml": want text, json, sarif, github or junit`},
		{[]string{"plan", "--output", "yaml", "."}, `unknown --output "yaml": want text, markdown, json, github or junit`},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(tt.args, strings.NewReader(""), &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", tt.args, code)
		}
		if !strings.Contains(stderr.String(), tt.want) || stdout.Len() != 0 {
			t.Errorf("%v: stderr %q, stdout %q; want %q on stderr alone", tt.args, stderr.String(), stdout.String(), tt.want)
		}
	}
}
