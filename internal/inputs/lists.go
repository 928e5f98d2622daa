package inputs

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
)

// A ResourceList given as a file (nfd-fn render rl.yaml, kpt fn source's
// output, nfd-fn's own) is read as what it is, not as one object: its
// items are the objects, its functionConfig the run's configuration.

// listConfig is the functionConfig of the ResourceList files among files,
// and the file it comes from. A list without one gives none; two lists
// whose functionConfigs differ are an error, for no one of them is the
// configuration. release is told of the pages read.
func listConfig(files []krm.File, release func([]byte)) (*yaml.Node, string, error) {
	var fc *yaml.Node
	var from string
	var text []byte
	for _, f := range files {
		c, ok, err := krm.ListHeader(f.Data, release)
		if err != nil || !ok || c == nil {
			continue // a list that cannot be read is reported when it is read
		}
		t, err := krm.Encode(c)
		if err != nil {
			return nil, "", fmt.Errorf("reading %s: %w", f.Name, err)
		}
		if fc != nil && !bytes.Equal(t, text) {
			return nil, "", fmt.Errorf("%s and %s are ResourceLists with different functionConfigs: nfd-fn runs with one; give it with --config and leave it out of the lists", from, f.Name)
		}
		if fc == nil {
			fc, from, text = c, f.Name, t
		}
	}
	return fc, from, nil
}

// ListConfig is the functionConfig of the ResourceLists among the files
// under paths ("-" is stdin), nil when they carry none (or none is a
// ResourceList), and the file it comes from. validate, explain and plan
// run with it when no --config is given (ConfigFor).
func ListConfig(paths []string, stdin *Stdin) (*yaml.Node, string, error) {
	names, err := argFiles(paths)
	if err != nil {
		return nil, "", err
	}
	files, inputs, err := openNamed(names, stdin)
	if err != nil {
		return nil, "", err
	}
	defer inputs.Close()
	return listConfig(files, inputs.Release)
}

// ConfigFor picks the run's functionConfig from a --config file's (given)
// and a ResourceList's (list, from the file from): either one, never
// both, for nfd-fn would have to pick one silently.
func ConfigFor(given, list *yaml.Node, from string) (*yaml.Node, error) {
	switch {
	case given != nil && list != nil:
		return nil, &UsageError{fmt.Errorf("--config and the functionConfig of the ResourceList %s both configure the run: drop --config to use the list's, or remove the list's functionConfig", from)}
	case list != nil:
		return list, nil
	}
	return given, nil
}

// readListFile reads a ResourceList given as a file: its items, cut and
// decoded as stdin's are (krm.Read), named after the file for what is
// reported about them (validate, explain, plan).
func readListFile(f krm.File, keep func(*krm.Item) bool, held *krm.Inputs, release func([]byte)) (*krm.ResourceList, error) {
	opts := readOptions(keep, held, release)
	opts.Name = f.Name
	return krm.Read(f.Data, opts)
}

// SplitLists parts files into the ResourceLists and the other files.
func SplitLists(files []krm.File, release func([]byte)) (lists, others []krm.File) {
	for _, f := range files {
		// A list whose header is over a limit is a list still: reading
		// it says why it cannot be read.
		if _, ok, _ := krm.ListHeader(f.Data, release); ok {
			lists = append(lists, f)
		} else {
			others = append(others, f)
		}
	}
	return lists, others
}
