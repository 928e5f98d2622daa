// Package corpus collects the NFD objects of the project's testdata and
// fuzz corpora, in the forms a client sends them and nfd-fn reads them:
// the admission oracle and the control-plane tests judge the same set.
package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"go.yaml.in/yaml/v3"
)

// GroupVersion is the apiVersion of every NFD object.
const GroupVersion = "nfd.k8s-sigs.io/v1alpha1"

// Kinds are the NFD kinds collected.
var Kinds = map[string]bool{"NodeFeature": true, "NodeFeatureRule": true, "NodeFeatureGroup": true}

// Object is one NFD object of the corpus, in the two forms its judges
// read: the JSON kubectl sends (YAML 1.1 through sigs.k8s.io/yaml, as
// kubectl converts it) and the YAML node nfd-fn reads (go.yaml.in/yaml/v3).
type Object struct {
	Where string // file#document[.items[i]]
	Kind  string
	JSON  []byte
	Node  *yaml.Node
}

// Collect collects the NFD objects of every *.yaml, *.yml and *.json file
// under a testdata folder of root, and of the Go fuzz corpora there
// (testdata/fuzz/*/*, whose []byte or string values are YAML or JSON
// streams). Documents kubectl could not send (no valid YAML, no object)
// are counted in skipped.
func Collect(root string) (objs []Object, skipped int, err error) {
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.Type()&fs.ModeSymlink != 0 {
			return nil // fixtures of host trees link to paths of the host
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.Contains(filepath.ToSlash(rel), "testdata/") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var streams [][]byte
		switch {
		case strings.Contains(filepath.ToSlash(rel), "testdata/fuzz/"):
			streams = fuzzValues(data)
		case strings.HasSuffix(path, ".yaml"), strings.HasSuffix(path, ".yml"), strings.HasSuffix(path, ".json"):
			streams = [][]byte{data}
		}
		for i, stream := range streams {
			where := filepath.ToSlash(rel)
			if len(streams) > 1 {
				where += fmt.Sprintf("[value %d]", i)
			}
			o, s := fromStream(where, stream)
			objs, skipped = append(objs, o...), skipped+s
		}
		return nil
	})
	return objs, skipped, err
}

// fuzzValues reads a "go test fuzz v1" file's []byte and string values.
func fuzzValues(data []byte) [][]byte {
	lines := strings.Split(string(data), "\n")
	if len(lines) == 0 || lines[0] != "go test fuzz v1" {
		return nil
	}
	var out [][]byte
	for _, line := range lines[1:] {
		for _, prefix := range []string{"[]byte(", "string("} {
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				if s, err := strconv.Unquote(strings.TrimSuffix(rest, ")")); err == nil {
					out = append(out, []byte(s))
				}
			}
		}
	}
	return out
}

// fromStream cuts a YAML or JSON stream into documents as kubectl does and
// keeps the NFD objects, those of a List or ResourceList's items too.
func fromStream(where string, data []byte) (objs []Object, skipped int) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for i := 0; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return objs, skipped
		}
		if err != nil {
			return objs, skipped + 1
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		o, s := fromDocument(fmt.Sprintf("%s#%d", where, i), doc)
		objs, skipped = append(objs, o...), skipped+s
	}
}

func fromDocument(where string, doc []byte) (objs []Object, skipped int) {
	js, err := sigsyaml.YAMLToJSON(doc)
	if err != nil {
		return nil, 1
	}
	var node yaml.Node
	if err := yaml.Unmarshal(doc, &node); err != nil || len(node.Content) == 0 {
		return nil, 1
	}
	return fromValue(where, js, node.Content[0])
}

// fromValue keeps one value if it is an NFD object, or the NFD objects of
// its items if it is a list.
func fromValue(where string, js []byte, node *yaml.Node) (objs []Object, skipped int) {
	var head struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Items      []json.RawMessage `json:"items"`
	}
	if json.Unmarshal(js, &head) != nil {
		return nil, 0
	}
	if head.APIVersion == GroupVersion && Kinds[head.Kind] {
		return []Object{{Where: where, Kind: head.Kind, JSON: js, Node: node}}, 0
	}
	items := valueOf(node, "items")
	if len(head.Items) == 0 || items == nil || items.Kind != yaml.SequenceNode || len(items.Content) != len(head.Items) {
		return nil, 0
	}
	for i, item := range head.Items {
		o, s := fromValue(fmt.Sprintf("%s.items[%d]", where, i), item, items.Content[i])
		objs, skipped = append(objs, o...), skipped+s
	}
	return objs, skipped
}

func valueOf(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
