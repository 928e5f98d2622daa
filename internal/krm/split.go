package krm

import (
	"bytes"
	"errors"
	"sync/atomic"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// section is one top-level key of the ResourceList document, as raw text.
type section struct {
	key string
	// raw is the whole section text, key line included; nil for items.
	raw []byte
	// line is the 1-based line the section starts on.
	line int
	// valueAt, for a section of a JSON list (splitJSON), is the offset
	// in raw of the key's value: "key":value is not YAML in block context
	// (no space after the colon), so the value is parsed alone.
	valueAt int
	json    bool
}

// chunk is the raw text of one item and the 1-based line it starts on;
// json marks an element of a JSON array (splitJSON).
type chunk struct {
	raw  []byte
	line int
	json bool
}

// split is what the fast splitter found.
type split struct {
	sections []section
	items    []chunk
	// indent is the column of the items' sequence dashes.
	indent int
}

// splitDocument is the fast path for block-style ResourceLists (what kpt
// and kustomize write): it cuts the document into top-level sections and
// the items sequence into one raw chunk per item, without building a YAML
// tree of the whole input. Items then pass through byte for byte, comments
// and formatting included, and only the items the caller reads are parsed.
//
// It reads a strict subset of YAML and returns ok=false for anything else,
// and the caller then parses the document whole: every line in column 0
// must be blank, a comment, a plain or quoted "key:" followed by a space or
// the line end, or a "- " entry of a sequence; one leading "---" is
// allowed; line breaks YAML knows but the splitter does not (a lone CR,
// NEL, LS, PS) send the input to the full parser. Readers of the result
// still check that each section parses as exactly its one key. release
// (may be nil) is told of the input read so far, a window at a time, as
// each pass goes (Input.Release).
func splitDocument(data []byte, release func([]byte)) (sp split, ok bool) {
	return splitDocumentEach(data, release, nil)
}

// splitDocumentEach is splitDocument calling each (when not nil) with
// every item as it is cut, before the split is known to succeed: the
// caller may start on the items while the rest is cut, and drops what it
// made if ok turns out false.
func splitDocumentEach(data []byte, release func([]byte), each func(chunk)) (sp split, ok bool) {
	if hasOddLineBreak(data, release) {
		return split{}, false
	}
	return splitChecked(data, release, each)
}

// splitChecked is splitDocumentEach on data known to hold no odd line
// break.
func splitChecked(data []byte, release func([]byte), each func(chunk)) (sp split, ok bool) {
	off, line := skipPreamble(data)
	for off < len(data) {
		l := lineAt(data, off)
		if isBlankOrComment(l) {
			off, line = off+len(l), line+1
			continue
		}
		key, rest, isKey := topLevelKey(l)
		if !isKey {
			return split{}, false
		}
		if key == "items" {
			if !isBlankOrComment(rest) {
				return split{}, false // flow style, a scalar, an anchor or a tag
			}
			items, indent, end, endLine, good := splitItemsSection(data, off+len(l), line+1, release, each)
			if !good {
				return split{}, false
			}
			sp.items, sp.indent = items, indent
			sp.sections = append(sp.sections, section{key: key, line: line})
			off, line = end, endLine
			continue
		}
		end, endLine, good := sectionEnd(data, off+len(l), line+1, release)
		if !good {
			return split{}, false
		}
		sp.sections = append(sp.sections, section{key: key, raw: data[off:end:end], line: line})
		off, line = end, endLine
	}
	if len(sp.sections) == 0 {
		return split{}, false // empty: let the full parser say so
	}
	return sp, true
}

// lineAt is the line of data starting at off, its '\n' included.
func lineAt(data []byte, off int) []byte {
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		return data[off : off+i+1 : off+i+1]
	}
	return data[off:len(data):len(data)]
}

// skipPreamble returns the offset and 1-based number of the first line
// after leading blank lines, comments and at most one bare "---" document
// marker.
func skipPreamble(data []byte) (off, line int) {
	markers := 0
	line = 1
	for off < len(data) {
		l := lineAt(data, off)
		switch {
		case isBlankOrComment(l):
		case isDocStart(l) && markers == 0:
			markers++
		default:
			return off, line
		}
		off, line = off+len(l), line+1
	}
	return off, line
}

