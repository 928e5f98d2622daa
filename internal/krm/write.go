package krm

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
)

// Append adds n to the list as a new item, encoded on output, and returns it.
func (rl *ResourceList) Append(n *yaml.Node) *Item {
	it := NewItem(n)
	it.Pos = len(rl.Items)
	rl.Items = append(rl.Items, it)
	return it
}

// WriteThen writes the output list: unchanged items as their original
// bytes, changed and new items encoded, items with ParseErr left out, then
// the input's results followed by those that results makes once every item,
// the tail (SetTail) included, has been made (a streamed render learns
// its results from the nodes it writes). It streams: each item and result
// is encoded on its own, so the cost is linear in their number. A list
// read from JSON is written as JSON. Block YAML read by the fast
// splitter is written as the tail is made; other lists make the whole
// tail first.
func (rl *ResourceList) WriteThen(w io.Writer, results func() []*sdk.Result) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	var err error
	if !rl.fast {
		if err := rl.materializeTail(); err != nil {
			return err
		}
	}
	switch {
	case rl.json && rl.fast:
		err = rl.writeJSONStream(bw, results)
	case rl.json:
		err = rl.writeJSON(bw, results())
	case rl.fast:
		err = rl.writeFast(bw, results)
	default:
		err = rl.writeWhole(bw, results())
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// SetTail gives the list items that follow Items and are made only as the
// list is written: tail calls yield with each in turn, and each is written
// and let go before the next is made, so that thousands of rendered Nodes
// are never held at once. With each tree n, text may give its output text
// already encoded (EncodeItem of n with no original text, made on a worker
// goroutine, say); a list that streams writes it as it is, others encode
// n. tail returns yield's error, if any.
func (rl *ResourceList) SetTail(tail func(yield func(n *yaml.Node, text []byte) error) error) {
	rl.tail = tail
}

// materializeTail makes the tail's items and appends them to Items, for
// the writers that need every item at once.
func (rl *ResourceList) materializeTail() error {
	tail := rl.tail
	if tail == nil {
		return nil
	}
	rl.tail = nil
	return tail(func(n *yaml.Node, _ []byte) error { rl.Append(n); return nil })
}

// writeFast writes a list read by the fast splitter: its sections in input
// order, items in place of the items section, results last.
func (rl *ResourceList) writeFast(w *bufio.Writer, results func() []*sdk.Result) error {
	wroteHeader := map[string]bool{}
	for _, s := range rl.sp.sections {
		switch s.key {
		case "items":
			if err := rl.writeItems(w); err != nil {
				return err
			}
		case "results":
			// Written last, merged with ours.
		default:
			w.Write(withNewline(s.raw))
			wroteHeader[s.key] = true
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
	return rl.writeResults(w, results())
}

// writeWhole writes a list that was parsed whole, in block YAML: the input
// document with its items and results replaced and every other top-level
// key kept in place (so a v1beta1 list stays v1beta1). Each top-level key,
// item and result is encoded on its own.
func (rl *ResourceList) writeWhole(w *bufio.Writer, results []*sdk.Result) error {
	items, res := &yaml.Node{Kind: yaml.SequenceNode}, &yaml.Node{Kind: yaml.SequenceNode}
	out := rl.wholeTop(items, res, len(rl.Results)+len(results) > 0)
	for i := 0; i+1 < len(out.Content); i += 2 {
		var err error
		switch out.Content[i+1] {
		case items:
			err = rl.writeItems(w)
		case res:
			err = rl.writeResults(w, results)
		default:
			err = writeEncoded(w, mapping(out.Content[i], out.Content[i+1]))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// wholeTop is the top-level mapping of a list parsed whole, with the given
// placeholders for items and (when withResults) results.
func (rl *ResourceList) wholeTop(items, res *yaml.Node, withResults bool) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode, Content: append([]*yaml.Node(nil), rl.root.Content...)}
	SetDefault(out, "apiVersion", StrNode(kio.ResourceListAPIVersion))
	SetDefault(out, "kind", StrNode(kio.ResourceListKind))
	SetField(out, "items", items)
	if withResults {
		SetField(out, "results", res)
	}
	return out
}

func hasSection(ss []section, key string) bool {
	for _, s := range ss {
		if s.key == key {
			return true
		}
	}
	return false
}

// writeItems writes the items key: unchanged items read by the splitter
// as their bytes, others encoded, broken ones left out.
func (rl *ResourceList) writeItems(w *bufio.Writer) error {
	wrote := false
	header := func() {
		if !wrote {
			w.WriteString("items:\n")
			wrote = true
		}
	}
	if err := rl.writeEvery(w, header); err != nil {
		return err
	}
	if !wrote {
		w.WriteString("items: []\n")
	}
	return nil
}

// writeEvery writes every item of a YAML or a JSON list, calling next
// before each (the items key, the array's commas: all the two forms'
// items differ in): the input's items, made on the worker pool
// (writeMade) or written by writeItem, then the tail, as its text or by
// writeItem.
func (rl *ResourceList) writeEvery(w *bufio.Writer, next func()) error {
	write := func(it *Item) error {
		if err := rl.writeItem(w, it); err != nil {
			return fmt.Errorf("writing %s: %w", it.describe(), err)
		}
		return nil
	}
	if err := rl.writeMade(w, next, write); err != nil {
		return err
	}
	if rl.tail == nil {
		return nil
	}
	return rl.tail(func(n *yaml.Node, text []byte) error {
		next()
		if text != nil {
			w.Write(text)
			return nil
		}
		return write(NewItem(n))
	})
}

// writeResults writes the input's results and then results, if any.
func (rl *ResourceList) writeResults(w *bufio.Writer, results []*sdk.Result) error {
	if len(rl.Results)+len(results) == 0 {
		return nil
	}
	w.WriteString("results:\n")
	for _, n := range rl.Results {
		if err := writeElement(w, "results", n); err != nil {
			return fmt.Errorf("writing the input's results: %w", err)
		}
	}
	for len(results) > 0 {
		batch := results[:min(len(results), resultBatch)]
		results = results[len(batch):]
		if err := writeResultBatch(w, batch); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
	}
	return nil
}

// resultBatch is how many results are encoded at a time: enough to make
// the encoder's setup cost nothing, few enough to keep the text small.
const resultBatch = 512

// writeResultBatch encodes results straight from their structs (a yaml.Node
// of each would cost an encode and a parse more) as elements of the
// results sequence.
func writeResultBatch(w *bufio.Writer, results []*sdk.Result) error {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(resultsDoc{results}); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	text := buf.Bytes()
	w.Write(text[bytes.IndexByte(text, '\n')+1:])
	return nil
}

// resultsDoc is the shape results are encoded in: {results: [...]}.
type resultsDoc struct {
	Results []*sdk.Result `yaml:"results"`
}

func withNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(b[:len(b):len(b)], '\n')
	}
	return b
}

// writeSeqItem encodes n as an element of a block sequence at indent.
func writeSeqItem(w *bufio.Writer, n *yaml.Node, indent int, compact bool) error {
	text, err := encode(n, compact)
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

// writeElement writes n as an element of the block sequence under the
// top-level key: the lines that encoding {key: [n]} gives after the key,
// which are what encoding the whole sequence gives for n.
func writeElement(w *bufio.Writer, key string, n *yaml.Node) error {
	text, err := Encode(mapping(StrNode(key), &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{n}}))
	if err != nil {
		return err
	}
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		text = text[i+1:]
	}
	w.Write(text)
	return nil
}

func writeEncoded(w *bufio.Writer, n *yaml.Node) error {
	text, err := Encode(n)
	if err != nil {
		return err
	}
	w.Write(text)
	return nil
}

func mapping(k, v *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{k, v}}
}

