package modes

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nfd-fn/nfd-fn/pkg/ruletest"
)

// TestInitFile is the file `nfd-fn test --init DIR` writes in DIR.
const TestInitFile = "ruletest.yaml"

// TestInit is `nfd-fn test --init DIR`: DIR's objects rendered as a
// suite over DIR would render them (with the functionConfig file config,
// when given, and o.NFDVersion, which the suite then names), and
// DIR/ruletest.yaml written with the answer as its expectations
// (ruletest.Scaffold). It never overwrites a file, and writes nothing
// when the render fails.
func TestInit(dir, config string, o TestOptions) (string, error) {
	path := filepath.Join(dir, TestInitFile)
	if _, err := os.Stat(path); err == nil {
		return "", fmt.Errorf("%s exists: nfd-fn test %s runs it", path, dir)
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	name := filepath.Base(filepath.Clean(dir))
	if abs, err := filepath.Abs(dir); err == nil {
		name = filepath.Base(abs)
	}
	suite := &ruletest.Suite{File: path, Name: name, Inputs: []string{"."}, NFDVersion: o.NFDVersion}
	if config != "" {
		rel, err := relativePath(dir, config)
		if err != nil {
			return "", fmt.Errorf("--config: %w", err)
		}
		suite.Config = rel
	}
	t := newTestRun(o, []*ruletest.Suite{suite})
	defer t.close()
	r := t.render(t.source(suite))
	if r.err != nil {
		return "", r.err
	}
	text, err := ruletest.Scaffold(suite, r.got())
	if err != nil {
		return "", err
	}
	return path, os.WriteFile(path, text, 0o644)
}

// relativePath is path as a file in dir names it.
func relativePath(dir, path string) (string, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.Rel(absDir, abs)
}
