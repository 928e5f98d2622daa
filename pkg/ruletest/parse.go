package ruletest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Mentions reports whether a file's text may hold a RuleTest, so that
// files that cannot are not parsed.
func Mentions(data []byte) bool {
	return bytes.Contains(data, []byte(Kind))
}

// Parse reads the RuleTests among a file's YAML documents (other
// documents are left alone). A malformed RuleTest is an error naming the
// file, the line and the field.
func Parse(data []byte, file string) ([]*Suite, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []*Suite
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if len(doc.Content) == 0 {
			continue
		}
		root := ys.Resolve(doc.Content[0])
		if err := ys.CheckTree(root, ys.MaxDepth, ys.MaxAliasNodes); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if ys.Scalar(root, "kind") != Kind {
			continue
		}
		s, err := ParseNode(root, file)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
}

// ParseNode reads one RuleTest document, already parsed (a ResourceList's
// item under kpt); file names it in errors.
func ParseNode(root *yaml.Node, file string) (*Suite, error) {
	p := &parser{file: file}
	s := p.suite(ys.Resolve(root))
	return s, p.err
}

// parser reads one RuleTest document, keeping the first error.
type parser struct {
	file string
	err  error
}

func (p *parser) fail(n *yaml.Node, field, format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("%s:%d: %s: %s", p.file, n.Line, field, fmt.Sprintf(format, args...))
	}
}

// fields checks that n is a mapping with only the keys allowed and calls
// each with the key's value.
func (p *parser) fields(n *yaml.Node, field string, each map[string]func(v *yaml.Node, field string)) {
	if n.Kind != yaml.MappingNode {
		p.fail(n, field, "want a mapping, got %s", ys.Describe(n))
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], ys.Resolve(n.Content[i+1])
		f, ok := each[k.Value]
		if !ok {
			p.fail(k, ys.Join(field, k.Value), "unknown field (want %s)", strings.Join(slices.Sorted(maps.Keys(each)), ", "))
			continue
		}
		if f != nil && !ys.IsNull(v) {
			f(v, ys.Join(field, k.Value))
		}
	}
}

func (p *parser) scalar(n *yaml.Node, field string, into *string) {
	if n.Kind != yaml.ScalarNode {
		p.fail(n, field, "want a string, got %s", ys.Describe(n))
		return
	}
	*into = n.Value
}

// list calls each with every element of the sequence n.
func (p *parser) list(n *yaml.Node, field string, each func(v *yaml.Node, field string)) {
	if n.Kind != yaml.SequenceNode {
		p.fail(n, field, "want a list, got %s", ys.Describe(n))
		return
	}
	for i, c := range n.Content {
		each(ys.Resolve(c), fmt.Sprintf("%s[%d]", field, i))
	}
}

// entries reads a mapping of strings, each with its line.
func (p *parser) entries(n *yaml.Node, field string, into *[]Entry) {
	if n.Kind != yaml.MappingNode {
		p.fail(n, field, "want a mapping of strings, got %s", ys.Describe(n))
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], ys.Resolve(n.Content[i+1])
		if v.Kind != yaml.ScalarNode {
			p.fail(v, ys.JoinKey(field, k.Value), "want a string, got %s", ys.Describe(v))
			continue
		}
		*into = append(*into, Entry{Key: k.Value, Value: v.Value, Line: k.Line, Field: ys.JoinKey(field, k.Value)})
	}
}

// keys reads a list of strings, each with its line.
func (p *parser) keys(n *yaml.Node, field string, into *[]Entry) {
	p.list(n, field, func(v *yaml.Node, f string) {
		var s string
		p.scalar(v, f, &s)
		*into = append(*into, Entry{Key: s, Line: v.Line, Field: f})
	})
}

func (p *parser) suite(root *yaml.Node) *Suite {
	s := &Suite{File: p.file, Line: root.Line}
	p.fields(root, "", map[string]func(*yaml.Node, string){
		"apiVersion": func(v *yaml.Node, f string) {
			if v.Value != APIVersion {
				p.fail(v, f, "want %s, got %q", APIVersion, v.Value)
			}
		},
		"kind": nil,
		"metadata": func(v *yaml.Node, f string) {
			p.fields(v, f, map[string]func(*yaml.Node, string){
				"name":        func(v *yaml.Node, f string) { p.scalar(v, f, &s.Name) },
				"labels":      nil,
				"annotations": nil,
			})
		},
		"spec": func(v *yaml.Node, f string) { p.spec(v, f, s) },
	})
	if s.Name == "" && p.err == nil {
		p.fail(root, "metadata.name", "a RuleTest needs a name")
	}
	return s
}