// WriteObjects writes the items keep selects as a stream of YAML
// documents, each without the kpt path and index annotations and, when
// shape is not nil, as shape makes it from the item's tree: what
// `kubectl apply -f -` takes. Each document starts with "---".
func (rl *ResourceList) WriteObjects(w io.Writer, keep func(*Item) bool, shape func(*yaml.Node) *yaml.Node) error {
	if err := rl.materializeTail(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	for _, it := range rl.Items {
		if !it.written() || !keep(it) {
			continue
		}
		n := it.Tree()
		if n == nil {
			continue
		}
		// Every document starts with its marker, so that streams written
		// apart (one per shard) concatenate into one stream.
		if shape != nil {
			n = shape(n)
		}
		bw.WriteString("---\n")
		if err := writeEncoded(bw, withoutPlace(n)); err != nil {
			return fmt.Errorf("writing %s: %w", it.describe(), err)
		}
	}
	return bw.Flush()
}

// withoutPlace is a copy of n without the kpt path and index annotations
// (and without annotations at all when those were the only ones).
func withoutPlace(n *yaml.Node) *yaml.Node {
	out := *n
	out.Content = append([]*yaml.Node(nil), n.Content...)
	md := MapAt(&out, "metadata")
	ann := MapAt(md, "annotations")
	if ann == nil {
		return &out
	}
	mdCopy := *md
	mdCopy.Content = append([]*yaml.Node(nil), md.Content...)
	annCopy := *ann
	annCopy.Content = nil
	for i := 0; i+1 < len(ann.Content); i += 2 {
		switch ann.Content[i].Value {
		case kioutil.IdAnnotation, kioutil.LegacyIdAnnotation:
			continue
		}
		if IsPlaceKey(ann.Content[i].Value) {
			continue
		}
		annCopy.Content = append(annCopy.Content, ann.Content[i], ann.Content[i+1])
	}
	if len(annCopy.Content) == 0 {
		RemoveField(&mdCopy, "annotations")
	} else {
		SetField(&mdCopy, "annotations", &annCopy)
	}
	SetField(&out, "metadata", &mdCopy)
	return &out
}
