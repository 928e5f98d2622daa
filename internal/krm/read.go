package krm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio"
)

// ResourceList is a parsed ResourceList (or kubectl v1 List).
type ResourceList struct {
	// Items are the list's items in order; Append adds new ones.
	Items []*Item
	// FunctionConfig is the functionConfig, or nil when absent or null.
	FunctionConfig *yaml.Node
	// Results are the results already in the input; Write keeps them
	// before the new ones.
	Results []*yaml.Node
	// APIVersion and Kind are the list's own header.
	APIVersion, Kind string

	// sp is the fast splitter's layout; fast says it is used.
	sp   split
	fast bool
	// root is the whole parsed document (slow path), written back with
	// its items and results replaced; json marks input that was JSON, so
	// that the output is JSON too, as the KRM function spec asks.
	root *yaml.Node
	json bool
}

// ReadOptions adjust Read.
type ReadOptions struct {
	// Decode, when set, is called once for every item that parsed, in
	// parallel, to set Item.Decoded.
	Decode func(*Item)
	// Keep, when set, says which items keep their Node after Decode; the
	// others drop it to hold memory flat (Item.Tree parses it again).
	// Without Keep every Node is kept.
	Keep func(*Item) bool
}

// Read parses a ResourceList. Block-style lists are cut into items by the
// fast splitter and each item is parsed on its own, in parallel; anything
// else is parsed whole.
func Read(data []byte, opts ReadOptions) (*ResourceList, error) {
	var rl *ResourceList
	if sp, ok := splitDocument(data); ok {
		var err error
		if rl, err = readFast(sp, opts); err != nil {
			return nil, err
		}
	} else {
		var err error
		if rl, err = readWhole(data, opts); err != nil {
			return nil, err
		}
	}
	return rl, rl.checkHeader()
}

// readFast parses the sections and items the splitter found.
func readFast(sp split, opts ReadOptions) (*ResourceList, error) {
	rl := &ResourceList{sp: sp, fast: true}
	rl.Items = make([]*Item, len(sp.items))
	for i, c := range sp.items {
		rl.Items[i] = &Item{Raw: c.raw, Pos: i, Line: c.line, indent: sp.indent}
	}
	Parallel(len(rl.Items), func(i int) {
		it := rl.Items[i]
		var doc yaml.Node
		if err := yaml.Unmarshal(itemBody(it.Raw, it.indent), &doc); err != nil {
			it.ParseErr = err
			return
		}
		it.SetNode(DocContent(&doc))
		opts.decode(it)
	})
	for _, s := range sp.sections {
		if err := rl.readSection(s); err != nil {
			return nil, err
		}
	}
	return rl, nil
}

// decode runs the Decode hook and drops the tree unless Keep keeps it.
func (o ReadOptions) decode(it *Item) {
	if o.Decode != nil {
		o.Decode(it)
	}
	if o.Keep != nil && !o.Keep(it) {
		it.Node = nil
	}
}

// checkHeader refuses input that is not a list of items: a single object
// piped in by mistake would otherwise come back with an empty item list.
func (rl *ResourceList) checkHeader() error {
	switch {
	case rl.Kind == kio.ResourceListKind && strings.HasPrefix(rl.APIVersion, "config.kubernetes.io/"):
		return nil
	case rl.Kind == "List" && rl.APIVersion == "v1":
		return nil
	case rl.Kind == "" && rl.APIVersion == "":
		return errors.New("input has no apiVersion and kind: nfd-fn reads a config.kubernetes.io/v1 ResourceList on stdin")
	}
	return fmt.Errorf("input is a %s %s, not a ResourceList: nfd-fn reads a config.kubernetes.io/v1 ResourceList on stdin (to check plain files, run nfd-fn validate FILE...)",
		rl.APIVersion, rl.Kind)
}

// readSection parses a top-level section other than items. Every one is
// parsed, small as they are, so that a broken header is an error rather
// than echoed; only functionConfig and results are kept.
func (rl *ResourceList) readSection(s section) error {
	if s.key == "items" {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(s.raw, &doc); err != nil {
		return fmt.Errorf("parsing the ResourceList's %s: %w", s.key, err)
	}
	m := DocContent(&doc)
	if m != nil && len(m.Content) >= 2 && m.Content[1].Kind == yaml.ScalarNode {
		switch s.key {
		case "apiVersion":
			rl.APIVersion = m.Content[1].Value
		case "kind":
			rl.Kind = m.Content[1].Value
		}
	}
	if m == nil || len(m.Content) < 2 || (s.key != "functionConfig" && s.key != "results") {
		return nil
	}
	v := m.Content[1]
	if s.key == "functionConfig" {
		rl.FunctionConfig = v
	} else if v.Kind == yaml.SequenceNode {
		rl.Results = v.Content
	}
	return nil
}

// readWhole parses any ResourceList that the fast path does not handle:
// flow style, JSON, a list under another apiVersion or kind (v1beta1, a
// v1 List). It refuses a stream of several documents rather than drop all
// but the first.
func readWhole(data []byte, opts ReadOptions) (*ResourceList, error) {
	root, err := parseOneDocument(data)
	if err != nil {
		return nil, err
	}
	rl := &ResourceList{root: root, json: isJSON(data)}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i].Value, root.Content[i+1]
		switch k {
		case "apiVersion":
			rl.APIVersion = v.Value
		case "kind":
			rl.Kind = v.Value
		case "items":
			if v.Kind != yaml.SequenceNode && !IsNull(v) {
				return nil, fmt.Errorf("ResourceList.items must be a list, got %s", kindName(v))
			}
			for pos, n := range v.Content {
				it := &Item{Pos: pos, Line: n.Line}
				it.SetNode(n)
				rl.Items = append(rl.Items, it)
			}
		case "functionConfig":
			if !IsNull(v) {
				rl.FunctionConfig = v
			}
		case "results":
			if v.Kind == yaml.SequenceNode {
				rl.Results = v.Content
			}
		}
	}
	Parallel(len(rl.Items), func(i int) {
		if opts.Decode != nil {
			opts.Decode(rl.Items[i])
		}
	})
	return rl, nil
}

// parseOneDocument parses data as exactly one YAML (or JSON) document
// holding a mapping.
func parseOneDocument(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, errors.New("the input is empty: expected a ResourceList")
		}
		return nil, fmt.Errorf("parsing the ResourceList: %w", err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == io.EOF:
	case err != nil:
		return nil, fmt.Errorf("parsing the ResourceList: %w", err)
	case DocContent(&next) != nil && !IsNull(DocContent(&next)):
		return nil, fmt.Errorf("the input holds more than one YAML document (a second one starts at line %d): nfd-fn reads one ResourceList", next.Line)
	}
	root := DocContent(&doc)
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, errors.New("the input is not a ResourceList: expected a YAML mapping with items")
	}
	return root, nil
}

// isJSON reports whether the input is a JSON document (an object).
func isJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(data)
}
