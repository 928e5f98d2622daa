package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// outputFile is render's --out FILE: the output is written to a temporary
// file beside FILE and renamed into place once complete, so FILE is
// either the whole output or untouched, never half written.
type outputFile struct {
	f       *os.File
	path    string
	written int64
	err     error
}

func createOutput(path string) (*outputFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, err
	}
	return &outputFile{f: f, path: path}, nil
}

func (o *outputFile) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	o.written += int64(n)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

// finish renames the output into place when the run wrote one (exit 0, or
// 1 with error results in a complete output) and returns the exit code;
// otherwise it removes the temporary file and FILE stays as it was.
func (o *outputFile) finish(code int, stderr io.Writer) int {
	err := o.err
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(o.f.Name(), 0o644)
	}
	if code > 1 || o.written == 0 || err != nil {
		os.Remove(o.f.Name())
		if err != nil && o.err == nil {
			complain(stderr, "nfd-fn render: writing %s: %v", o.path, err)
			return 1
		}
		return code
	}
	if err := os.Rename(o.f.Name(), o.path); err != nil {
		os.Remove(o.f.Name())
		complain(stderr, "nfd-fn render: %v", fmt.Errorf("writing %s: %w", o.path, err))
		return 1
	}
	return code
}
