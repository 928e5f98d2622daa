package krm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nfd-fn/nfd-fn/internal/parallel"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
	"go.yaml.in/yaml/v3"
)

// ResourceList is a parsed ResourceList (or kubectl v1 List).
type ResourceList struct {
	// Items are the list's items in order; Append adds new ones.
	Items []*Item
	// FunctionConfig is the functionConfig, or nil when absent or null.
	FunctionConfig *yaml.Node
	// Results are the results already in the input; WriteThen keeps them
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
	// release is ReadOptions.Release (nil: none), told of each item's
	// bytes once written.
	release func([]byte)
	// tail makes the items written after Items (SetTail).
	tail func(yield func(n *yaml.Node, text []byte) error) error
	// maker makes some items' text as they are written (SetMaker).
	maker *ItemMaker
	// fromFiles marks a list ReadFiles built: its items are written as
	// placed text, made on the worker pool.
	fromFiles bool
}

// ReadOptions adjust Read.
type ReadOptions struct {
	// Decoder, when set, decodes the items (see Decoder). Without it no
	// item is decoded and every tree is kept.
	Decoder Decoder
	// Limits bound the work done on the input; zero fields are defaults.
	Limits Limits
	// Release, when set, is told of input bytes that are not needed for a
	// while (an item once parsed, once written): Input.Release, which gives
	// a mapped input's pages back.
	Release func([]byte)
	// Name, when set, names the file the list was read from (a
	// ResourceList given as a file argument): every item's File is Name
	// and its Index its place in the list, whatever its annotations say,
	// and the lines of its trees count from the start of the file, so
	// that what is reported about an item points into the file.
	Name string
}

// Read parses a ResourceList. Block-style lists are cut into items by the
// fast splitter and each item is parsed on its own, in parallel; anything
// else is parsed whole. An item that does not parse, or exceeds a limit,
// has ParseErr set and is left out of the output; the rest of the list is
// read. Read fails when the list as a whole cannot be read.
func Read(data []byte, opts ReadOptions) (*ResourceList, error) {
	opts.Limits = opts.Limits.withDefaults()
	if len(data) > opts.Limits.MaxBytes {
		return nil, fmt.Errorf("reading the ResourceList: %w: the input is %d bytes, more than %d", ErrLimit, len(data), opts.Limits.MaxBytes)
	}
	rl, err := read(data, opts)
	if err != nil {
		return nil, err
	}
	return rl, rl.checkHeader()
}

func read(data []byte, opts ReadOptions) (*ResourceList, error) {
	cut := newItemStream(opts)
	var sp split
	var ok bool
	isJSON := looksLikeJSON(data)
	if isJSON {
		sp, ok = splitJSON(data, opts.Release, cut.each)
	} else {
		sp, ok = splitDocumentEach(data, opts.Release, cut.each)
	}
	cut.wait()
	if !ok {
		return readWhole(data, opts)
	}
	rl, why, err := readFast(sp, cut.items, opts)
	if rl != nil {
		rl.json = isJSON
	}
	if err != nil || why == nil {
		return rl, err
	}
	if rl != nil && len(data) > opts.Limits.MaxFallbackBytes {
		return rl, nil // the broken items stay broken
	}
	whole, err := readWhole(data, opts)
	var syntax *syntaxError
	switch {
	case err == nil:
		return whole, nil
	case !errors.As(err, &syntax):
	case rl != nil:
		// Not YAML as a whole, but the header and the other items are:
		// keep them, with the broken items reported.
		return rl, nil
	case !errors.Is(why, errMisread):
		return nil, why // the section that does not parse says it best
	}
	return nil, err
}

// Why the fast reading is not certain to be YAML's reading.
var (
	// errMisread: a section is not the one key the splitter saw, or a
	// key appears twice.
	errMisread = errors.New("the splitter misread the list")
	// errBrokenItem: an item does not parse on its own.
	errBrokenItem = errors.New("an item does not parse on its own")
)

