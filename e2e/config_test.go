package e2e

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// Test types: which command an example runs.
const (
	typeRender    = "render"
	typeEval      = "eval"
	typeKustomize = "kustomize"
	typeCLI       = "cli"
)

// expectedDir is the directory of an example that makes it a test case.
const expectedDir = ".expected"

// caseConfig is an example's .expected/config.yaml.
type caseConfig struct {
	TestType string            `json:"testType,omitempty"`
	ExitCode int               `json:"exitCode,omitempty"`
	Args     map[string]string `json:"args,omitempty"`
	Env      map[string]string `json:"env,omitempty"`
	Stdin    string            `json:"stdin,omitempty"`
	// Command are nfd-fn's arguments for testType cli ("plan", flags and
	// paths, relative to the example), as its README runs it.
	Command    []string `json:"command,omitempty"`
	Skip       bool     `json:"skip,omitempty"`
	SkipReason string   `json:"skipReason,omitempty"`
}

// testCase is one example directory.
type testCase struct {
	name string
	dir  string
	cfg  caseConfig
	// cfgErr fails this example alone when its config.yaml is wrong.
	cfgErr error
}

// scanExamples returns every directory under root that has .expected/.
func scanExamples(root string) ([]testCase, error) {
	dirs, err := filepath.Glob(filepath.Join(root, "*", expectedDir))
	if err != nil {
		return nil, err
	}
	sort.Strings(dirs)
	var cases []testCase
	for _, d := range dirs {
		dir := filepath.Dir(d)
		cfg, err := readConfig(filepath.Join(d, "config.yaml"))
		cases = append(cases, testCase{name: filepath.Base(dir), dir: dir, cfg: cfg, cfgErr: err})
	}
	return cases, nil
}

// readConfig reads and checks config.yaml; a missing file means defaults.
func readConfig(path string) (caseConfig, error) {
	cfg := caseConfig{TestType: typeRender}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, err
	}
	if err := yaml.UnmarshalStrict(b, &cfg); err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	if cfg.TestType == "" {
		cfg.TestType = typeRender
	}
	return cfg, cfg.validate(path)
}

func (c caseConfig) validate(path string) error {
	switch c.TestType {
	case typeRender, typeEval, typeKustomize:
		if c.Stdin != "" || len(c.Command) > 0 {
			return fmt.Errorf("%s: stdin and command are for testType cli only", path)
		}
	case typeCLI:
		if c.Stdin == "" && len(c.Command) == 0 {
			return fmt.Errorf("%s: testType cli needs stdin (the file fed to nfd-fn) or command (its arguments)", path)
		}
	default:
		return fmt.Errorf("%s: testType %q is not one of render, eval, kustomize, cli", path, c.TestType)
	}
	if len(c.Args) > 0 && c.TestType != typeEval {
		return fmt.Errorf("%s: args are for testType eval only", path)
	}
	if c.Skip && c.SkipReason == "" {
		return fmt.Errorf("%s: skip needs a skipReason", path)
	}
	return nil
}

// evalArgs are the function arguments in a stable order.
func (c caseConfig) evalArgs() []string {
	keys := make([]string, 0, len(c.Args))
	for k := range c.Args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + "=" + c.Args[k]
	}
	return out
}

// TestConfigRejectsMistakes checks that a config.yaml mistake is reported
// instead of silently running the example some other way.
func TestConfigRejectsMistakes(t *testing.T) {
	cases := []struct {
		name, text, wantErr string
	}{
		{"unknown-key", "testType: render\nexitStatus: 1\n", `unknown field "exitStatus"`},
		{"unknown-test-type", "testType: apply\n", `testType "apply" is not one of`},
		{"args-outside-eval", "args: {mode: validate}\n", "args are for testType eval only"},
		{"cli-without-stdin", "testType: cli\n", "testType cli needs stdin"},
		{"command-outside-cli", "command: [plan]\n", "stdin and command are for testType cli only"},
		{"skip-without-reason", "skip: true\n", "skip needs a skipReason"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := readConfig(path)
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("error = %v, want one containing %q", err, c.wantErr)
			}
		})
	}
	if cfg, err := readConfig(filepath.Join(t.TempDir(), "missing.yaml")); err != nil || cfg.TestType != typeRender {
		t.Errorf("a missing config.yaml gives %+v, %v; want testType render", cfg, err)
	}
}
