package krm

import (
	"bytes"
	"strings"
	"sync/atomic"

	"go.yaml.in/yaml/v3"
)

// fileObject is one object cut from a file's text (cutFile).
type fileObject struct {
	// raw is the object's text: a whole document, leading comments
	// included, when doc is set; else a "- " entry of a List's items.
	raw []byte
	// line is the 1-based line of the file raw starts on.
	line int
	// index is the document's index in the file, as a YAML decoder counts
	// documents: a List's items share the List's.
	index int
	doc   bool
	// json marks JSON text: the file's one object, or an element of its
	// List's items array (cutJSONFile).
	json bool
}

// cutFile cuts a file of block-style YAML into its objects without
// parsing it: each document that is a block mapping is one object, and
// the items of a v1 List (kubectl get -o yaml) are objects of their own,
// cut as the fast splitter cuts a ResourceList's items. Documents that
// hold only comments are skipped, as a decoder skips them.
//
// ok is false, and the file must be parsed whole, for anything it cannot
// be sure to read as YAML does: a document that is not a block mapping
// at column 0 (JSON, flow style, a scalar, a tag or an anchor on the
// root), a directive, a "..." line, a "---" with content after it, line
// breaks other than LF and CRLF, or a List whose items section the
// splitter does not read. Each object must still parse on its own; the
// caller checks that, and that each item of a List opens a block mapping
// (entryOpensMapping: reading an item's first line here would bring its
// page back in). each (may be nil) is called with every item of a
// document with an "items:" line as it is cut, before the document is
// known to be a List, for the caller to start parsing. release (may be nil) is told of the text read, a
// window at a time, as each pass goes.
func cutFile(data []byte, release func([]byte), each func(chunk)) (objects []fileObject, ok bool) {
	if looksLikeJSON(data) {
		return cutJSONFile(data, release, each)
	}
	// One scan finds the odd line breaks and the marker lines.
	marks, odd := scanFile(data, release)
	if odd {
		return nil, false
	}
	index := 0
	for _, d := range cutDocuments(data, marks, release) {
		if d.bad {
			return nil, false
		}
		if d.empty {
			if d.marked {
				index++
			}
			continue
		}
		var items []chunk
		isList, good := false, true
		if d.items {
			items, isList, good = cutList(d.text, d.line, release, each)
		}
		if !good {
			return nil, false
		}
		if !isList {
			objects = append(objects, fileObject{raw: d.text, line: d.line, index: index, doc: true})
		}
		for _, it := range items {
			objects = append(objects, fileObject{raw: it.raw, line: it.line, index: index})
		}
		index++
	}
	return objects, true
}

// document is one document's text between markers.
type document struct {
	text []byte
	// line is the 1-based file line text starts on.
	line int
	// marked: the document began with "---" (an empty one still counts).
	marked bool
	// empty: nothing but blank lines and comments; bad: not a block
	// mapping at column 0, or a line the cutter does not read.
	empty, bad bool
	// items: a line starts with "items:" (the document may be a List).
	items bool
}

// cutDocuments cuts data at its "---" lines. The text before the first
// marker is a document only when it has content, as YAML reads it. Past
// each document's first content line only lines starting with '-', '.'
// or '%' matter, and the search jumps to them. release (may be nil) is
// told of the text read, a window at a time.
func cutDocuments(data []byte, marks *markers, release func([]byte)) []document {
	var docs []document
	cur := document{line: 1, empty: true}
	start := 0
	flush := func(end int) {
		cur.text = data[start:end:end]
		if !cur.empty || cur.marked || cur.bad {
			cur.items = marks.itemsIn(start, end)
			docs = append(docs, cur)
		}
	}
	pg := pager{data: data, release: release}
	line, counted := 1, 0 // line is the number of the line at counted
	for off := 0; off < len(data); {
		if !cur.empty {
			next := marks.next(off)
			if next < 0 {
				break
			}
			off = next
		}
		pg.reached(off)
		line += bytes.Count(data[counted:off], []byte("\n"))
		counted = off
		l := lineAt(data, off)
		next := off + len(l)
		switch c := l[0]; {
		case c == '-' && isDocStart(l):
			flush(off)
			start, cur = next, document{line: line + 1, marked: true, empty: true}
		case c == '-' && bytes.HasPrefix(l, []byte("---")), c == '.' && bytes.HasPrefix(l, []byte("...")), c == '%' && cur.empty:
			cur.bad = true // a marker with content after it, a document end, a directive
		case !cur.empty: // past the first content line: only markers matter
		case isBlankOrComment(l):
		default:
			cur.empty = false
			cur.bad = cur.bad || !startsTopLevelKey(l)
		}
		off = next
	}
	pg.done(nil)
	flush(len(data))
	return docs
}

