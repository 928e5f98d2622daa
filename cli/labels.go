package cli

import (
	"io"

	"github.com/nfd-fn/nfd-fn/fn"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/labelview"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// labelWriters are render's --output labels forms: a table a person reads
// (written beside the run's errors) and JSON a script reads (which fails
// closed: render.go's failsClosed).
var labelWriters = map[string]func(io.Writer, []labelview.Node) error{
	"labels":      labelview.WriteText,
	"labels-json": labelview.WriteJSON,
}

// runLabels renders the objects in files and directories, or the
// ResourceList on stdin without them, and writes what NFD gives each node
// instead of the Nodes.
func runLabels(paths []string, config string, write func(io.Writer, []labelview.Node) error, shard *master.Shard, nfdVersion string, stdin io.Reader, stdout, stderr io.Writer) int {
	var nodes []labelview.Node
	opts := fn.RunOptions{Discover: hostDiscover, ErrorLog: stderr, Summary: stderr, Progress: terminal(stderr), Shard: shard, Labels: &nodes, NFDVersion: nfdVersion}
	var code int
	var err error
	if len(paths) > 0 {
		fc, cerr := modes.ReadConfig(config)
		if cerr != nil {
			complain(stderr, "nfd-fn render: %v", cerr)
			return 2
		}
		code, err = fn.RunFiles(paths, stdin, fc, io.Discard, opts)
	} else {
		if config != "" {
			complain(stderr, "nfd-fn render: --config needs FILE or DIR arguments (on stdin, the ResourceList carries its functionConfig)")
			return 2
		}
		input, rerr := krm.OpenInput(stdin, 0)
		if rerr != nil {
			complain(stderr, "nfd-fn: reading stdin: %v", rerr)
			return 1
		}
		defer input.Close()
		opts.Release = input.Release
		code, err = fn.Run(input.Data, io.Discard, opts)
	}
	if err != nil {
		complain(stderr, "nfd-fn render: %v", err)
		return 1
	}
	if err := write(stdout, nodes); err != nil {
		complain(stderr, "nfd-fn: writing stdout: %v", err)
		return 1
	}
	return code
}
