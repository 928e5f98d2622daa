package cli

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// The tests of issue 34 §1 (the linter) run the real binary on the files
// under testdata/linter, as a pre-commit hook or a CI step would.

const linterCases = "../testdata/linter/"

// findingLine matches one finding of the text output:
// path[:line:col]: severity: ... [NFDnnn].
var findingLine = regexp.MustCompile(`^(?:nfd-fn: )?(\S+?)(?::(\d+):(\d+))?: (error|warning|info): .*\[(NFD\d+)\]$`)

// findings lists the findings of a run's text output as
// "path:line:col severity ID" (path relative to the cases), sorted and
// without repeats (render prints each on stdout's results and stderr).
func findings(out string) []string {
	var got []string
	for _, line := range strings.Split(out, "\n") {
		m := findingLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		at := strings.TrimPrefix(m[1], linterCases)
		if m[2] != "" {
			at += ":" + m[2] + ":" + m[3]
		}
		got = append(got, at+" "+m[4]+" "+m[5])
	}
	slices.Sort(got)
	return slices.Compact(got)
}

// TestYAML11BooleansInStringFieldsAreRefusedLikeTrue: plain yes, no, on,
// off, y and n (in YAML 1.1's spellings) in any string field of a
// NodeFeatureRule, NodeFeatureGroup or NodeFeature are NFD002 errors in
// validate and render, as `true` is: kubectl and Helm send them as
// booleans, which the CRD schema refuses. Quoted or !!str-tagged ones,
// and spellings YAML 1.1 reads as strings (yEs), are not reported.
func TestYAML11BooleansInStringFieldsAreRefusedLikeTrue(t *testing.T) {
	bin := buildListTestBinary(t)
	dir := linterCases + "yaml11-booleans"
	want := []string{
		"yaml11-booleans/nodefeature.yaml:13:18 error NFD002",
		"yaml11-booleans/rules.yaml:11:24 error NFD002",
		"yaml11-booleans/rules.yaml:16:35 error NFD002",
		"yaml11-booleans/rules.yaml:16:38 error NFD002",
		"yaml11-booleans/rules.yaml:16:43 error NFD002",
		"yaml11-booleans/rules.yaml:25:13 error NFD002",
		"yaml11-booleans/rules.yaml:29:37 error NFD002",
	}
	for _, cmd := range []string{"validate", "render"} {
		run := runBinary(t, bin, nil, cmd, dir)
		if run.code != 1 {
			t.Errorf("%s: exit %d, want 1; stderr:\n%s", cmd, run.code, run.stderr)
		}
		out := run.stdout
		if cmd == "render" {
			out = run.stderr
		}
		if diff := cmp.Diff(want, findings(out)); diff != "" {
			t.Errorf("%s findings (-want +got):\n%s\noutput:\n%s", cmd, diff, out)
		}
		if !strings.Contains(out, `got the unquoted Yes, which kubectl and Helm (YAML 1.1) send as a boolean: quote it ("Yes")`) {
			t.Errorf("%s: no message saying why Yes is refused and how to fix it:\n%s", cmd, out)
		}
	}
}

// TestNonKubernetesYAMLMentioningNFDIsSkippedWithANote: an Ansible
// playbook and a docs list that name NFD's kinds are documents that are
// not mappings and have no apiVersion or kind: validate skips each with a
// note (NFD023), not an NFD001 error, and still checks the rule beside
// them.
func TestNonKubernetesYAMLMentioningNFDIsSkippedWithANote(t *testing.T) {
	bin := buildListTestBinary(t)
	run := runBinary(t, bin, nil, "validate", "--strict", linterCases+"not-kubernetes")
	if run.code != 0 {
		t.Errorf("validate --strict: exit %d, want 0; stderr:\n%s", run.code, run.stderr)
	}
	want := []string{
		"not-kubernetes/kinds.yaml:2:1 info NFD023",
		"not-kubernetes/playbook.yml:2:1 info NFD023",
	}
	if diff := cmp.Diff(want, findings(run.stdout)); diff != "" {
		t.Errorf("findings (-want +got):\n%s\noutput:\n%s", diff, run.stdout)
	}
	if !strings.Contains(run.stderr, "in 3 files") {
		t.Errorf("the rule beside the playbook was not read:\n%s", run.stderr)
	}
}

