package krm

import (
	"bytes"
	"strings"

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
// caller checks that.
func cutFile(data []byte) (objects []fileObject, ok bool) {
	if hasOddLineBreak(data, nil) {
		return nil, false
	}
	index := 0
	for _, d := range cutDocuments(data) {
		if d.bad {
			return nil, false
		}
		if d.empty {
			if d.marked {
				index++
			}
			continue
		}
		items, isList, good := cutList(d.text, d.line)
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
}

// cutDocuments cuts data at its "---" lines. The text before the first
// marker is a document only when it has content, as YAML reads it.
func cutDocuments(data []byte) []document {
	var docs []document
	cur := document{line: 1, empty: true}
	start := 0
	flush := func(end int) {
		cur.text = data[start:end:end]
		if !cur.empty || cur.marked || cur.bad {
			docs = append(docs, cur)
		}
	}
	line := 1
	for off := 0; off < len(data); {
		l := lineAt(data, off)
		switch {
		case isDocStart(l):
			flush(off)
			start, cur = off+len(l), document{line: line + 1, marked: true, empty: true}
		case len(l) > 0 && (l[0] == '%' || bytes.HasPrefix(l, []byte("..."))) && cur.empty:
			cur.bad = true // a directive or a document end: parsed whole
		case bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")):
			cur.bad = true // a marker with content after it
		case isBlankOrComment(l):
		case cur.empty:
			cur.empty = false
			if !startsTopLevelKey(l) {
				cur.bad = true
			}
		}
		off, line = off+len(l), line+1
	}
	flush(len(data))
	return docs
}

// cutList cuts a document that is a v1 List (apiVersion v1, a kind that
// ends in "List", a block sequence of items) into its items, each at the
// lines of the file (the document starts on line first). isList is false
// for any other document; good is false when the document is a List the
// splitter cannot be sure to read as YAML does.
func cutList(text []byte, first int) (items []chunk, isList, good bool) {
	if !hasTopLevelItems(text) {
		return nil, false, true
	}
	sp, ok := splitDocument(text, nil)
	if !ok {
		return nil, false, false
	}
	head := map[string]*yaml.Node{}
	for _, s := range sp.sections {
		if s.key == "items" {
			continue
		}
		var doc yaml.Node
		if yaml.Unmarshal(s.raw, &doc) != nil {
			return nil, false, false
		}
		m := DocContent(&doc)
		if m == nil || m.Kind != yaml.MappingNode || len(m.Content) != 2 || m.Content[0].Value != s.key || head[s.key] != nil {
			return nil, false, false
		}
		head[s.key] = m.Content[1]
	}
	if !isV1List(head) {
		return nil, false, true
	}
	if len(sp.items) == 0 {
		return nil, false, false // items: null is not a list of items
	}
	for _, c := range sp.items {
		if !entryOpensMapping(c.raw) {
			return nil, false, false // a scalar, flow style or a tag: parsed whole
		}
		items = append(items, chunk{raw: c.raw, line: c.line + first - 1})
	}
	return items, true, true
}

// hasTopLevelItems reports a line "items:" at column 0.
func hasTopLevelItems(text []byte) bool {
	return bytes.HasPrefix(text, []byte("items:")) || bytes.Contains(text, []byte("\nitems:"))
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
