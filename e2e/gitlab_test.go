package e2e

import (
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// componentFile is the GitLab CI/CD component.
const componentFile = "../templates/nfd-fn.yml"

// componentInput finds $[[ inputs.NAME ]] in a component.
var componentInput = regexp.MustCompile(`\$\[\[\s*inputs\.([\w-]+)\s*\]\]`)

// gitlabJob is the part of a GitLab CI job the local run reads.
type gitlabJob struct {
	Variables map[string]string `yaml:"variables"`
	Script    []string          `yaml:"script"`
}

// componentJob reads the component with inputs over its defaults, as
// GitLab does when it includes it: spec:inputs, then the job with each
// $[[ inputs.NAME ]] replaced. A reference to an undeclared input, or an
// input the component does not declare, fails the test.
func componentJob(t *testing.T, inputs map[string]string) (string, gitlabJob) {
	t.Helper()
	b, err := os.ReadFile(componentFile)
	if err != nil {
		t.Fatal(err)
	}
	header, body, ok := strings.Cut(string(b), "\n---\n")
	if !ok {
		t.Fatalf("%s: no --- between spec:inputs and the job", componentFile)
	}
	var spec struct {
		Spec struct {
			Inputs map[string]struct {
				Default any `yaml:"default"`
			} `yaml:"inputs"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal([]byte(header), &spec); err != nil {
		t.Fatalf("%s: spec: %v", componentFile, err)
	}
	values := map[string]string{}
	for name, in := range spec.Spec.Inputs {
		values[name] = fmt.Sprint(in.Default)
	}
	for name, v := range inputs {
		if _, ok := values[name]; !ok {
			t.Fatalf("%s declares no input %q", componentFile, name)
		}
		values[name] = v
	}
	body = componentInput.ReplaceAllStringFunc(body, func(m string) string {
		name := componentInput.FindStringSubmatch(m)[1]
		v, ok := values[name]
		if !ok {
			t.Errorf("%s uses the undeclared input %q", componentFile, name)
		}
		return v
	})
	var jobs map[string]gitlabJob
	if err := yaml.Unmarshal([]byte(body), &jobs); err != nil || len(jobs) != 1 {
		t.Fatalf("%s: want one job, got %d (%v)", componentFile, len(jobs), err)
	}
	for name, job := range jobs {
		return name, job
	}
	return "", gitlabJob{}
}

// junitSuite is the part of a JUnit report checked here.
type junitSuite struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Cases    []struct {
		Name    string `xml:"name,attr"`
		Failure *struct {
			Message string `xml:"message,attr"`
		} `xml:"failure"`
	} `xml:"testcase"`
}

// TestGitLabComponentReportsEachErrorAsAJUnitCase is issue 38's point 3
// (GitLab): the component's job, run locally in one bash as the runner
// runs a script, installs the release archive after checking its sha256,
// validates the rules, fails, and leaves a JUnit report with one failing
// case per error.
func TestGitLabComponentReportsEachErrorAsAJUnitCase(t *testing.T) {
	requireTool(t, "curl")
	name, job := componentJob(t, map[string]string{"version": e2eVersion, "paths": "rules"})
	if name != "nfd-fn-validate" {
		t.Errorf("the job is named %q, want nfd-fn-validate", name)
	}
	work := t.TempDir()
	copyPath(t, filepath.Join(examplesRoot, "broken-rule", "rules"), filepath.Join(work, "rules"))
	vars := map[string]string{"CI_PROJECT_DIR": work, "NFD_FN_RELEASE_URL": fakeRelease(t, "")}
	for k, v := range job.Variables {
		vars[k] = v
	}
	cmd := exec.Command(requireTool(t, "bash"), "-eo", "pipefail", "-c", strings.Join(job.Script, "\n"))
	cmd.Dir, cmd.Env = work, withoutBinDir(commandEnv(vars))
	stdout, stderr, code := testkit.Exec(t, cmd, nil)
	if code == 0 || !strings.Contains(stdout, e2eVersion) {
		t.Fatalf("the job should install %s and fail on the broken rules: exit %d\n%s%s", e2eVersion, code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(work, "nfd-fn-junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var suite junitSuite
	if err := xml.Unmarshal(b, &suite); err != nil {
		t.Fatalf("nfd-fn-junit.xml: %v\n%s", err, b)
	}
	errors := strings.Count(stdout, ": error: ")
	if errors == 0 || suite.Tests != errors || suite.Failures != errors || len(suite.Cases) != errors {
		t.Fatalf("want %d failing cases, one per error line; got tests=%d failures=%d cases=%d\n%s", errors, suite.Tests, suite.Failures, len(suite.Cases), b)
	}
	for _, c := range suite.Cases {
		if !strings.HasPrefix(c.Name, "rules/") || c.Failure == nil || !strings.Contains(c.Failure.Message, "[NFD") {
			t.Errorf("case %q: want a rules/ position failing with the check's message, got %+v", c.Name, c.Failure)
		}
	}
}