// markers are the lines that start with "---", "..." and "items:",
// found in one scan of the file (lineStarts); next and itemsIn walk them
// forward.
type markers struct {
	dash, dots, items []int
}

// scanFile finds data's marker lines and reports a line break YAML
// breaks at but the cutter does not (hasOddLineBreak), in one scan.
func scanFile(data []byte, release func([]byte)) (m *markers, odd bool) {
	var oddSeen atomic.Bool
	found := lineStarts(data, release, func(from, to int) {
		if oddBreakIn(data, from, to) {
			oddSeen.Store(true)
		}
	}, "---", "...", "items:")
	return &markers{dash: found[0], dots: found[1], items: found[2]}, oddSeen.Load()
}

// next is the offset of the first such "---" or "..." line at or after
// off, or -1.
func (m *markers) next(off int) int {
	dash, dots := firstFrom(&m.dash, off), firstFrom(&m.dots, off)
	switch {
	case dash < 0:
		return dots
	case dots < 0:
		return dash
	}
	return min(dash, dots)
}

// itemsIn reports a line starting with "items:" in [from, to).
func (m *markers) itemsIn(from, to int) bool {
	at := firstFrom(&m.items, from)
	return at >= 0 && at < to
}

// firstFrom drops the offsets before off from *offs and returns the
// first one left, or -1.
func firstFrom(offs *[]int, off int) int {
	for len(*offs) > 0 && (*offs)[0] < off {
		*offs = (*offs)[1:]
	}
	if len(*offs) == 0 {
		return -1
	}
	return (*offs)[0]
}

// cutList cuts a document with an "items:" line that is a v1 List
// (apiVersion v1, a kind that ends in "List", a block sequence of items)
// into its items, each at the
// lines of the file (the document starts on line first). isList is false
// for any other document; good is false when the document is a List the
// splitter cannot be sure to read as YAML does.
func cutList(text []byte, first int, release func([]byte), each func(chunk)) (items []chunk, isList, good bool) {
	var inFile func(chunk)
	if each != nil {
		inFile = func(c chunk) { each(chunk{raw: c.raw, line: c.line + first - 1}) }
	}
	sp, ok := splitChecked(text, release, inFile) // cutFile checked the line breaks
	if !ok {
		return nil, false, false
	}
	head := map[string]*yaml.Node{}
	for _, s := range sp.sections {
		if s.key == "items" {
			continue
		}
		v, err := s.value()
		if err != nil || v == nil || head[s.key] != nil {
			return nil, false, false
		}
		head[s.key] = v
	}
	if !isV1List(head) {
		return nil, false, true
	}
	if len(sp.items) == 0 {
		return nil, false, false // items: null is not a list of items
	}
	for _, c := range sp.items {
		items = append(items, chunk{raw: c.raw, line: c.line + first - 1})
	}
	return items, true, true
}

// isV1List is objects.Documents' test on a document's top-level keys.
func isV1List(head map[string]*yaml.Node) bool {
	scalar := func(k string) string {
		if n := head[k]; n != nil && n.Kind == yaml.ScalarNode {
			return n.Value
		}
		return ""
	}
	return scalar("apiVersion") == "v1" && strings.HasSuffix(scalar("kind"), "List")
}

// entryOpensMapping reports a sequence entry whose first line is "- key:",
// the start of a block mapping.
func entryOpensMapping(raw []byte) bool {
	l := lineAt(raw, 0)
	sp := leadingSpaces(l)
	if !isSeqEntry(l[sp:]) {
		return false
	}
	col := sp + 1 + leadingSpaces(l[sp+1:])
	return startsTopLevelKey(l[col:])
}

// cutJSONFile is cutFile for a file of JSON text, one object: a v1 List
// (kubectl get -o json) is cut into its items (splitJSON; each is called
// with every item as it is cut), any other object is the file's one
// object. ok is false when the text is not cut with certainty or is a
// List with no items array, and the file is then parsed whole.
func cutJSONFile(data []byte, release func([]byte), each func(chunk)) (objects []fileObject, ok bool) {
	sp, ok := splitJSON(data, release, each)
	if !ok {
		return nil, false
	}
	head := map[string]*yaml.Node{}
	items := false
	for _, s := range sp.sections {
		if s.key == "items" {
			items = true
			continue
		}
		v, err := s.value()
		if err != nil || v == nil || head[s.key] != nil {
			return nil, false
		}
		head[s.key] = v
	}
	if !items || !isV1List(head) {
		return []fileObject{{raw: data, line: 1, doc: true, json: true}}, true
	}
	if len(sp.items) == 0 {
		return nil, false // as cutList: the decoder says what an empty List is
	}
	for _, c := range sp.items {
		objects = append(objects, fileObject{raw: c.raw, line: c.line, json: true})
	}
	return objects, true
}
