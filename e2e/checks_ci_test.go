package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// checksRepository lays out a repository as docs/ci's checks recipes
// expect it: the rule-tests example's rules and group in rules/, its
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

// recipeCommands reads the shell commands of docs/ci's checks recipes:
// the GitHub workflow's run steps that call nfd-fn, and the GitLab job's
// script after its go install.
func recipeCommands(t *testing.T) (github, gitlab []string) {
	t.Helper()
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Run string `json:"run"`
			} `json:"steps"`
		} `json:"jobs"`
	}
	var job map[string]struct {
		Script []string `json:"script"`
	}
	for path, into := range map[string]any{"../docs/ci/github-checks.yaml": &wf, "../docs/ci/gitlab-checks.yml": &job} {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(text, into); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	for _, s := range wf.Jobs["checks"].Steps {
		if strings.HasPrefix(s.Run, "nfd-fn ") {
			github = append(github, s.Run)
		}
	}
	for _, l := range job["nfd-fn-checks"].Script {
		if !strings.HasPrefix(l, "go install") {
			gitlab = append(gitlab, l)
		}
	}
	return github, gitlab
}

// TestChecksCIRecipesOnTheRuleTestsLayout runs docs/ci's checks recipes
// (the GitHub workflow's validate and test steps, the GitLab job's
// script) with the built nfd-fn: they pass on the rule-tests example, the
// SARIF and JUnit reports are written, and a broken rule fails the test
// step with an annotation at the RuleTest's line.
func TestChecksCIRecipesOnTheRuleTestsLayout(t *testing.T) {
	repo := checksRepository(t)
	github, gitlab := recipeCommands(t)
	if len(github) != 2 || len(gitlab) < 3 {
		t.Fatalf("recipes changed shape: github %q, gitlab %q", github, gitlab)
	}
	sh := requireTool(t, "sh")
	for _, cmd := range github {
		if stdout, stderr, code := run(t, repo, commandEnv(nil), nil, sh, "-c", cmd); code != 0 {
			t.Errorf("%s: exit %d\n%s%s", cmd, code, stdout, stderr)
		}
	}
	sarif, err := os.ReadFile(filepath.Join(repo, "nfd-fn.sarif"))
	if err != nil || !strings.Contains(string(sarif), `"version": "2.1.0"`) {
		t.Errorf("no SARIF log written: %v", err)
	}
	script := "set -e\n" + strings.Join(gitlab, "\n")
	if stdout, stderr, code := run(t, repo, commandEnv(nil), nil, sh, "-c", script); code != 0 {
		t.Errorf("the GitLab job: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, f := range []string{"validate.junit.xml", "test.junit.xml"} {
		if b, err := os.ReadFile(filepath.Join(repo, f)); err != nil || !strings.Contains(string(b), "<testsuites") {
			t.Errorf("%s: not a JUnit report: %v", f, err)
		}
	}
	rule := filepath.Join(repo, "rules", "nvidia-gpu-operator.yaml")
	text, _ := os.ReadFile(rule)
	if err := os.WriteFile(rule, []byte(strings.Replace(string(text), "gdrdrv:", "gdrdrvv:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, code := run(t, repo, commandEnv(nil), nil, sh, "-c", github[1])
	if want := "::error file=tests/gpu.ruletest.yaml,line=18,"; code != 1 || !strings.Contains(stdout, want) {
		t.Errorf("with a broken rule: exit %d, want 1 and %q in:\n%s", code, want, stdout)
	}
}
