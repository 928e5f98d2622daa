package krm

import (
	"bytes"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
)

// Append adds n to the list as a new item, encoded on output, and returns it.
func (rl *ResourceList) Append(n *yaml.Node) *Item {
	it := NewItem(n)
	it.Pos = len(rl.Items)
	rl.Items = append(rl.Items, it)
	return it
}

// Write writes the output list: unchanged items as their original bytes,
// changed and new items encoded, then functionConfig and the input's
// results followed by results.
func (rl *ResourceList) Write(w io.Writer, results []*framework.Result) error {
	all := append(append([]*yaml.Node(nil), rl.Results...), encodeResults(results)...)
	var buf bytes.Buffer
	var err error
	if rl.fast {
		err = rl.writeFast(&buf, all)
	} else {
		err = rl.writeWhole(&buf, all)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// writeFast writes a list read by the fast splitter: its sections in input
// order, items in place of the items section.
func (rl *ResourceList) writeFast(w *bytes.Buffer, all []*yaml.Node) error {
	wroteHeader := map[string]bool{}
	for _, s := range rl.sp.sections {
		switch s.key {
		case "items":
			if err := rl.writeItems(w); err != nil {
				return err
			}
		case "results":
			// Written last, merged with ours.
		case "apiVersion", "kind":
			w.Write(withNewline(s.raw))
			wroteHeader[s.key] = true
		default:
			w.Write(withNewline(s.raw))
		}
	}
	if !wroteHeader["apiVersion"] {
		w.WriteString("apiVersion: " + kio.ResourceListAPIVersion + "\n")
	}
	if !wroteHeader["kind"] {
		w.WriteString("kind: " + kio.ResourceListKind + "\n")
	}
	if !hasSection(rl.sp.sections, "items") {
		if err := rl.writeItems(w); err != nil {
			return err
		}
	}
	if len(all) > 0 {
		return writeKeyValue(w, "results", &yaml.Node{Kind: yaml.SequenceNode, Content: all})
	}
	return nil
}

// writeWhole writes a list that was parsed whole: the input document with
// its items and results replaced, every other top-level key kept in place
// (so a v1beta1 list stays v1beta1), in block YAML, or in JSON when the
// input was JSON.
func (rl *ResourceList) writeWhole(w *bytes.Buffer, results []*yaml.Node) error {
	out := &yaml.Node{Kind: yaml.MappingNode, Content: append([]*yaml.Node(nil), rl.root.Content...)}
	items := &yaml.Node{Kind: yaml.SequenceNode, Content: make([]*yaml.Node, 0, len(rl.Items))}
	for _, it := range rl.Items {
		items.Content = append(items.Content, it.Node)
	}
	SetDefault(out, "apiVersion", StrNode(kio.ResourceListAPIVersion))
	SetDefault(out, "kind", StrNode(kio.ResourceListKind))
	SetField(out, "items", items)
	if len(results) > 0 {
		SetField(out, "results", &yaml.Node{Kind: yaml.SequenceNode, Content: results})
	}
	if rl.json {
		return writeJSON(w, out)
	}
	text, err := Encode(out)
	if err != nil {
		return err
	}
	w.Write(text)
	return nil
}

func hasSection(ss []section, key string) bool {
	for _, s := range ss {
		if s.key == key {
			return true
		}
	}
	return false
}

func (rl *ResourceList) writeItems(w *bytes.Buffer) error {
	if len(rl.Items) == 0 {
		w.WriteString("items: []\n")
		return nil
	}
	w.WriteString("items:\n")
	for _, it := range rl.Items {
		if it.Raw != nil && !it.Changed {
			w.Write(withNewline(it.Raw))
			continue
		}
		if err := writeSeqItem(w, it.Node, rl.sp.indent); err != nil {
			return fmt.Errorf("writing %s %s: %w", it.Kind, it.Name, err)
		}
	}
	return nil
}

func withNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(b[:len(b):len(b)], '\n')
	}
	return b
}

// writeSeqItem encodes n as an element of a block sequence at indent.
func writeSeqItem(w *bytes.Buffer, n *yaml.Node, indent int) error {
	text, err := Encode(n)
	if err != nil {
		return err
	}
	pad := bytes.Repeat([]byte{' '}, indent)
	for i, line := range splitLines(text) {
		w.Write(pad)
		if i == 0 {
			w.WriteString("- ")
		} else if len(bytes.TrimSpace(line)) > 0 {
			w.WriteString("  ")
		}
		w.Write(line)
	}
	return nil
}

func writeKeyValue(w *bytes.Buffer, key string, v *yaml.Node) error {
	m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: key}, v}}
	text, err := Encode(m)
	if err != nil {
		return err
	}
	w.Write(text)
	return nil
}
