package modes

import (
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
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