// isDocStart recognises a "---" line with nothing after it but a comment.
func isDocStart(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := line[3:]
	if len(rest) > 0 && rest[0] != ' ' && rest[0] != '\n' && rest[0] != '\r' {
		return false
	}
	return isBlankOrComment(rest)
}

// sectionEnd returns the offset (and line number) of the line that starts
// the next top-level key at or after offset from (line number fromLine),
// or the end of data. Lines in between must be indented, blank, comments
// or column-0 sequence entries; anything else in column 0 (a "? " key, a
// quoted scalar's continuation, "...", a tab) is not understood and gives
// ok=false.
func sectionEnd(data []byte, from, fromLine int, release func([]byte)) (end, endLine int, ok bool) {
	end, endLine = from, fromLine
	pg := pager{data: data, from: from, release: release}
	defer pg.done(&end)
	for end < len(data) {
		pg.reached(end)
		l := lineAt(data, end)
		switch {
		case isBlankOrComment(l), l[0] == ' ', isSeqEntry(l):
		case startsTopLevelKey(l):
			return end, endLine, true
		default:
			return 0, 0, false
		}
		end, endLine = end+len(l), endLine+1
	}
	return end, endLine, true
}

// isSeqEntry recognises "-" followed by a space or the line end.
func isSeqEntry(b []byte) bool {
	return len(b) > 0 && b[0] == '-' && (len(b) == 1 || b[1] == ' ' || b[1] == '\n' || b[1] == '\r')
}

// hasOddLineBreak reports a line break that the splitter does not cut on
// but YAML does: a CR not followed by LF, NEL, LS or PS. It reads data in
// windows on the worker pool (scanWindows), each window looking two bytes
// past its end so that a break across windows is seen.
func hasOddLineBreak(data []byte, release func([]byte)) bool {
	var odd atomic.Bool
	scanWindows(data, release, func(from, to int) {
		if oddBreakIn(data, from, to) {
			odd.Store(true)
		}
	})
	return odd.Load()
}

// oddBreakIn is hasOddLineBreak for the breaks that start in data[from:to].
func oddBreakIn(data []byte, from, to int) bool {
	for i := from; ; i++ {
		j := bytes.IndexByte(data[i:to], '\r')
		if j < 0 {
			break
		}
		i += j
		if i+1 >= len(data) || data[i+1] != '\n' {
			return true
		}
	}
	window := data[from:min(to+2, len(data))]
	for _, brk := range []string{"\u0085", "\u2028", "\u2029"} {
		if bytes.Contains(window, []byte(brk)) {
			return true
		}
	}
	return false
}

// releaseWindow is how much input a pass reads before giving it back.
const releaseWindow = 4 << 20

// pager tells release (when set) of the input a sequential pass has read,
// every releaseWindow bytes.
type pager struct {
	data    []byte
	from    int
	release func([]byte)
}

// reached notes that the pass has read data up to off.
func (p *pager) reached(off int) {
	if p.release != nil && off-p.from >= releaseWindow {
		p.release(p.data[p.from:off])
		p.from = off
	}
}

// done gives back what is left, up to *end or the end of data when end
// is nil.
func (p *pager) done(end *int) {
	to := len(p.data)
	if end != nil {
		to = min(max(*end, p.from), len(p.data))
	}
	if p.release != nil && to > p.from {
		p.release(p.data[p.from:to])
	}
}

// splitItemsSection reads the items section from offset from (input line
// fromLine) to the next top-level key or the end of data, in one pass:
// it finds the section's end as sectionEnd does and cuts the block
// sequence into items. Every item starts with "- " at the sequence's
// indentation; deeper lines, and blank and comment lines, belong to it.
// each (may be nil) is called with every item as it is cut.
func splitItemsSection(data []byte, from, fromLine int, release func([]byte), each func(chunk)) (items []chunk, indent, end, endLine int, ok bool) {
	indent = -1
	add := func(c chunk) {
		items = append(items, c)
		if each != nil {
			each(c)
		}
	}
	start, startLine := -1, 0
	end, endLine = from, fromLine
	pg := pager{data: data, from: from, release: release}
	defer pg.done(&end)
	for end < len(data) {
		pg.reached(end)
		l := lineAt(data, end)
		sp := leadingSpaces(l)
		if !blankOrCommentAfter(l, sp) {
			if sp == 0 && !isSeqEntry(l) {
				if startsTopLevelKey(l) {
					break // the next section
				}
				return nil, 0, 0, 0, false // "? ", "...", a tab: not understood
			}
			if indent < 0 {
				indent = sp
			}
			switch {
			case sp < indent:
				return nil, 0, 0, 0, false
			case sp == indent:
				if !isSeqEntry(l[sp:]) {
					return nil, 0, 0, 0, false
				}
				if start >= 0 {
					add(chunk{raw: data[start:end:end], line: startLine})
				}
				start, startLine = end, endLine
			case start < 0:
				return nil, 0, 0, 0, false
			}
		}
		end, endLine = end+len(l), endLine+1
	}
	if start >= 0 {
		add(chunk{raw: data[start:end:end], line: startLine})
	}
	if indent < 0 {
		indent = 0
	}
	return items, indent, end, endLine, true
}

