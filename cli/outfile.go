package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
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
// file beside FILE (beside the file a symlink FILE leads to, which is
// written through) and renamed into place once complete and free of
// errors, so FILE is either the whole output of a clean run or untouched.
// FILE keeps its mode (a new one is 0644); a SIGTERM or SIGINT before the
// rename removes the temporary file.
type outputFile struct {
	f       *os.File
	path    string // FILE as given
	target  string // the file written: FILE, or where its symlinks lead
	mode    os.FileMode
	written int64
	err     error
	stop    func() // ends the removal on a signal
}

func createOutput(path string) (*outputFile, error) {
	target, err := followLinks(path)
	if err != nil {
		return nil, err
	}
	mode := os.FileMode(0o644)
	if info, err := os.Stat(target); err == nil {
		if !info.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", path)
		}
		mode = info.Mode().Perm()
	}
	// Signals are caught from before the temporary file exists.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, os.Interrupt)
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*")
	if err != nil {
		signal.Stop(signals)
		return nil, err
	}
	return &outputFile{f: f, path: path, target: target, mode: mode, stop: removeOnSignal(signals, f.Name())}, nil
}

// maxLinks is how many symlinks followLinks follows, as the kernel does.
const maxLinks = 40

// followLinks returns the file path leads to through its symlinks (path
// itself when it is not one, or does not exist).
func followLinks(path string) (string, error) {
	for range maxLinks {
		info, err := os.Lstat(path)
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("%s: more than %d symlinks (a loop?)", path, maxLinks)
}

// removeOnSignal removes the file name when a signal comes on signals
// (SIGTERM or SIGINT, signal.Notify), and then ends the process by that
// signal, until stop is called.
func removeOnSignal(signals chan os.Signal, name string) (stop func()) {
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			os.Remove(name)
			signal.Reset(sig)
			if p, err := os.FindProcess(os.Getpid()); err != nil || p.Signal(sig) != nil {
				os.Exit(1)
			}
		case <-done:
		}
	}()
	return func() {
		signal.Stop(signals)
		close(done)
	}
}

func (o *outputFile) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	o.written += int64(n)
	if err != nil {
		// Named after FILE, not the temporary file nobody asked for.
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		if o.err == nil {
			o.err = err
		}
	}
	return n, err
}

// outputName names where w writes: the --out FILE, or stdout.
func outputName(w io.Writer) string {
	if o, ok := w.(*outputFile); ok {
		return o.path
	}
	return "stdout"
}

// finish renames the output into place when the run wrote one and ended
// with exit 0, and returns the exit code; otherwise it removes the
// temporary file and FILE stays as it was (with one line on stderr saying
// why: writing it failed, or the run has errors).
func (o *outputFile) finish(code int, stderr io.Writer) int {
	o.stop()
	err := o.err
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(o.f.Name(), o.mode)
	}
	if code != 0 || o.written == 0 || err != nil {
		os.Remove(o.f.Name())
		if err != nil {
			complain(stderr, "nfd-fn render: --out %s left as it was: writing it failed: %v", o.path, err)
			return 1
		}
		if code == 1 && o.written > 0 {
			complain(stderr, "nfd-fn render: --out %s left as it was: the run has errors, and --out writes only a clean run's output", o.path)
		}
		return code
	}
	if err := os.Rename(o.f.Name(), o.target); err != nil {
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
