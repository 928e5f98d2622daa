package fn

import (
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
)

// RunFiles runs the function over files and directories instead of a
// ResourceList on stdin, the way kpt runs it over a package: every object
// (directories walked for .yaml, .yml and .json; multi-document YAML, JSON
// and v1 Lists, kubectl's exports, all read) becomes an item annotated
// with its file and index, config (nil for the defaults) is the
// functionConfig, and the output is the ResourceList stdin mode writes.
// Documents that are not objects nfd-fn reads are skipped with an info
// result; errors name file:line:col on ErrorLog. "-" reads stdin.
//
// Block-style YAML and JSON files are mapped and cut into objects without
// a full parse, and stream as stdin does (krm.ReadFiles); other files are
// parsed whole, up to objects.MaxFileSize each.
func RunFiles(paths []string, stdin io.Reader, config *yaml.Node, out io.Writer, opts RunOptions) (int, error) {
	in := inputs.NewStdin(stdin)
	defer in.Close()
	files, opened, err := inputs.Open(paths, in)
	if err != nil {
		return 1, err
	}
	defer opened.Close()
	if allCRLF(files) {
		out = &krm.CRLFWriter{W: out} // CRLF files in, CRLF out
	}
	if opts.Release == nil {
		opts.Release = opened.Release
	}
	if lists, _ := inputs.SplitLists(files, opened.Release); len(lists) > 0 {
		return runListFile(files, lists[0], config, out, opts)
	}
	rl, found, err := inputs.ReadFiles(files, config, opened, opts.Release)
	if err != nil {
		// A file that cannot be read whole (too large to parse whole): a
		// path nfd-fn cannot read, as validate, explain and plan say too.
		return 1, &inputs.ReadError{Err: err}
	}
	r := &report{lines: true, list: found, warnings: true, configFile: opts.ConfigFile}
	r.extend(inputs.Skipped(rl))
	if _, err := process(rl, out, opts, r); err != nil {
		return 1, err
	}
	return r.exitCode(), nil
}

// runListFile runs the function over a ResourceList given as a file
// (list, among files) as it runs over one on stdin: read by the same
// splitter, streamed, written back the same way (JSON as JSON), with the
// same results. The list is rendered alone: its items are the package,
// and its own items' path annotations say where they belong, which
// objects from other files would not share. Its functionConfig, or
// config, configures the run (inputs.ConfigFor).
func runListFile(files []krm.File, list krm.File, config *yaml.Node, out io.Writer, opts RunOptions) (int, error) {
	if len(files) > 1 {
		other := files[0].Name
		if other == list.Name {
			other = files[1].Name
		}
		return 1, &inputs.UsageError{Err: fmt.Errorf("%s is a ResourceList, which nfd-fn reads alone, as it reads stdin (its items are the package): "+
			"run it apart from %s, or add those objects to its items", list.Name, other)}
	}
	rl, err := readList(list.Data, opts)
	if err != nil {
		return 1, fmt.Errorf("reading %s: %w", list.Name, err)
	}
	if rl.FunctionConfig, err = inputs.ConfigFor(config, rl.FunctionConfig, list.Name); err != nil {
		return 1, err
	}
	r, err := process(rl, out, opts, &report{input: list.Name, warnings: true})
	if err != nil {
		return 1, err
	}
	return r.exitCode(), nil
}

// allCRLF reports files whose lines all end with CRLF (krm.UsesCRLF).
func allCRLF(files []krm.File) bool {
	for _, f := range files {
		if !krm.UsesCRLF(f.Data) {
			return false
		}
	}
	return len(files) > 0
}
