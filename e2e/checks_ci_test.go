package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// checksRepository lays out a repository as docs/ci's recipes expect it: the rule-tests example's rules and group in rules/, its
// NodeFeatures in nodefeatures/, its RuleTest in tests/, and a
// functionConfig.
func checksRepository(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	ex := filepath.Join(examplesRoot, "rule-tests")
	for from, to := range map[string]string{"rules": "rules", "groups": "rules/groups", "nodefeatures": "nodefeatures", "tests": "tests"} {
		if err := os.CopyFS(filepath.Join(repo, to), os.DirFS(filepath.Join(ex, from))); err != nil {
			t.Fatal(err)
		}
	}
	suite := filepath.Join(repo, "tests", "gpu.ruletest.yaml")
	text, err := os.ReadFile(suite)
	if err != nil {
		t.Fatal(err)
	}
	text = []byte(strings.Replace(string(text), "    - ../groups\n", "", 1))
	config := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nfd-fn-config}\ndata: {enableTaints: \"true\"}\n"
	for name, data := range map[string][]byte{suite: text, filepath.Join(repo, "nfd-fn-config.yaml"): []byte(config)} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}

// breakGDSRule breaks the NVIDIA rule that gives dgx-h100-01 the label
// nvidia.com/gds.capable (checksRepository's RuleTest expects it at its
// line 17).
func breakGDSRule(t *testing.T, repo string) {
	t.Helper()
	rule := filepath.Join(repo, "rules", "nvidia-gpu-operator.yaml")
	text, err := os.ReadFile(rule)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(text), "nvidia_fs:", "nvidia_fss:", 1)
	if broken == string(text) {
		t.Fatalf("%s no longer matches nvidia_fs", rule)
	}
	if err := os.WriteFile(rule, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ciRecipes reads docs/ci's recipes: the `with:` of each GitHub workflow
// job's step that uses nfd-fn's Action, and the inputs of each include of
// the GitLab component, both by command.
func ciRecipes(t *testing.T) (github, gitlab map[string]map[string]string) {
	t.Helper()
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	var pipeline struct {
		Include []struct {
			Remote string            `yaml:"remote"`
			Inputs map[string]string `yaml:"inputs"`
		} `yaml:"include"`
	}
	for path, into := range map[string]any{"../docs/ci/github-actions.yaml": &wf, "../docs/ci/gitlab-ci.yml": &pipeline} {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(text, into); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	github, gitlab = map[string]map[string]string{}, map[string]map[string]string{}
	for name, job := range wf.Jobs {
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Uses, "nfd-fn/nfd-fn@") {
				github[s.With["command"]] = s.With
			} else if strings.Contains(s.Uses, "nfd-fn") || s.Uses == "" {
				t.Errorf("docs/ci/github-actions.yaml job %s: a step that is not nfd-fn's Action (%q): recipes use the Action", name, s.Uses)
			}
		}
	}
	for _, inc := range pipeline.Include {
		if !strings.HasSuffix(inc.Remote, "/templates/nfd-fn.yml") {
			t.Errorf("docs/ci/gitlab-ci.yml includes %q, not nfd-fn's component", inc.Remote)
		}
		gitlab[inc.Inputs["command"]] = inc.Inputs
	}
	return github, gitlab
}

// withVersion is inputs with version set: the recipes build nfd-fn from
// source until a release is tagged; here the test's binary is installed
// from a fake release instead.
func withVersion(inputs map[string]string) map[string]string {
	out := map[string]string{"version": e2eVersion}
	for k, v := range inputs {
		out[k] = v
	}
	return out
}

// TestCIRecipesRunTheActionAndTheComponent runs docs/ci's recipes on the
// rule-tests layout: the GitHub workflow's validate and test jobs through
// the Action's local runner (SARIF for the upload, reports in the step
// summary) and the GitLab pipeline's validate and test jobs through the
// component (nfd-fn's JUnit reports); both recipes have validate, test
// and plan, and their plan inputs are ones the Action and the component
// declare (plan itself runs in TestActionPlansFromSourceAndCommentsOnThePullRequest
// and TestPlanCIRecipeOnAPullRequest).
func TestCIRecipesRunTheActionAndTheComponent(t *testing.T) {
	github, gitlab := ciRecipes(t)
	for _, cmd := range []string{"validate", "test", "plan"} {
		if github[cmd] == nil || gitlab[cmd] == nil {
			t.Fatalf("docs/ci: want a %s job in both recipes; github %v, gitlab %v", cmd, github, gitlab)
		}
	}
	repo := checksRepository(t)
	release := fakeRelease(t, "")
	for _, cmd := range []string{"validate", "test"} {
		res := localAction(t, repo, release, nil).run(t, withVersion(github[cmd]))
		if res.failed != "" || res.outputs["exit-code"] != "0" || !strings.Contains(res.summary, "### nfd-fn "+cmd+": exit 0") {
			t.Errorf("the GitHub %s job: failed %q, outputs %v\n%s%s", cmd, res.failed, res.outputs, res.summary, res.stderr)
		}
		if upload := res.uses["github/codeql-action/upload-sarif@v3"]; (cmd == "validate") != (upload != nil) {
			t.Errorf("the GitHub %s job: SARIF upload %v; want one for validate alone", cmd, upload)
		}
		name, stdout, stderr, code := runComponent(t, repo, withVersion(gitlab[cmd]))
		if code != 0 {
			t.Errorf("the GitLab %s job: exit %d\n%s%s", name, code, stdout, stderr)
		}
		if report := readJUnit(t, filepath.Join(repo, "nfd-fn-junit.xml")); report.Tests == 0 || report.Failures != 0 {
			t.Errorf("the GitLab %s job's JUnit: %+v, want passing cases", name, report)
		}
	}
	componentJob(t, gitlab["plan"])
	b, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action compositeAction
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	for name := range github["plan"] {
		if _, ok := action.Inputs[name]; !ok {
			t.Errorf("docs/ci/github-actions.yaml's plan job passes %q, which action.yml does not declare", name)
		}
	}
}
