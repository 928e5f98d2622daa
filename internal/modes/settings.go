package modes

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// SettingsFlags are what the command line says about the settings of
// validate, explain, plan and test.
type SettingsFlags struct {
	// Config is the --config functionConfig file ("" for none).
	Config string
	// NFDVersion (--nfd-version) overrides the settings' own release.
	NFDVersion string
	// CRDVersion (--crd-version) overrides the settings' crdVersion:
	// objects are admitted with that release's CRDs, whatever release is
	// rendered as.
	CRDVersion string
}

// SettingsError is why a run cannot go on with its settings. The
// findings LoadSettings returns with it come first; Reasons, each told on
// a line of its own, are what they do not say.
type SettingsError struct {
	// Usage is true when the command line is at fault (a --config file,
	// a flag's value: bad usage, exit 2), false when an input is (the
	// functionConfig of a ResourceList among the files: exit 1, as render
	// over the same file).
	Usage bool
	// Reasons are the errors beyond the findings, none when the
	// findings' errors say it all.
	Reasons []error
}

func (e *SettingsError) Error() string {
	if len(e.Reasons) == 0 {
		return "the settings have errors"
	}
	return errors.Join(e.Reasons...).Error()
}

// usage is a SettingsError of the command line with one reason.
func usage(err error) *SettingsError { return &SettingsError{Usage: true, Reasons: []error{err}} }

// LoadSettings reads the settings of validate, explain, plan and test
// into f.Settings: from the --config file, or from the functionConfig of
// a ResourceList among the files ("-" is stdin), never from both: nfd-fn
// would have to pick one silently (inputs.ConfigFor); then flags'
// releases apply over them. It returns the settings file's findings
// (config.Load's, at their file), warnings and notes first, then errors,
// each in the order met; and a *SettingsError when the run cannot go on.
func (f *Files) LoadSettings(flags SettingsFlags) (diag.List, error) {
	list, from, err := inputs.ListConfig(f.Paths, f.stdin)
	if err != nil {
		return nil, usage(err)
	}
	f.configPath = flags.Config
	var found diag.List
	if list == nil {
		f.Settings, found, err = settingsFromFile(flags.Config)
	} else {
		if flags.Config != "" {
			given, err := ReadConfig(flags.Config)
			if err == nil {
				_, err = inputs.ConfigFor(given, list, from)
			}
			if err != nil {
				return nil, usage(err)
			}
		}
		// The functionConfig of a ResourceList file is input, not usage.
		f.Settings, found, err = settingsOf(from, list, false)
	}
	if err != nil {
		return found, err
	}
	refused := refusals("--nfd-version", f.Settings.UseRelease, flags.NFDVersion)
	if len(refused) == 0 {
		refused = refusals("--crd-version", f.Settings.UseCRDs, flags.CRDVersion)
	}
	if len(refused) > 0 {
		return found, &SettingsError{Usage: true, Reasons: refused}
	}
	return found, nil
}

// refusals applies a release flag's value (when given) with use, and
// returns why it is refused, each reason naming the flag.
func refusals(flag string, use func(string) diag.List, value string) []error {
	if value == "" {
		return nil
	}
	var out []error
	for _, p := range use(value) {
		out = append(out, fmt.Errorf("%s: %s", flag, p.Message))
	}
	return out
}

// settingsFromFile reads the settings of a --config file.
func settingsFromFile(path string) (config.Settings, diag.List, error) {
	if path == "" {
		s, _ := config.Load(nil)
		return s, nil, nil
	}
	root, err := ReadConfig(path)
	if err != nil {
		return config.Settings{}, nil, usage(err)
	}
	return settingsOf(path, root, true)
}

// CheckConfigFile judges a --config file as the settings of a run, as
// validate, plan and explain load theirs: its findings, placed at the
// file, and a *SettingsError (bad usage) when it has errors. render,
// which reads the file as its functionConfig, calls it first so that a
// file with errors stops it as it stops them.
func CheckConfigFile(path string) (diag.List, error) {
	_, found, err := settingsFromFile(path)
	return found, err
}

// settingsOf loads the settings from a functionConfig read from path:
// its findings, placed at path, warnings and notes first, then errors;
// errors refuse the settings, as bad usage when fromFlag.
func settingsOf(path string, root *yaml.Node, fromFlag bool) (config.Settings, diag.List, error) {
	s, problems := config.Load(root)
	var found diag.List
	for _, sev := range []diag.Severity{diag.Warning, diag.Info, diag.Error} {
		for _, p := range problems {
			if p.Severity == sev {
				p.Pos = diag.Position{File: path}
				found = append(found, p)
			}
		}
	}
	if problems.HasErrors() {
		return config.Settings{}, found, &SettingsError{Usage: fromFlag}
	}
	return s, found, nil
}

// SettingsLines are the lines cmd tells about its settings: each finding
// LoadSettings returned (diag.Diagnostic.Line: "file: severity: object
// field: message [ID]"), then each
// reason of its error ("nfd-fn cmd: reason"), none escaped.
func SettingsLines(cmd string, found diag.List, err error) []string {
	lines := make([]string, 0, len(found)+1)
	for _, d := range found {
		lines = append(lines, d.Line())
	}
	var refused *SettingsError
	switch {
	case errors.As(err, &refused):
		for _, r := range refused.Reasons {
			lines = append(lines, fmt.Sprintf("nfd-fn %s: %v", cmd, r))
		}
	case err != nil:
		lines = append(lines, fmt.Sprintf("nfd-fn %s: %v", cmd, err))
	}
	return lines
}

// settingsText is SettingsLines escaped as the command line prints them
// (diag.Escape), one a line: what nfd-fn test reports as a suite's error.
func settingsText(cmd string, found diag.List, err error) string {
	lines := SettingsLines(cmd, found, err)
	for i := range lines {
		lines[i] = diag.Escape(lines[i])
	}
	return strings.Join(lines, "\n")
}