// readFast reads the sections the splitter found and takes its items,
// parsed as they were cut (itemStream). why is
// non-nil when the reading may not be YAML's: the caller then parses the
// whole input. When only items are broken, the list is returned too, to
// be used if the input is not YAML as a whole either.
func readFast(sp split, items []*Item, opts ReadOptions) (rl *ResourceList, why, err error) {
	if len(items) > opts.Limits.MaxItems {
		return nil, nil, fmt.Errorf("reading the ResourceList: %w: %d items, more than %d", ErrLimit, len(items), opts.Limits.MaxItems)
	}
	rl = &ResourceList{sp: sp, fast: true, release: opts.Release}
	seen := map[string]bool{}
	for _, s := range sp.sections {
		if seen[s.key] {
			return nil, errMisread, nil
		}
		seen[s.key] = true
		if why, err := rl.readSection(s, opts.Limits); why != nil || err != nil {
			return nil, why, err
		}
	}
	rl.Items = items
	for _, it := range items {
		if it.unparsed {
			return rl, errBrokenItem, nil
		}
	}
	return rl, nil, nil
}

// itemStream makes the items the splitter cuts and parses them on the
// worker pool as they come, while the rest of the input is cut.
type itemStream struct {
	items []*Item
	add   func(*Item)
	wait  func()
	max   int
	name  string
}

func newItemStream(opts ReadOptions) *itemStream {
	s := &itemStream{max: opts.Limits.MaxItems, name: opts.Name}
	s.add, s.wait = parallel.Stream(func(it *Item) { it.unparsed = !it.parse(opts) })
	return s
}

// each takes the next item cut; past the limit on items, they are only
// counted (readFast refuses the list).
func (s *itemStream) each(c chunk) {
	it := &Item{Raw: c.raw, Pos: len(s.items), Line: c.line, json: c.json}
	if s.name != "" {
		it.File, it.Index, it.named = s.name, it.Pos, true
	}
	s.items = append(s.items, it)
	if len(s.items) <= s.max {
		s.add(it)
	}
}

// parse parses a raw item, checks it against the limits and decodes it.
// It returns false when the item is not YAML on its own.
func (it *Item) parse(opts ReadOptions) bool {
	defer opts.release(it.Raw)
	if it.json && it.fromFile && len(it.Raw) > opts.Limits.MaxTreeBytes {
		// Written back as YAML, which takes a tree of it.
		it.ParseErr = fmt.Errorf("%w: a JSON object of %d bytes, which a list read from files writes back as YAML from a tree; nfd-fn makes trees of objects up to %d bytes "+
			"(a JSON list on stdin is written back as JSON without one: nfd-fn render < FILE)", ErrLimit, len(it.Raw), opts.Limits.MaxTreeBytes)
		return true
	}
	// A fast decoder reads only valid JSON (FuzzFastDecodeJSON), so JSON
	// is checked only when none does.
	if opts.Decoder != nil && opts.Limits.MaxDepth >= 64 && opts.Decoder.DecodeRaw(it) {
		return true
	}
	if it.json && !json.Valid(it.Raw) {
		it.ParseErr = jsonSyntaxError(it.Raw, it.Line)
		return false
	}
	if len(it.Raw) > opts.Limits.MaxTreeBytes {
		// A tree of it would take ten times its size: left out, reported.
		it.ParseErr = fmt.Errorf("%w: %d bytes not in the plain block layout nfd-fn reads without a YAML tree; it parses objects up to %d bytes whole",
			ErrLimit, len(it.Raw), opts.Limits.MaxTreeBytes)
		return true
	}
	n, err := it.ParseTree()
	if err != nil {
		it.ParseErr = relineError(err, it.Line)
		return false
	}
	if err := checkTree(n, opts.Limits); err != nil {
		it.ParseErr = relineTreeError(err, it.Line)
		return true
	}
	it.SetNode(n)
	opts.decode(it)
	return true
}

// relineError turns yaml's "yaml: line N: msg", N counted from the item's
// first line, into "line M: msg" with M counted in the input.
func relineError(err error, first int) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var n int
	var rest string
	if _, scanErr := fmt.Sscanf(msg, "line %d:", &n); scanErr == nil && first > 0 {
		rest = msg[strings.Index(msg, ":")+1:]
		return fmt.Errorf("line %d:%s", first+n-1, rest)
	}
	return errors.New(msg)
}

// relineTreeError makes the lines of a tree check's error (a duplicate
// key) count from the input, not the item, whose first line is first.
func relineTreeError(err error, first int) error {
	var dk *yamlstrict.DuplicateKeyError
	if errors.As(err, &dk) && first > 0 {
		dk.Shift(first - 1)
	}
	return err
}

