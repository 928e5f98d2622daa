package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// TestSeverityRuleKeepsReadmeChecksDocAndCodeInStep checks the one
// severity rule three ways: every row of the README's validate table
// states exactly the severities diag.Severities gives its checks (which
// docs/checks.md is generated from, pkg/diag's golden test), and every
// finding validate reports on the golden cases under testdata/validate
// has a severity its check declares.
func TestSeverityRuleKeepsReadmeChecksDocAndCodeInStep(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := readmeValidateRows(t, string(readme))
	if len(rows) < 10 {
		t.Fatalf("found %d rows in the README's validate table", len(rows))
	}
	for _, row := range rows {
		var want []diag.Severity
		for _, id := range row.ids {
			if _, ok := diag.Lookup(id); !ok {
				t.Errorf("README row %q names unknown check %s", row.text, id)
			}
			for _, s := range diag.Severities[id] {
				if !slices.Contains(want, s) {
					want = append(want, s)
				}
			}
		}
		slices.Sort(want)
		got := slices.Sorted(slices.Values(row.severities))
		if !slices.Equal(got, want) {
			t.Errorf("README row %v says %v; the checks' severities are %v", row.ids, got, want)
		}
	}
	cases, _ := filepath.Glob("../testdata/validate/*")
	for _, dir := range cases {
		files := modes.OpenFiles([]string{dir}, nil)
		if _, err := files.LoadSettings(modes.SettingsFlags{Config: configArg(t, dir)}); err != nil {
			t.Fatalf("%s: bad config: %v", dir, err)
		}
		ds, _, err := modes.ValidateFiles(files, modes.ValidateFilesOptions{WorkerConfig: argOf(t, dir, "--worker-config")})
		files.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if !slices.Contains(diag.Severities[d.ID()], d.Severity) {
				t.Errorf("%s: %s finding is %s; docs/checks.md says %s: %s", filepath.Base(dir), d.ID(), d.Severity, diag.Severities[d.ID()], d.Message)
			}
		}
	}
}

type readmeRow struct {
	text       string
	ids        []string
	severities []diag.Severity
}

// readmeValidateRows reads the table under "| checks | what | severity |".
func readmeValidateRows(t *testing.T, readme string) []readmeRow {
	t.Helper()
	_, table, ok := strings.Cut(readme, "| checks | what | severity |\n|---|---|---|\n")
	if !ok {
		t.Fatal("README has no validate table")
	}
	var rows []readmeRow
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| NFD") {
			break
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		row := readmeRow{text: line}
		row.ids = strings.Split(cells[0], ", ")
		for _, s := range strings.Split(cells[len(cells)-1], " / ") {
			row.severities = append(row.severities, diag.Severity(s))
		}
		rows = append(rows, row)
	}
	return rows
}

// configArg is the --config file of a golden case's args, "" for none.
func configArg(t *testing.T, dir string) string { return argOf(t, dir, "--config") }

// argOf is the value of flag in a golden case's args, "" for none.
func argOf(t *testing.T, dir, flag string) string {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return ""
	}
	args := caseArgs(t, dir)
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// TestValidateAndRenderGiveOneVerdictPerFile runs both commands on every
// golden case under testdata/validate (with its --config, without
// suppressions, which only validate's cases use) and on a binary .yaml:
// both fail or both pass.
func TestValidateAndRenderGiveOneVerdictPerFile(t *testing.T) {
	cases, _ := filepath.Glob("../testdata/validate/*")
	binary := filepath.Join(t.TempDir(), "binary.yaml")
	if err := os.WriteFile(binary, []byte("\x7fELF\x02\x01\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range append(cases, binary) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			var args []string
			if c := configArg(t, path); c != "" {
				args = []string{"--config", c}
			}
			var out, errOut strings.Builder
			validate := Main(append(append([]string{"validate"}, args...), path), strings.NewReader(""), &out, &errOut)
			render := Main(append(append([]string{"render"}, args...), path), strings.NewReader(""), &out, &errOut)
			if validate != render {
				t.Errorf("validate exits %d, render %d:\n%s", validate, render, errOut.String())
			}
		})
	}
}
