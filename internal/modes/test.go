package modes

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/ruletest"
)

// TestOptions adjust Test.
type TestOptions struct {
	// Update writes every suite's snapshot instead of comparing it.
	Update bool
	// NFDVersion is the release of suites that name none (--nfd-version).
	NFDVersion string
	// Coverage measures which rules the suites' nodes match.
	Coverage bool
	// MinCoverage fails the run below this percentage (implies Coverage).
	MinCoverage float64
	// FeatureCatalog, when set, declares third-party features in every
	// suite, over its settings' featureCatalog (--feature-catalog).
	FeatureCatalog *lint.FeatureCatalog
}

// ErrNoTests is the error of a run that finds no RuleTest.
var ErrNoTests = errors.New("no RuleTest found")

// Test is `nfd-fn test PATH...`: every RuleTest in the files under paths
// is run (testRun.suite) and the outcomes gathered in a report. Suites with
// the same inputs, settings and release share one render. Only paths
// that cannot be read, or hold no RuleTest, are an error.
func Test(paths []string, o TestOptions) (*ruletest.Report, error) {
	suites, results, err := findSuites(paths)
	if err != nil {
		return nil, err
	}
	if len(suites) == 0 && len(results) == 0 {
		return nil, fmt.Errorf("%w under %s (a test file has kind: %s, apiVersion: %s)", ErrNoTests, strings.Join(paths, ", "), ruletest.Kind, ruletest.APIVersion)
	}
	rep := &ruletest.Report{Results: results, MinCoverage: o.MinCoverage}
	if o.Coverage || o.MinCoverage > 0 {
		rep.Coverage = ruletest.NewCoverage()
	}
	run := newTestRun(o, suites)
	defer run.close()
	rep.Results = append(rep.Results, run.all(suites, rep.Coverage)...)
	return rep, nil
}

// all runs the suites, those of one source together, letting its render
// go after them: a run holds one fleet at a time, whatever the number of
// sources. The results keep the suites' order.
func (t *testRun) all(suites []*ruletest.Suite, cov *ruletest.Coverage) []ruletest.Result {
	srcs := make([]source, len(suites))
	groups := map[string][]int{}
	var keys []string
	for i, s := range suites {
		srcs[i] = t.source(s)
		k := srcs[i].key
		if _, seen := groups[k]; !seen {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	out := make([]ruletest.Result, len(suites))
	for _, k := range keys {
		for _, i := range groups[k] {
			out[i] = t.suite(suites[i], srcs[i], cov)
		}
		t.release(k)
	}
	return out
}

// findSuites parses the RuleTests in the files under paths; a file that
// does not parse is a result with its error.
func findSuites(paths []string) ([]*ruletest.Suite, []ruletest.Result, error) {
	files, err := objects.CollectFiles(paths)
	if err != nil {
		return nil, nil, err
	}
	var suites []*ruletest.Suite
	var broken []ruletest.Result
	for _, f := range files {
		data, err := objects.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		if !ruletest.Mentions(data) {
			continue
		}
		ss, err := ruletest.Parse(data, f)
		if err != nil {
			broken = append(broken, ruletest.Result{Name: f, File: f, Err: err.Error()})
			continue
		}
		suites = append(suites, ss...)
	}
	return suites, broken, nil
}

// suite runs one suite: its inputs rendered (shared with other suites
// of the same inputs), its expectations checked, its snapshot compared
// or, with Update, written.
func (t *testRun) suite(s *ruletest.Suite, src source, cov *ruletest.Coverage) ruletest.Result {
	res := ruletest.Result{Name: s.Name, File: s.File, Line: s.Line}
	r := t.render(src)
	if r.err != nil {
		res.Err = r.err.Error()
		return res
	}
	res.Cases = ruletest.Check(s, r.got())
	if s.Snapshot != "" {
		c, err := t.snapshot(s, r)
		if err != nil {
			res.Err = err.Error()
		}
		res.Cases = append(res.Cases, c)
	}
	if cov != nil {
		cov.Add(r.rules, func(rule ruletest.Rule) bool { return r.matched[ruleID(rule.Object.Key(), rule.Field)] })
	}
	return res
}

// snapshot compares the suite's snapshot with the render, or with
// Update writes it (a case that passes); the error is one writing it.
func (t *testRun) snapshot(s *ruletest.Suite, r *rendered) (ruletest.Case, error) {
	path := relativeTo(s.File, s.Snapshot)
	if t.opts.Update {
		text, err := ruletest.Snapshot(r.nodes)
		if err == nil {
			err = os.WriteFile(path, text, 0o644)
		}
		if err != nil {
			return ruletest.Case{}, fmt.Errorf("writing snapshot %s: %w", path, err)
		}
		return ruletest.Case{File: s.File, Line: s.SnapshotLine, Field: s.SnapshotField, Name: "snapshot " + s.Snapshot + " (updated)"}, nil
	}
	text, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		text, err = nil, nil
	}
	if err != nil {
		return ruletest.Case{}, fmt.Errorf("reading snapshot %s: %w", path, err)
	}
	return ruletest.CheckSnapshot(s, text, r.nodes), nil
}

// relativeTo resolves a path written in the test file at file.
func relativeTo(file, path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(filepath.Dir(file), path)
}

// TestWriter is the writer of a test --output format (text, json, junit,
// tap or github, TestFormats); ok is false for another name.
func TestWriter(format string) (write func(io.Writer, *ruletest.Report) error, ok bool) {
	return ruletest.Writer(format)
}

// TestFormats names test's --output formats, for usage lines.
const TestFormats = ruletest.Formats

// SchemaNames are the schemas `nfd-fn schema` prints.
const SchemaNames = "ruletest"

// Schema is the JSON Schema called name (SchemaNames); ok is false for
// another name.
func Schema(name string) (schema []byte, ok bool) {
	if name == "ruletest" {
		return ruletest.Schema, true
	}
	return nil, false
}