// parseChunk parses a raw item chunk ("- a: b\n  c: d") as what it is, a
// block sequence of one entry, and returns the entry: the item is read
// in the same context as in the whole document (blanking the dash and
// parsing the rest as a document of its own would accept continuation
// lines that the sequence does not).
func parseChunk(raw []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	seq := DocContent(&doc)
	if seq == nil || seq.Kind != yaml.SequenceNode || len(seq.Content) != 1 {
		return nil, errors.New("not one sequence entry")
	}
	return seq.Content[0], nil
}

func splitLines(data []byte) [][]byte {
	n := bytes.Count(data, []byte("\n")) + 1
	lines := make([][]byte, 0, n)
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, data)
			break
		}
		lines = append(lines, data[:i+1])
		data = data[i+1:]
	}
	return lines
}

func leadingSpaces(line []byte) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}

// isBlankOrComment recognises a line of spaces, optionally followed by a
// comment. Tabs and other white space are not blank here: YAML rejects
// some of them where indentation is read, so such lines go to the parser.
// A comment holding a byte YAML refuses (not UTF-8, a control character)
// is not blank either: only the parser can report it, and the splitter
// would otherwise skip it unseen.
func isBlankOrComment(line []byte) bool {
	return blankOrCommentAfter(line, leadingSpaces(line))
}

// blankOrCommentAfter is isBlankOrComment for a line whose first sp bytes
// are spaces.
func blankOrCommentAfter(line []byte, sp int) bool {
	t := line[sp:]
	if len(t) > 0 && t[0] == '#' {
		return yamlReadable(t)
	}
	return len(t) == 0 || t[0] == '\n' || (t[0] == '\r' && len(t) > 1 && t[1] == '\n')
}

// yamlReadable reports whether every character of b is one the YAML
// reader accepts: tab, line feed, carriage return, printable ASCII, NEL,
// and the non-control, non-surrogate Unicode ranges, in valid UTF-8.
func yamlReadable(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c != '\t' && c != '\n' && c != '\r' && (c < 0x20 || c == 0x7f) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return false
		case r == 0x85, r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000:
		default:
			return false
		}
		i += size
	}
	return true
}

func startsTopLevelKey(line []byte) bool {
	_, _, ok := topLevelKey(line)
	return ok
}

// topLevelKey recognises "key:" at column 0, followed by a space or the
// line end: key is plain (letters, digits, "_", "-", "." and not starting
// with "-" or ".") or wholly in single or double quotes. rest is what
// follows the colon.
func topLevelKey(line []byte) (key string, rest []byte, ok bool) {
	i := bytes.IndexByte(line, ':')
	if i <= 0 {
		return "", nil, false
	}
	k := line[:i]
	if q := k[0]; q == '"' || q == '\'' {
		if len(k) < 3 || k[len(k)-1] != q {
			return "", nil, false
		}
		k = k[1 : len(k)-1]
	}
	if !isPlainKey(k) {
		return "", nil, false
	}
	after := line[i+1:]
	if len(after) > 0 && after[0] != ' ' && after[0] != '\n' && !(after[0] == '\r' && len(after) > 1 && after[1] == '\n') {
		return "", nil, false
	}
	return string(k), after, true
}

func isPlainKey(k []byte) bool {
	if len(k) == 0 || k[0] == '-' || k[0] == '.' {
		return false
	}
	for _, c := range k {
		if !(c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