// release passes b to the Release hook, when there is one.
func (o ReadOptions) release(b []byte) {
	if o.Release != nil {
		o.Release(b)
	}
}

// decode has the Decoder decode a parsed item and drops the tree unless
// it keeps it.
func (o ReadOptions) decode(it *Item) {
	if o.Decoder == nil {
		return
	}
	o.Decoder.Decode(it)
	if !o.Decoder.Keep(it) {
		it.Node = nil
	}
}

// checkHeader refuses input that is not a list of items: a single object
// piped in by mistake would otherwise come back with an empty item list.
func (rl *ResourceList) checkHeader() error {
	switch {
	case rl.IsResourceList():
		return nil
	case rl.Kind == "List" && rl.APIVersion == "v1":
		return nil
	case rl.Kind == "" && rl.APIVersion == "":
		return errors.New("input has no apiVersion and kind: nfd-fn reads a config.kubernetes.io/v1 ResourceList on stdin")
	case rl.APIVersion == "":
		return fmt.Errorf("input has kind %s but no apiVersion: nfd-fn reads a config.kubernetes.io/v1 ResourceList or a v1 List on stdin", rl.Kind)
	case rl.Kind == "" && len(rl.Items) > 0:
		// kubectl writes a List's kind after its items: a list without one
		// was most likely cut short.
		return fmt.Errorf("input has apiVersion %s and items but no kind, as a kubectl export (kind: List, written after the items) that was cut short would: "+
			"nfd-fn reads a config.kubernetes.io/v1 ResourceList or a v1 List on stdin", rl.APIVersion)
	}
	return fmt.Errorf("input is a %s %s, not a ResourceList: nfd-fn reads a config.kubernetes.io/v1 ResourceList on stdin (to check plain files, run nfd-fn validate FILE...)",
		rl.APIVersion, rl.Kind)
}

// readSection parses a top-level section other than items. Every one is
// parsed, small as they are, so that a broken header is an error rather
// than echoed; only functionConfig and results are kept. A section that
// does not parse, or not as exactly its one key, may be the splitter's
// misreading: it is returned as why, for the caller to parse the input
// whole.
func (rl *ResourceList) readSection(s section, l Limits) (why, err error) {
	if s.key == "items" {
		return nil, nil
	}
	v, err := s.value()
	switch {
	case err != nil:
		return fmt.Errorf("parsing the ResourceList's %s: %w", s.key, relineError(err, s.line)), nil
	case v == nil:
		return errMisread, nil
	}
	if err := checkTree(v, l); err != nil {
		return nil, fmt.Errorf("reading the ResourceList's %s: %w", s.key, err)
	}
	rl.setHeader(s.key, v)
	return nil, nil
}

