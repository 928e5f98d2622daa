package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Outputs that fail closed. An output another program acts on (the Nodes
// of --output apply, which kubectl applies under a field manager that
// strips every label they lack; the Nova provider config, which
// nova-compute reads; the JSON of --output labels; any --out FILE, which
// a Job's next step picks up) is written only when the run has no error:
// otherwise stdout stays empty, FILE stays as it was, and one stderr line
// says so. An output a person reads, or that carries its own results (the
// ResourceList on stdout, the labels table), is written with exit 1.

// outputFile is render's --out FILE: the output is written to a temporary
// file beside FILE and renamed into place once complete and free of
// errors, so FILE is either the whole output of a clean run or untouched.
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

// finish renames the output into place when the run wrote one and ended
// with exit 0, and returns the exit code; otherwise it removes the
// temporary file and FILE stays as it was (with one line on stderr when
// the run's errors are why).
func (o *outputFile) finish(code int, stderr io.Writer) int {
	err := o.err
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(o.f.Name(), 0o644)
	}
	if code != 0 || o.written == 0 || err != nil {
		os.Remove(o.f.Name())
		if err != nil && o.err == nil {
			complain(stderr, "nfd-fn render: writing %s: %v", o.path, err)
			return 1
		}
		if code == 1 && o.written > 0 {
			complain(stderr, "nfd-fn render: --out %s left as it was: the run has errors, and --out writes only a clean run's output", o.path)
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

// heldOutput holds an output that fails closed on its way to stdout: it
// is spooled to an unnamed temporary file in TMPDIR (a fleet's Nodes need
// not fit in memory), or held in memory when TMPDIR cannot take it
// (missing, full), and copied to stdout only when the run ends with exit
// 0.
type heldOutput struct {
	f    *os.File     // the spool file; nil when held in memory
	mem  bytes.Buffer // the output, when held in memory
	w    io.Writer    // stdout
	what string       // what is withheld, for the stderr line
	err  error
}

// holdOutput returns stdout held until the run ends (release).
func holdOutput(stdout io.Writer, what string) *heldOutput {
	h := &heldOutput{w: stdout, what: what}
	if f, err := os.CreateTemp("", "nfd-fn-output-*"); err == nil {
		os.Remove(f.Name()) // unnamed: gone when closed, whatever happens
		h.f = f
	}
	return h
}

func (h *heldOutput) Write(p []byte) (int, error) {
	if h.f == nil {
		return h.mem.Write(p)
	}
	n, err := h.f.Write(p)
	if err == nil {
		return n, nil
	}
	// TMPDIR is full: what it holds, and the rest, are held in memory.
	if err := h.toMemory(); err != nil {
		h.err = err
		return n, err
	}
	m, _ := h.mem.Write(p[n:])
	return n + m, nil
}

// toMemory moves what the spool file holds into memory and closes it.
func (h *heldOutput) toMemory() error {
	defer func() { h.f.Close(); h.f = nil }()
	if _, err := h.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("reading back the output held in %s (TMPDIR): %w", os.TempDir(), err)
	}
	if _, err := h.mem.ReadFrom(h.f); err != nil {
		return fmt.Errorf("reading back the output held in %s (TMPDIR): %w", os.TempDir(), err)
	}
	return nil
}

// release copies the held output to stdout when code is 0, or drops it
// with one line on stderr when the run has errors; it returns the exit
// code.
func (h *heldOutput) release(code int, stderr io.Writer) int {
	held := io.Reader(&h.mem)
	if h.f != nil {
		defer h.f.Close()
		if _, err := h.f.Seek(0, io.SeekStart); err != nil && h.err == nil {
			h.err = err
		}
		held = h.f
	}
	switch {
	case h.err != nil:
		complain(stderr, "nfd-fn render: holding the output: %v", h.err)
		return 1
	case code == 1:
		complain(stderr, "nfd-fn render: nothing written to stdout: the run has errors, and %s", h.what)
		return code
	case code != 0:
		return code
	}
	if _, err := io.Copy(h.w, held); err != nil {
		complain(stderr, "nfd-fn: writing stdout: %v", err)
		return 1
	}
	return code
}
