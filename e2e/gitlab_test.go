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

// junitReport is the part of a JUnit report (nfd-fn's -o junit) checked
// here.
type junitReport struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			ClassName string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// readJUnit reads the JUnit report at path.
func readJUnit(t *testing.T, path string) junitReport {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var report junitReport
	if err := xml.Unmarshal(b, &report); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	return report
}

// runComponent runs the component's job with inputs in work, locally in
// one bash as the runner runs a script, installing nfd-fn from a fake
// release (the job's PATH has no nfd-fn of its own).
func runComponent(t *testing.T, work string, inputs map[string]string) (name, stdout, stderr string, code int) {
	t.Helper()
	requireTool(t, "curl")
	name, job := componentJob(t, inputs)
	vars := map[string]string{"CI_PROJECT_DIR": work, "NFD_FN_RELEASE_URL": fakeRelease(t, "")}
	for k, v := range job.Variables {
		vars[k] = v
	}
	cmd := exec.Command(requireTool(t, "bash"), "-eo", "pipefail", "-c", strings.Join(job.Script, "\n"))
	cmd.Dir, cmd.Env = work, withoutBinDir(commandEnv(vars))
	stdout, stderr, code = testkit.Exec(t, cmd, nil)
	return name, stdout, stderr, code
}

// TestGitLabComponentReportsValidateFindingsAsNfdFnJUnit is issue 38's
// point 3 (GitLab) with issue 36's `validate -o junit`: the component's
// job installs the release archive after checking its sha256, validates
// the rules, fails, prints the text report and leaves nfd-fn's own JUnit:
// a testsuite per file, a failing testcase per check that fired, holding
// each error line the log shows.
func TestGitLabComponentReportsValidateFindingsAsNfdFnJUnit(t *testing.T) {
	work := t.TempDir()
	copyPath(t, filepath.Join(examplesRoot, "broken-rule", "rules"), filepath.Join(work, "rules"))
	name, stdout, stderr, code := runComponent(t, work, map[string]string{"version": e2eVersion, "paths": "rules"})
	if name != "nfd-fn-validate" {
		t.Errorf("the job is named %q, want nfd-fn-validate", name)
	}
	if code == 0 || !strings.Contains(stdout, e2eVersion) {
		t.Fatalf("the job should install %s and fail on the broken rules: exit %d\n%s%s", e2eVersion, code, stdout, stderr)
	}
	report := readJUnit(t, filepath.Join(work, "nfd-fn-junit.xml"))
	var errorLines []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.Contains(l, ": error: ") {
			errorLines = append(errorLines, l)
		}
	}
	if len(errorLines) == 0 || len(report.Suites) != 2 || report.Failures != 2 {
		t.Fatalf("want the log's error lines and a failing case per file and check (broken.yaml NFD003, broken-at-runtime.yaml NFD005); got %d lines, %+v", len(errorLines), report)
	}
	var failures string
	for _, s := range report.Suites {
		for _, c := range s.Cases {
			if !strings.HasPrefix(c.ClassName, "rules/") || c.Failure == nil {
				t.Errorf("suite %s case %q: want a failing case in a rules/ file, got %+v", s.Name, c.Name, c.Failure)
				continue
			}
			failures += c.Failure.Text + "\n"
		}
	}
	for _, l := range errorLines {
		if !strings.Contains(failures, l) {
			t.Errorf("the log's error line is in no JUnit failure: %s", l)
		}
	}
}

// TestGitLabComponentRunsRuleTestsIntoJUnit is the component's `command:
// test` (issue 38 point 3 with issue 36's `test -o junit`) on the
// rule-tests example: the suite passes with a testcase per expectation;
// with a rule broken by hand, the job fails and the expectation it broke
// is a failing case naming the label.
func TestGitLabComponentRunsRuleTestsIntoJUnit(t *testing.T) {
	work := checksRepository(t)
	inputs := map[string]string{"version": e2eVersion, "command": "test", "paths": "tests", "args": "--coverage"}
	name, stdout, stderr, code := runComponent(t, work, inputs)
	if name != "nfd-fn-test" || code != 0 || !strings.Contains(stdout, "PASS  gpu-rules") {
		t.Fatalf("job %s: exit %d, want 0 and the suite passing in the log\n%s%s", name, code, stdout, stderr)
	}
	report := readJUnit(t, filepath.Join(work, "nfd-fn-junit.xml"))
	if len(report.Suites) != 1 || report.Suites[0].Name != "gpu-rules" || report.Tests < 10 || report.Failures != 0 {
		t.Fatalf("want the gpu-rules suite passing with a case per expectation: %+v", report)
	}
	breakGDSRule(t, work)
	_, stdout, stderr, code = runComponent(t, work, inputs)
	report = readJUnit(t, filepath.Join(work, "nfd-fn-junit.xml"))
	if code == 0 || report.Failures == 0 {
		t.Fatalf("with a broken rule: exit %d, failures %d, want a failing job and report\n%s%s", code, report.Failures, stdout, stderr)
	}
	found := false
	for _, c := range report.Suites[0].Cases {
		found = found || c.Name == "node dgx-h100-01 label nvidia.com/gds.capable" && c.Failure != nil
	}
	if !found {
		t.Errorf("no failing case for the gds.capable label: %+v", report.Suites[0].Cases)
	}
}