// value parses the section and returns its key's value: nil (and no
// error) when the text is not exactly the one key the splitter saw.
func (s section) value() (*yaml.Node, error) {
	var doc yaml.Node
	if s.json {
		if err := yaml.Unmarshal(yamlstrict.JSONForYAML(s.raw[s.valueAt:]), &doc); err != nil {
			return nil, err
		}
		if v := DocContent(&doc); v != nil {
			return v, nil
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	if err := yaml.Unmarshal(s.raw, &doc); err != nil {
		return nil, err
	}
	m := DocContent(&doc)
	if m == nil || m.Kind != yaml.MappingNode || len(m.Content) != 2 || m.Content[0].Value != s.key {
		return nil, nil
	}
	return m.Content[1], nil
}

// setHeader records a top-level key other than items.
func (rl *ResourceList) setHeader(key string, v *yaml.Node) {
	switch key {
	case "apiVersion":
		if v.Kind == yaml.ScalarNode {
			rl.APIVersion = v.Value
		}
	case "kind":
		if v.Kind == yaml.ScalarNode {
			rl.Kind = v.Value
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

// readWhole parses any ResourceList that the fast path does not handle:
// flow style, JSON, a list under another apiVersion or kind (v1beta1, a
// v1 List). It refuses a stream of several documents rather than drop all
// but the first, and top-level keys that YAML allows but a ResourceList
// cannot mean (a key twice, a merge key).
func readWhole(data []byte, opts ReadOptions) (*ResourceList, error) {
	root, err := parseOneDocument(data)
	if err != nil {
		return nil, err
	}
	if err := checkTopLevelKeys(root); err != nil {
		return nil, err
	}
	rl := &ResourceList{root: root, json: isJSON(data)}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i].Value, root.Content[i+1]
		if k == "items" {
			if err := rl.wholeItems(v, opts.Limits, opts.Name); err != nil {
				return nil, err
			}
			continue
		}
		if err := checkTree(v, opts.Limits); err != nil {
			return nil, fmt.Errorf("reading the ResourceList's %s: %w", k, err)
		}
		rl.setHeader(k, v)
	}
	parallel.For(len(rl.Items), func(i int) {
		if it := rl.Items[i]; it.ParseErr == nil && opts.Decoder != nil {
			opts.Decoder.Decode(it)
		}
	})
	return rl, nil
}

// wholeItems records the items of a list parsed whole.
func (rl *ResourceList) wholeItems(v *yaml.Node, l Limits, name string) error {
	if v.Kind != yaml.SequenceNode && !IsNull(v) {
		return fmt.Errorf("ResourceList.items must be a list, got %s", kindName(v))
	}
	if len(v.Content) > l.MaxItems {
		return fmt.Errorf("reading the ResourceList: %w: %d items, more than %d", ErrLimit, len(v.Content), l.MaxItems)
	}
	for pos, n := range v.Content {
		it := &Item{Pos: pos, Line: n.Line}
		if name != "" {
			it.File, it.Index, it.named = name, pos, true
		}
		if err := checkTree(n, l); err != nil {
			it.ParseErr = err
		} else {
			it.SetNode(n)
		}
		rl.Items = append(rl.Items, it)
	}
	return nil
}

// checkTopLevelKeys refuses a key given twice and merge keys: YAML parsers
// disagree on them (the last wins, the first wins, or an error), so what
// nfd-fn would read is not what the author meant. A key that is a mapping
// or a list ("? a: b") is refused too: no ResourceList field has one, and
// the output would carry it to tools that read the keys as strings.
func checkTopLevelKeys(root *yaml.Node) error {
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		if k.Kind != yaml.ScalarNode {
			return fmt.Errorf("reading the ResourceList: line %d: a top-level key must be a string, got %s", k.Line, kindName(k))
		}
		if k.Value == "<<" && k.Tag == "!!merge" {
			return fmt.Errorf("reading the ResourceList: line %d: a merge key (<<) at the top level is not supported", k.Line)
		}
		if first, dup := seen[k.Value]; dup {
			return fmt.Errorf("reading the ResourceList: the top-level key %q is given twice (lines %d and %d)", k.Value, first, k.Line)
		}
		seen[k.Value] = k.Line
	}
	return nil
}

// parseOneDocument parses data as exactly one YAML (or JSON) document
// holding a mapping.
func parseOneDocument(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(yamlstrict.JSONForYAML(data)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, errors.New("the input is empty: expected a ResourceList")
		}
		return nil, &syntaxError{err}
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == io.EOF:
	case err != nil:
		return nil, &syntaxError{err}
	case DocContent(&next) != nil && !IsNull(DocContent(&next)):
		return nil, fmt.Errorf("the input holds more than one YAML document (a second one starts at line %d): nfd-fn reads one ResourceList", next.Line)
	}
	root := DocContent(&doc)
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, errors.New("the input is not a ResourceList: expected a YAML mapping with items")
	}
	return root, nil
}

// jsonSyntaxError says where an element of a JSON list stops being
// JSON, by its line in the input (the element starts on line first).
func jsonSyntaxError(raw []byte, first int) error {
	var v any
	err := json.Unmarshal(raw, &v)
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) && syntax.Offset > 0 {
		line := first + bytes.Count(raw[:min(int(syntax.Offset), len(raw))], []byte("\n"))
		return fmt.Errorf("line %d: not valid JSON: %s", line, syntax.Error())
	}
	return fmt.Errorf("not valid JSON: %v", err)
}

// isJSON reports whether the input is a JSON document (an object).
func isJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(data)
}

// syntaxError is input that is not YAML.
type syntaxError struct{ err error }

func (e *syntaxError) Error() string { return "parsing the ResourceList: " + e.err.Error() }
func (e *syntaxError) Unwrap() error { return e.err }
