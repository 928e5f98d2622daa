package cli

import (
	"errors"
	"io"

	"github.com/nfd-fn/nfd-fn/fn"
	"github.com/nfd-fn/nfd-fn/internal/modes"
)

// runLabels renders the objects in files and directories, or the
// ResourceList on stdin without them, and writes what NFD gives each node
// instead of the Nodes, in the --output form format: a table a person
// reads (written beside the run's errors) or JSON a script reads (which
// fails closed: modes.LabelOutputs), write.
func runLabels(paths []string, config string, write modes.LabelsWriter, opts fn.RunOptions, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(paths) == 0 && config != "" {
		complain(stderr, "nfd-fn render: --config needs FILE or DIR arguments (on stdin, the ResourceList carries its functionConfig)")
		return 2
	}
	fc, err := modes.ReadConfig(config)
	if err != nil {
		complain(stderr, "nfd-fn render: %v", err)
		return 2
	}
	opts.ErrorLog, opts.Summary, opts.Progress = stderr, stderr, terminal(stderr)
	nodes, code, err := fn.RunLabels(paths, stdin, fc, opts)
	switch {
	case errors.Is(err, fn.ErrInput):
		complain(stderr, "nfd-fn: %v", err)
		return 1
	case errors.As(err, new(*modes.ReadError)):
		complain(stderr, "nfd-fn render: %v", err)
		return 2
	case err != nil:
		complain(stderr, "nfd-fn render: %v", err)
		return 1
	}
	if err := write(stdout, nodes); err != nil {
		complain(stderr, "nfd-fn: writing %s: %v", outputName(stdout), err)
		return 1
	}
	return code
}
