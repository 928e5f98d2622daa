package e2e

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the examples' diff.patch, results.yaml and output.yaml from the actual runs")

// examplesRoot is where the examples live, relative to this package.
const examplesRoot = "../examples"

// runCount is how often each example runs: the second run proves that
// running the pipeline again over its own output changes nothing.
const runCount = 2

// TestExamples runs every example with .expected/ twice and compares the
// exit code, results, output and package diff with the expected ones.
func TestExamples(t *testing.T) {
	cases, err := scanExamples(examplesRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no examples with %s/ under %s", expectedDir, examplesRoot)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.cfgErr != nil {
				t.Fatal(c.cfgErr)
			}
			if c.cfg.Skip {
				t.Skip(c.cfg.SkipReason)
			}
			runExample(t, c)
		})
	}
}

// outcome is what one run of an example produced.
type outcome struct {
	code    int
	stdout  string
	stderr  string
	results string
}

// runExample copies the example into a fresh git repository and runs it
// runCount times.
func runExample(t *testing.T, c testCase) {
	tool := map[string]string{typeRender: "kpt", typeEval: "kpt", typeKustomize: "kustomize", typeCLI: "nfd-fn"}[c.cfg.TestType]
	toolPath := filepath.Join(binDir, "nfd-fn")
	if tool != "nfd-fn" {
		toolPath = requireTool(t, tool)
	}
	requireTool(t, "git")
	work := t.TempDir()
	pkg := filepath.Join(work, c.name)
	if err := os.CopyFS(pkg, os.DirFS(c.dir)); err != nil {
		t.Fatalf("copying the example: %v", err)
	}
	git(t, pkg, "init", "--quiet", "--initial-branch=main")
	git(t, pkg, "add", "--all")
	git(t, pkg, "commit", "--quiet", "--message=example")
	want := readExpected(t, c.dir)
	var first outcome
	for i := 1; i <= runCount; i++ {
		got := runOnce(t, c, toolPath, work, i)
		if i == 1 {
			first = got
			if *update {
				writeExpected(t, c, want, got, stagedDiff(t, pkg))
				return
			}
			checkFirstRun(t, c, want, got, pkg)
			git(t, pkg, "commit", "--quiet", "--allow-empty", "--message=first run")
			continue
		}
		checkRerun(t, first, got, pkg)
	}
}

// runOnce runs the example's command once from work, where the package
// is the directory c.name, as the example's README does.
func runOnce(t *testing.T, c testCase, toolPath, work string, i int) outcome {
	resultsDir := filepath.Join(work, "results-"+string(rune('0'+i)))
	env := commandEnv(c.cfg.Env)
	var o outcome
	switch c.cfg.TestType {
	case typeRender:
		o.stdout, o.stderr, o.code = run(t, work, env, nil, toolPath, "fn", "render", c.name, "--allow-exec", "--results-dir", resultsDir)
	case typeEval:
		args := append([]string{"fn", "eval", c.name, "--exec", "nfd-fn", "--results-dir", resultsDir}, evalArgsAfterDash(c.cfg)...)
		o.stdout, o.stderr, o.code = run(t, work, env, nil, toolPath, args...)
	case typeKustomize:
		o.stdout, o.stderr, o.code = run(t, work, env, nil, toolPath, "build", "--enable-alpha-plugins", "--enable-exec", c.name)
	case typeCLI:
		var in []byte
		if c.cfg.Stdin != "" {
			var err error
			if in, err = os.ReadFile(filepath.Join(work, c.name, c.cfg.Stdin)); err != nil {
				t.Fatal(err)
			}
		}
		o.stdout, o.stderr, o.code = run(t, filepath.Join(work, c.name), env, in, toolPath, c.cfg.Command...)
	}
	if b, err := os.ReadFile(filepath.Join(resultsDir, "results.yaml")); err == nil {
		o.results = normalize(string(b), work)
	}
	o.stdout = normalize(o.stdout, work)
	return o
}

func evalArgsAfterDash(c caseConfig) []string {
	if len(c.Args) == 0 {
		return nil
	}
	return append([]string{"--"}, c.evalArgs()...)
}

// normalize removes what differs between machines and runs: the
// temporary directory the example runs in.
func normalize(s, work string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, work+string(os.PathSeparator), ""))
}
