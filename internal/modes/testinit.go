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
// suite over DIR would render them, and DIR/ruletest.yaml written with
// the answer as its expectations (ruletest.Scaffold). It never
// overwrites a file, and writes nothing when the render fails.
func TestInit(dir string, o TestOptions) (string, error) {
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
	suite := &ruletest.Suite{File: path, Name: name, Inputs: []string{"."}}
	t := newTestRun(o, []*ruletest.Suite{suite})
	defer t.close()
	r := t.render(suite)
	if r.err != nil {
		return "", r.err
	}
	text, err := ruletest.Scaffold(suite.Name, suite.Inputs, r.got())
	if err != nil {
		return "", err
	}
	return path, os.WriteFile(path, text, 0o644)
}
