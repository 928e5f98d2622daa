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
	outs, _ := validateAndRender(t, bin, dir)
	for cmd, out := range outs {
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
		"helm-chart/templates/labels-template.yaml:16:26 error NFD300",
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
// left in its place, no "op In needs at least one value", no NFD008. The
// misspelt key is an error in validate, which assumes kubectl's
// fieldValidation=Strict, and a warning (pruned) in render, which assumes
// client-go's Warn; the object is refused for its NFD002 either way.
func TestNoCascadesAfterAValueFailsToDecode(t *testing.T) {
	bin := buildListTestBinary(t)
	for _, cmd := range []string{"validate", "render"} {
		misspelt := map[string]string{"validate": "error", "render": "warning"}[cmd]
		want := []string{
			"no-cascades/rules.yaml:15:37 error NFD002",
			"no-cascades/rules.yaml:16:30 " + misspelt + " NFD003",
			"no-cascades/rules.yaml:23:43 error NFD002",
			"no-cascades/rules.yaml:24:38 error NFD002",
			"no-cascades/rules.yaml:33:13 error NFD002",
		}
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

// configFinding matches validate's finding in a worker configuration:
// file:line:col: severity: field: message [NFDnnn].
var configFinding = regexp.MustCompile(`^\S+?:(\d+):\d+: (?:error|warning): (.*) \[NFD\d+\]$`)

// discoverConfigLine matches discover's word on its configuration: a
// "config" warning or the error that stops it, "line N: field: message".
var discoverConfigLine = regexp.MustCompile(`^(?:warning: config|nfd-fn discover: parsing worker config): (line \d+: .*)$`)

// TestValidateWorkerConfigReportsWhatDiscoverReports: validate
// --worker-config and discover --config read the three forms of an
// nfd-worker configuration (the file, the ConfigMap NFD's chart makes,
// Helm values) and report the same problems at the same lines: an
// unquoted 0200 read as "128", a misspelt matchFeatures that leaves a
// custom rule matching every node, and a Ge nfd-worker refuses, whose
// line discover now names too.
func TestValidateWorkerConfigReportsWhatDiscoverReports(t *testing.T) {
	bin := buildListTestBinary(t)
	host := t.TempDir()
	dir := linterCases + "worker-config/"
	for _, tc := range []struct {
		file string
		want []string // what both say, "line N: field: message" (a part of it)
	}{
		{"nfd-worker.conf", []string{`line 7: sources.pci.deviceClassWhitelist[0]: nfd-worker reads the unquoted value 0200 as "128"`,
			`line 11: sources.custom[0].matchFeature: unknown field "matchFeature"`}},
		{"configmap.yaml", []string{`line 17: sources.pci.deviceClassWhitelist[0]:`, `line 21: sources.custom[0].matchFeature:`}},
		{"values.yaml", []string{`line 9: sources.pci.deviceClassWhitelist[0]:`, `line 13: sources.custom[0].matchFeature:`}},
		{"refused.conf", []string{`line 13: sources.custom[0].matchFeatures[0].matchExpressions.e1000e.op: invalid Op "Ge"`}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			v := runBinary(t, bin, nil, "validate", "--worker-config", dir+tc.file, dir+"rules.yaml")
			if v.code != 1 {
				t.Errorf("validate: exit %d, want 1; stderr:\n%s", v.code, v.stderr)
			}
			var validate []string
			for _, line := range strings.Split(v.stdout, "\n") {
				if m := configFinding.FindStringSubmatch(line); m != nil && strings.HasPrefix(line, dir+tc.file) {
					validate = append(validate, "line "+m[1]+": "+m[2])
				}
			}
			d := runBinary(t, bin, nil, "discover", "--host-root", host, "--node-name", "n", "--config", dir+tc.file)
			refused := tc.file == "refused.conf"
			if (d.code == 1) != refused {
				t.Errorf("discover: exit %d; stderr:\n%s", d.code, d.stderr)
			}
			var discover []string
			for _, line := range strings.Split(d.stderr, "\n") {
				if m := discoverConfigLine.FindStringSubmatch(line); m != nil {
					discover = append(discover, m[1])
				}
			}
			if !refused && !slices.Equal(validate, discover) {
				t.Errorf("validate reports\n%s\ndiscover reports\n%s", strings.Join(validate, "\n"), strings.Join(discover, "\n"))
			}
			for _, want := range tc.want {
				if !slices.ContainsFunc(validate, func(s string) bool { return strings.HasPrefix(s, want) }) {
					t.Errorf("validate lacks %q:\n%s", want, v.stdout)
				}
				if !slices.ContainsFunc(discover, func(s string) bool { return strings.HasPrefix(s, want) }) {
					t.Errorf("discover lacks %q:\n%s", want, d.stderr)
				}
			}
		})
	}
}

// TestNamedWorkerConfigThatIsMissingOrNotOneIsAnError is issue 34 §3's
// second point: a worker configuration named by --config or by the
// functionConfig's workerConfig that does not exist, or is not a worker
// configuration (a NodeFeatureRule), stops discover with an error naming
// it; nothing named means nfd-worker's defaults.
func TestNamedWorkerConfigThatIsMissingOrNotOneIsAnError(t *testing.T) {
	bin := buildListTestBinary(t)
	host := t.TempDir()
	for _, tc := range []struct{ config, want string }{
		{host + "/missing.conf", host + "/missing.conf does not exist"},
		{linterCases + "worker-config/rules.yaml", "not an nfd-worker configuration: none of its 4 top-level keys is core or sources"},
	} {
		run := runBinary(t, bin, nil, "discover", "--host-root", host, "--node-name", "n", "--config", tc.config)
		if run.code != 1 || run.stdout != "" || !strings.Contains(run.stderr, tc.want) {
			t.Errorf("discover --config %s: exit %d, %d bytes out, want 1, nothing, and %q; stderr:\n%s", tc.config, run.code, len(run.stdout), tc.want, run.stderr)
		}
	}
	if run := runBinary(t, bin, nil, "discover", "--host-root", host, "--node-name", "n"); run.code != 0 {
		t.Errorf("discover without --config: exit %d, want 0 (nfd-worker's defaults); stderr:\n%s", run.code, run.stderr)
	}
	list := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n" +
		"  metadata: {name: fn-config}\n  data:\n    mode: discover\n    hostRoot: " + host + "\n    nodeName: n\n" +
		"    workerConfig: /etc/kubernetes/node-feature-discovery/nfd-worker.conf\n"
	run := runBinary(t, bin, []byte(list))
	results := testkit.Read(t, []byte(run.stdout)).Results
	if run.code != 1 || len(results) == 0 || results[0].Severity != "error" ||
		!strings.Contains(results[0].Message, "/etc/kubernetes/node-feature-discovery/nfd-worker.conf does not exist") {
		t.Errorf("functionConfig workerConfig missing: exit %d, results %+v; stderr:\n%s", run.code, results, run.stderr)
	}
}
