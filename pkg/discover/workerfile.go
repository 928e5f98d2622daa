package discover

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	nfdrelease "github.com/nfd-fn/nfd-fn/pkg/release"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// WorkerConfigKey is the ConfigMap data key nfd-worker reads its
// configuration from: NFD's Helm chart (<release>-worker-conf) and its
// kustomize deployment (nfd-worker-conf) both mount it.
const WorkerConfigKey = "nfd-worker.conf"

// WorkerConfigFile is an nfd-worker configuration as a file holds it: the
// configuration itself (nfd-worker.conf), a ConfigMap holding it under
// data["nfd-worker.conf"], or Helm values holding it under worker.config.
// discover --config and validate --worker-config read it the same way
// (FindWorkerConfig), and CheckWorkerConfig finds the same problems for
// both, at the lines of the file.
type WorkerConfigFile struct {
	// Text is the configuration's own text: what nfd-worker reads.
	Text []byte
	// In says where the file holds the configuration: "" (the file is
	// the configuration), `data["nfd-worker.conf"]` or worker.config.
	In string
	// root is the configuration's parsed root (nil: empty, or text
	// yaml.v3 does not parse, which only nfd-worker's reader judges).
	root *yaml.Node
	// line and column are added to root's positions: where the text
	// starts in the file (a ConfigMap's block scalar).
	line, column int
}

// FindWorkerConfig reads data as a file holding an nfd-worker
// configuration in one of its three forms. An empty file is the empty
// configuration (nfd-worker's defaults). A ConfigMap without
// data["nfd-worker.conf"], or a document none of whose keys is a
// configuration's (core, sources, or close to one), is not an nfd-worker
// configuration: an error that quotes nothing of the file.
func FindWorkerConfig(data []byte) (*WorkerConfigFile, error) {
	var doc yaml.Node
	err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc)
	if errors.Is(err, io.EOF) {
		return &WorkerConfigFile{Text: data}, nil
	}
	if err != nil {
		// nfd-worker's YAML 1.1 reader may still read it (a key given
		// twice): CheckWorkerConfig says what it makes of it.
		return &WorkerConfigFile{Text: data}, nil
	}
	root := ys.Resolve(&doc)
	if ys.Scalar(root, "kind") == "ConfigMap" || ys.Value(ys.Mapping(root, "data"), WorkerConfigKey) != nil {
		conf := ys.Value(ys.Mapping(root, "data"), WorkerConfigKey)
		if conf == nil || conf.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("a ConfigMap without a string data[%q]: not an nfd-worker configuration", WorkerConfigKey)
		}
		return EmbeddedWorkerConfig(conf.Value, conf.Line, blockIndent(data, conf.Line), fmt.Sprintf("data[%q]", WorkerConfigKey))
	}
	if values := lookupMapping(lookupMapping(root, "worker"), "config"); values != nil {
		text, err := yaml.Marshal(values)
		if err != nil {
			return nil, fmt.Errorf("worker.config: %w", err)
		}
		return &WorkerConfigFile{Text: text, In: "worker.config", root: values}, nil
	}
	f := &WorkerConfigFile{Text: data, root: root}
	return f, f.isConfig()
}

// EmbeddedWorkerConfig reads a configuration held as a string in a file
// (a ConfigMap's data["nfd-worker.conf"], in is that field), whose
// block scalar starts after line and is indented by indent columns.
func EmbeddedWorkerConfig(text string, line, indent int, in string) (*WorkerConfigFile, error) {
	f := &WorkerConfigFile{Text: []byte(text), In: in, line: line, column: indent}
	var doc yaml.Node
	if err := yaml.NewDecoder(strings.NewReader(text)).Decode(&doc); err == nil {
		f.root = ys.Resolve(&doc)
	}
	if err := f.isConfig(); err != nil {
		return nil, fmt.Errorf("%s: %w", in, err)
	}
	return f, nil
}

// isConfig refuses a root that cannot be an nfd-worker configuration: not
// a mapping, or a mapping of keys a configuration does not have (the
// wrong file: /etc/shadow), whose keys are not repeated.
func (f *WorkerConfigFile) isConfig() error {
	switch {
	case f.root == nil || ys.IsNull(f.root):
		return nil
	case f.root.Kind == yaml.SequenceNode:
		return errors.New("not an nfd-worker configuration: a list, not a mapping with core and sources")
	case f.root.Kind != yaml.MappingNode:
		return errors.New("not an nfd-worker configuration: a scalar, not a mapping with core and sources")
	}
	if n, foreign := foreignKeys(f.root, releases()[nfdrelease.LatestWorker.Minor]); foreign {
		return fmt.Errorf("not an nfd-worker configuration: none of its %d top-level keys is core or sources, "+
			"so nfd-worker would ignore all of it (the keys are not shown)", n)
	}
	return nil
}

// lookupMapping finds key in mapping m case-insensitively, as
// encoding/json matches fields: its value when it is a mapping.
func lookupMapping(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if v := ys.Resolve(m.Content[i+1]); strings.EqualFold(m.Content[i].Value, key) && v.Kind == yaml.MappingNode {
			return v
		}
	}
	return nil
}

// blockIndent is the indentation of the first non-blank line after line
// (1-based) of data: where a block scalar's text starts.
func blockIndent(data []byte, line int) int {
	lines := strings.Split(string(data), "\n")
	for i := line; i < len(lines); i++ {
		if t := strings.TrimLeft(lines[i], " "); t != "" {
			return len(lines[i]) - len(t)
		}
	}
	return 0
}