func (p *parser) spec(n *yaml.Node, field string, s *Suite) {
	p.fields(n, field, map[string]func(*yaml.Node, string){
		"nfdVersion": func(v *yaml.Node, f string) { p.scalar(v, f, &s.NFDVersion) },
		"config": func(v *yaml.Node, f string) {
			p.scalar(v, f, &s.Config)
			s.ConfigAt = Entry{Key: s.Config, Line: v.Line, Field: f}
		},
		"workerConfig": func(v *yaml.Node, f string) {
			p.scalar(v, f, &s.WorkerConfig)
			s.WorkerConfigAt = Entry{Key: s.WorkerConfig, Line: v.Line, Field: f}
		},
		"inputs": func(v *yaml.Node, f string) {
			s.InputsLine, s.InputsField = v.Line, f
			p.keys(v, f, &s.InputsAt)
			for _, e := range s.InputsAt {
				s.Inputs = append(s.Inputs, e.Key)
			}
		},
		"expect": func(v *yaml.Node, f string) { p.expect(v, f, s) },
	})
	if len(s.Inputs) == 0 && p.err == nil {
		p.fail(n, ys.Join(field, "inputs"), "a RuleTest needs inputs: the files or directories with its rules and nodes")
	}
}

func (p *parser) expect(n *yaml.Node, field string, s *Suite) {
	p.fields(n, field, map[string]func(*yaml.Node, string){
		"nodes": func(v *yaml.Node, f string) {
			p.list(v, f, func(v *yaml.Node, f string) { s.Nodes = append(s.Nodes, p.node(v, f)) })
		},
		"groups": func(v *yaml.Node, f string) {
			p.list(v, f, func(v *yaml.Node, f string) { s.Groups = append(s.Groups, p.group(v, f)) })
		},
		"findings": func(v *yaml.Node, f string) {
			p.list(v, f, func(v *yaml.Node, f string) {
				e := p.finding(v, f)
				s.Only = s.Only || e.Only
				s.Findings = append(s.Findings, e)
			})
		},
		"snapshot": func(v *yaml.Node, f string) { p.scalar(v, f, &s.Snapshot); s.SnapshotLine, s.SnapshotField = v.Line, f },
	})
}

func (p *parser) node(n *yaml.Node, field string) NodeExpect {
	e := NodeExpect{Line: n.Line, Field: field}
	p.fields(n, field, map[string]func(*yaml.Node, string){
		"node":              func(v *yaml.Node, f string) { p.scalar(v, f, &e.Node) },
		"labels":            func(v *yaml.Node, f string) { p.entries(v, f, &e.Labels) },
		"absentLabels":      func(v *yaml.Node, f string) { p.keys(v, f, &e.AbsentLabels) },
		"annotations":       func(v *yaml.Node, f string) { p.entries(v, f, &e.Annotations) },
		"extendedResources": func(v *yaml.Node, f string) { p.entries(v, f, &e.ExtendedResources) },
		"taints": func(v *yaml.Node, f string) {
			p.list(v, f, func(v *yaml.Node, f string) {
				t := TaintExpect{Line: v.Line, Field: f}
				p.fields(v, f, map[string]func(*yaml.Node, string){
					"key":    func(v *yaml.Node, f string) { p.scalar(v, f, &t.Key) },
					"value":  func(v *yaml.Node, f string) { p.scalar(v, f, &t.Value) },
					"effect": func(v *yaml.Node, f string) { p.scalar(v, f, &t.Effect) },
				})
				e.Taints = append(e.Taints, t)
			})
		},
	})
	if e.Node == "" && p.err == nil {
		p.fail(n, ys.Join(field, "node"), "each node expectation names its node")
	}
	return e
}

func (p *parser) group(n *yaml.Node, field string) GroupExpect {
	g := GroupExpect{Line: n.Line, Field: field}
	p.fields(n, field, map[string]func(*yaml.Node, string){
		"group": func(v *yaml.Node, f string) { p.scalar(v, f, &g.Group) },
		"members": func(v *yaml.Node, f string) {
			g.Members = []string{}
			var es []Entry
			p.keys(v, f, &es)
			for _, e := range es {
				g.Members = append(g.Members, e.Key)
			}
		},
	})
	if g.Group == "" && p.err == nil {
		p.fail(n, ys.Join(field, "group"), "each group expectation names its group (namespace/name)")
	}
	if g.Members == nil && p.err == nil {
		p.fail(n, ys.Join(field, "members"), "each group expectation lists its exact members ([] for none)")
	}
	return g
}

func (p *parser) finding(n *yaml.Node, field string) FindingExpect {
	e := FindingExpect{Line: n.Line, Field: field}
	p.fields(n, field, map[string]func(*yaml.Node, string){
		"check":    func(v *yaml.Node, f string) { p.scalar(v, f, &e.Check) },
		"object":   func(v *yaml.Node, f string) { p.scalar(v, f, &e.Object) },
		"severity": func(v *yaml.Node, f string) { p.scalar(v, f, &e.Severity) },
		"message":  func(v *yaml.Node, f string) { p.scalar(v, f, &e.Message) },
		"only": func(v *yaml.Node, f string) {
			if v.Kind != yaml.ScalarNode || (v.Value != "true" && v.Value != "false") {
				p.fail(v, f, "want true or false, got %s", ys.Describe(v))
				return
			}
			e.Only = v.Value == "true"
		},
	})
	if e.Check == "" && p.err == nil {
		p.fail(n, ys.Join(field, "check"), "each finding names its check (an ID such as NFD027, or a name)")
	}
	return e
}
