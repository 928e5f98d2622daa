package fn

import (
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/labelview"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// ErrInput is the error of an input that cannot be read at all (stdin),
// as opposed to one of the run.
var ErrInput = errors.New("reading stdin")

// RunInput is Run over the ResourceList read from in (stdin), mapped or
// spooled rather than held (krm.OpenInput): the pages of it not needed
// for a while are given back as the run goes (RunOptions.Release).
func RunInput(in io.Reader, out io.Writer, opts RunOptions) (int, error) {
	input, err := krm.OpenInput(in, 0)
	if err != nil {
		return 1, fmt.Errorf("%w: %w", ErrInput, err)
	}
	defer input.Close()
	opts.Release = input.Release
	return Run(input.Data, out, opts)
}

// RunLabels renders the objects in files (RunFiles, config being their
// functionConfig) or, with no paths, the ResourceList read from stdin
// (RunInput), and returns what NFD gives each node, sorted by name,
// instead of writing Nodes (nfd-fn render --output labels).
func RunLabels(paths []string, stdin io.Reader, config *yaml.Node, opts RunOptions) ([]labelview.Node, int, error) {
	var nodes []labelview.Node
	opts.Output = LabelsOutput(&nodes)
	var code int
	var err error
	if len(paths) > 0 {
		code, err = RunFiles(paths, stdin, config, io.Discard, opts)
	} else {
		code, err = RunInput(stdin, io.Discard, opts)
	}
	return nodes, code, err
}

// SetShard sets the shard to render from its text, I/N (nfd-fn render
// --shard).
func (o *RunOptions) SetShard(text string) error {
	s, err := master.ParseShard(text)
	if err != nil {
		return err
	}
	o.Shard = &s
	return nil
}
