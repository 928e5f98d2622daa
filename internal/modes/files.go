package modes

import (
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// Files are the file arguments of a command-line run of validate,
// explain or plan, and the settings it runs with (LoadSettings). "-" is
// stdin, read once however many readers ask for it. Close it when the
// run is done: the sets read through it hold its memory.
type Files struct {
	Paths    []string
	Settings config.Settings
	// configPath is the --config file LoadSettings read ("" for none).
	configPath string
	stdin      *inputs.Stdin
	readers    []*inputs.Reader
}

// OpenFiles returns the files under paths, stdin being "-", to be read
// by internal/inputs.
func OpenFiles(paths []string, stdin io.Reader) *Files {
	return &Files{Paths: paths, stdin: inputs.NewStdin(stdin)}
}

// Close gives back the files and stdin read; nothing read from them may
// be used after.
func (f *Files) Close() {
	for _, r := range f.readers {
		r.Close()
	}
	f.stdin.Close()
}

// reader returns a new reader into set, closed with f.
func (f *Files) reader(set *objects.Set) *inputs.Reader {
	r := inputs.NewReader(set)
	r.Stdin = f.stdin
	f.readers = append(f.readers, r)
	return r
}

// LoadSettings reads the settings of validate, explain and plan into
// f.Settings: from the --config file (configPath), or from the
// functionConfig of a ResourceList among the files ("-" is stdin), never
// from both: nfd-fn would have to pick one silently (inputs.ConfigFor).
// nfdVersion (--nfd-version) overrides the settings' own release. The
// settings' warnings and errors are written to stderr, cmd naming the
// subcommand; it returns the exit code, 2 when the settings are bad.
func (f *Files) LoadSettings(cmd, configPath, nfdVersion string, stderr io.Writer) int {
	list, from, err := inputs.ListConfig(f.Paths, f.stdin)
	if err != nil {
		complain(stderr, "nfd-fn %s: %v", cmd, err)
		return 2
	}
	code := 0
	f.configPath = configPath
	if list == nil {
		f.Settings, code = settingsFromFile(cmd, configPath, stderr)
	} else {
		if configPath != "" {
			given, err := ReadConfig(configPath)
			if err == nil {
				_, err = inputs.ConfigFor(given, list, from)
			}
			if err != nil {
				complain(stderr, "nfd-fn %s: %v", cmd, err)
				return 2
			}
		}
		// The functionConfig of a ResourceList file is input, not usage:
		// its errors exit 1, as render over the same file does.
		f.Settings, code = settingsOf(from, list, 1, stderr)
	}
	if code != 0 {
		return code
	}
	return useRelease(cmd, &f.Settings, nfdVersion, stderr)
}

// UseCRDVersion applies --crd-version (when given) over the settings'
// own crdVersion: objects are admitted with that release's CRDs, whatever
// release is rendered as. It prints why a value is refused and returns
// the exit code.
func (f *Files) UseCRDVersion(cmd, crdVersion string, stderr io.Writer) int {
	if crdVersion == "" {
		return 0
	}
	code := 0
	for _, p := range f.Settings.UseCRDs(crdVersion) {
		complain(stderr, "nfd-fn %s: --crd-version: %s", cmd, p.Message)
		code = 2
	}
	return code
}

// useRelease applies --nfd-version (when given) over the settings' own
// nfdVersion, printing why a value is refused; it returns the exit code.
func useRelease(cmd string, s *config.Settings, nfdVersion string, stderr io.Writer) int {
	if nfdVersion == "" {
		return 0
	}
	code := 0
	for _, p := range s.UseRelease(nfdVersion) {
		complain(stderr, "nfd-fn %s: --nfd-version: %s", cmd, p.Message)
		code = 2
	}
	return code
}

// settingsFromFile reads the settings of a functionConfig file.
func settingsFromFile(cmd, path string, stderr io.Writer) (config.Settings, int) {
	if path == "" {
		s, _ := config.Load(nil)
		return s, 0
	}
	root, err := ReadConfig(path)
	if err != nil {
		complain(stderr, "nfd-fn %s: %v", cmd, err)
		return config.Settings{}, 2
	}
	return settingsOf(path, root, 2, stderr)
}

// settingsOf loads the settings from a functionConfig read from path,
// printing its warnings and errors; errors exit with errCode (2 for a
// --config flag, 1 for the functionConfig of a ResourceList file).
func settingsOf(path string, root *yaml.Node, errCode int, stderr io.Writer) (config.Settings, int) {
	s, problems := config.Load(root)
	// Warnings and notes first, then errors, each in the order met.
	for _, sev := range []diag.Severity{diag.Warning, diag.Info, diag.Error} {
		for _, p := range problems {
			if p.Severity == sev {
				complain(stderr, "%s: %s: %s: %s", path, sev, p.Field, p.Message)
			}
		}
	}
	if problems.HasErrors() {
		return config.Settings{}, errCode
	}
	return s, 0
}

// ReadConfig reads a functionConfig file (nil for path "").
func ReadConfig(path string) (*yaml.Node, error) {
	b, err := readNamed(path)
	if path == "" || err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// readNamed reads the file a flag names (nothing for path "").
func readNamed(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	b, err := objects.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", path, err)
	}
	return b, nil
}

// complain writes one line to w (stderr), escaped with diag.Escape: the
// paths, names and errors in it may come from input nfd-fn did not write.
func complain(w io.Writer, format string, args ...any) {
	fmt.Fprintln(w, diag.Escape(fmt.Sprintf(format, args...)))
}