// TestHelmTemplateWithQuotedPlaceholdersIsNotedNotChecked: a chart's
// template that parses as YAML because its placeholders are quoted
// (`name: "{{ .Release.Name }}-gpu"`, `"{{ .Values.x }}": "true"`) is a
// template source: validate and render note it (NFD036) and check
// nothing in it (no NFD047, NFD012). A rule file whose {{ }} are only in
// labelsTemplate is NFD's own template, and is checked.
func TestHelmTemplateWithQuotedPlaceholdersIsNotedNotChecked(t *testing.T) {
	bin := buildListTestBinary(t)
	const template = "helm-chart/templates/nodefeaturerule.yaml"
	run := runBinary(t, bin, nil, "validate", linterCases+"helm-chart")
	if run.code != 1 {
		t.Errorf("validate: exit %d, want 1 (the broken op); stderr:\n%s", run.code, run.stderr)
	}
	want := []string{
		"helm-chart/templates/labels-template.yaml:16:26 error NFD004",
		template + " info NFD036",
	}
	if diff := cmp.Diff(want, findings(run.stdout)); diff != "" {
		t.Errorf("validate findings (-want +got):\n%s\noutput:\n%s", diff, run.stdout)
	}

	run = runBinary(t, bin, nil, "render", linterCases+"helm-chart")
	var checks []string
	for _, r := range testkit.Read(t, []byte(run.stdout)).Results {
		if strings.HasSuffix(r.File.Path, template) {
			checks = append(checks, r.Severity+" "+r.Tags["checkID"])
		}
	}
	if diff := cmp.Diff([]string{"info NFD036"}, checks); diff != "" {
		t.Errorf("render's results on the template (-want +got):\n%s\nstderr:\n%s", diff, run.stderr)
	}
	if strings.Contains(run.stderr, template) {
		t.Errorf("render reports a problem in the template:\n%s", run.stderr)
	}
}

// TestNoCascadesAfterAValueFailsToDecode: once a value fails to decode
// (`class: [0300]`, an int; `device: [1]`; a rule name `no`, a boolean)
// or a misspelt key is refused (`values:`), its decoding error is the one
// finding there, in validate and render: no NFD056 or NFD005 about the ""
// left in its place, no "op In needs at least one value", no NFD008.
func TestNoCascadesAfterAValueFailsToDecode(t *testing.T) {
	bin := buildListTestBinary(t)
	want := []string{
		"no-cascades/rules.yaml:15:37 error NFD002",
		"no-cascades/rules.yaml:16:30 error NFD003",
		"no-cascades/rules.yaml:23:43 error NFD002",
		"no-cascades/rules.yaml:24:38 error NFD002",
		"no-cascades/rules.yaml:33:13 error NFD002",
	}
	for _, cmd := range []string{"validate", "render"} {
		run := runBinary(t, bin, nil, cmd, linterCases+"no-cascades")
		out := run.stdout
		if cmd == "render" {
			out = run.stderr
		}
		if run.code != 1 {
			t.Errorf("%s: exit %d, want 1; stderr:\n%s", cmd, run.code, run.stderr)
		}
		if diff := cmp.Diff(want, findings(out)); diff != "" {
			t.Errorf("%s findings (-want +got):\n%s\noutput:\n%s", cmd, diff, out)
		}
	}
}

// TestTemplatesThatCanNeverWorkAreErrorsWithOrWithoutAFleet: `{{ .vendr }}`
// over pci.device (whose element keys are fixed) and
// `.kernel.version.major` (an attribute feature is a list of Name/Value
// maps in templates) fail on every node: NFD006 errors from the rules
// alone, and still with NodeFeatures (beside the nodes' NFD027), in
// validate and render. The template that ranges and compares .Name is
// fine.
func TestTemplatesThatCanNeverWorkAreErrorsWithOrWithoutAFleet(t *testing.T) {
	bin := buildListTestBinary(t)
	static := []string{
		"templates/rules/templates.yaml:10:23 error NFD006",
		"templates/rules/templates.yaml:18:23 error NFD006",
	}
	withFleet := append(slices.Clone(static),
		"templates/rules/templates.yaml:10:23 error NFD027",
		"templates/rules/templates.yaml:18:23 error NFD027")
	slices.Sort(withFleet)
	for _, tc := range []struct {
		cmd, dir string
		want     []string
	}{
		{"validate", "templates/rules", static},
		{"render", "templates/rules", static},
		{"validate", "templates", withFleet},
		{"render", "templates", withFleet},
	} {
		run := runBinary(t, bin, nil, tc.cmd, linterCases+tc.dir)
		out := run.stdout
		if tc.cmd == "render" {
			out = run.stderr
		}
		if run.code != 1 {
			t.Errorf("%s %s: exit %d, want 1; stderr:\n%s", tc.cmd, tc.dir, run.code, run.stderr)
		}
		if diff := cmp.Diff(tc.want, findings(out)); diff != "" {
			t.Errorf("%s %s findings (-want +got):\n%s\noutput:\n%s", tc.cmd, tc.dir, diff, out)
		}
		for _, want := range []string{"did you mean .vendor?", "feature kernel.version is a list of elements in templates"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s %s: no %q in:\n%s", tc.cmd, tc.dir, want, out)
			}
		}
	}
}
