package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// compositeAction is the part of action.yml the local runner reads.
type compositeAction struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

// actionStep is one step of a composite action.
type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Env   map[string]string `yaml:"env"`
}

// actionRun is what running the action locally did: the action's outputs,
// the step summary, the steps' standard output (the job's log, where the
// runner reads workflow commands), the steps that ran (uses: steps are
// recorded with their resolved with:, not run), and the step that failed,
// if any.
type actionRun struct {
	outputs map[string]string
	summary string
	log     string
	ran     []string
	uses    map[string]map[string]string
	failed  string
	stderr  string
}

// actionRunner runs a composite action's steps the way the GitHub runner
// does, on this machine: ${{ }} expressions from the inputs, the github
// context given and the earlier steps' outputs; `if:` conditions (terms
// joined by &&, each a context value compared with == or != to a quoted
// literal); bash steps with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
// GITHUB_PATH and RUNNER_TEMP files; a failing step ends the run.
type actionRunner struct {
	dir    string            // the action's directory (github.action_path)
	github map[string]string // github.* values, such as "event.pull_request.number"
	env    []string          // the job's environment
	work   string            // the job's working directory
}

// expression finds ${{ ... }}.
var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// comparison is one term of an if: condition.
var comparison = regexp.MustCompile(`^([\w.-]+)\s*(==|!=)\s*'([^']*)'$`)

// run runs the action with inputs.
func (r actionRunner) run(t *testing.T, inputs map[string]string) actionRun {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action compositeAction
	if err := yaml.Unmarshal(b, &action); err != nil || action.Runs.Using != "composite" {
		t.Fatalf("action.yml: not a composite action (%v)", err)
	}
	ctx := map[string]string{"github.action_path": r.dir}
	for k, v := range r.github {
		ctx["github."+k] = v
	}
	for name, in := range action.Inputs {
		ctx["inputs."+name] = in.Default
	}
	for name, v := range inputs {
		if _, ok := action.Inputs[name]; !ok {
			t.Fatalf("action.yml has no input %q", name)
		}
		ctx["inputs."+name] = v
	}
	temp := t.TempDir()
	files := map[string]string{}
	for _, f := range []string{"GITHUB_STEP_SUMMARY", "GITHUB_PATH"} {
		files[f] = filepath.Join(temp, strings.ToLower(f))
		if err := os.WriteFile(files[f], nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := actionRun{outputs: map[string]string{}, uses: map[string]map[string]string{}}
	for i, step := range action.Runs.Steps {
		if step.If != "" && !condition(t, step.If, ctx) {
			continue
		}
		res.ran = append(res.ran, step.Name)
		if step.Uses != "" {
			with := map[string]string{}
			for k, v := range step.With {
				with[k] = substitute(v, ctx)
			}
			res.uses[step.Uses] = with
			continue
		}
		outputs, out, errOut, ok := r.runStep(t, step, ctx, files, temp, i)
		res.log += out
		res.stderr += errOut
		for k, v := range outputs {
			ctx["steps."+step.ID+".outputs."+k] = v
		}
		if !ok {
			res.failed = step.Name
			break
		}
	}
	summary, _ := os.ReadFile(files["GITHUB_STEP_SUMMARY"])
	res.summary = string(summary)
	for name, out := range action.Outputs {
		res.outputs[name] = substitute(out.Value, ctx)
	}
	return res
}

// runStep runs one bash step and returns the outputs it set and what it
// printed.
func (r actionRunner) runStep(t *testing.T, step actionStep, ctx, files map[string]string, temp string, i int) (map[string]string, string, string, bool) {
	t.Helper()
	if step.Shell != "bash" {
		t.Fatalf("step %q: shell %q; the local runner runs bash steps", step.Name, step.Shell)
	}
	output := filepath.Join(temp, "output-"+string(rune('a'+i)))
	if err := os.WriteFile(output, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append([]string{}, r.env...)
	if paths, _ := os.ReadFile(files["GITHUB_PATH"]); len(paths) > 0 {
		env = prependPath(env, strings.Fields(string(paths)))
	}
	env = append(env, "GITHUB_ACTION_PATH="+r.dir, "RUNNER_TEMP="+filepath.Join(temp, "runner"),
		"GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+files["GITHUB_STEP_SUMMARY"], "GITHUB_PATH="+files["GITHUB_PATH"])
	for k, v := range step.Env {
		env = append(env, k+"="+substitute(v, ctx))
	}
	// As the runner runs `shell: bash`.
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", substitute(step.Run, ctx))
	cmd.Dir, cmd.Env = r.work, env
	out, errOut, code := testkit.Exec(t, cmd, nil)
	b, err := os.ReadFile(output)
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			outputs[k] = v
		}
	}
	return outputs, out, errOut, code == 0
}

// substitute replaces each ${{ name }} in s by its value in ctx.
func substitute(s string, ctx map[string]string) string {
	return expression.ReplaceAllStringFunc(s, func(m string) string {
		return ctx[expression.FindStringSubmatch(m)[1]]
	})
}

// condition evaluates an if: condition; a term the runner cannot read
// fails the test rather than guessing.
func condition(t *testing.T, cond string, ctx map[string]string) bool {
	t.Helper()
	for _, term := range strings.Split(cond, "&&") {
		m := comparison.FindStringSubmatch(strings.TrimSpace(term))
		if m == nil {
			t.Fatalf("if: %q: the local runner reads only terms like name == 'literal' joined by &&", cond)
		}
		if (ctx[m[1]] == m[3]) != (m[2] == "==") {
			return false
		}
	}
	return true
}

// prependPath puts dirs first on env's PATH.
func prependPath(env []string, dirs []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			kv = "PATH=" + strings.Join(append(dirs, v), string(os.PathListSeparator))
		}
		out = append(out, kv)
	}
	return out
}
