package krm

import (
	"bytes"
	"errors"

	"go.yaml.in/yaml/v3"
)

// section is one top-level key of the ResourceList document, as raw text.
type section struct {
	key string
	// raw is the whole section text, key line included; nil for items.
	raw []byte
	// line is the 1-based line the section starts on.
	line int
}

// chunk is the raw text of one item and the 1-based line it starts on.
type chunk struct {
	raw  []byte
	line int
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
// still check that each section parses as exactly its one key.
func splitDocument(data []byte) (sp split, ok bool) {
	if hasOddLineBreak(data) {
		return split{}, false
	}
	lines := splitLines(data)
	i := skipPreamble(lines)
	for i < len(lines) {
		if isBlankOrComment(lines[i]) {
			i++
			continue
		}
		key, rest, isKey := topLevelKey(lines[i])
		if !isKey {
			return split{}, false
		}
		end, good := sectionEnd(lines, i+1)
		if !good {
			return split{}, false
		}
		if key == "items" {
			if !isBlankOrComment(rest) {
				return split{}, false // flow style, a scalar, an anchor or a tag
			}
			items, indent, good := splitItems(lines[i+1:end], i+2)
			if !good {
				return split{}, false
			}
			sp.items, sp.indent = items, indent
			sp.sections = append(sp.sections, section{key: key, line: i + 1})
		} else {
			sp.sections = append(sp.sections, section{key: key, raw: join(lines[i:end]), line: i + 1})
		}
		i = end
	}
	if len(sp.sections) == 0 {
		return split{}, false // empty: let the full parser say so
	}
	return sp, true
}

// skipPreamble returns the index of the first line after leading blank
// lines, comments and at most one bare "---" document marker.
func skipPreamble(lines [][]byte) int {
	i, markers := 0, 0
	for i < len(lines) {
		switch {
		case isBlankOrComment(lines[i]):
		case isDocStart(lines[i]) && markers == 0:
			markers++
		default:
			return i
		}
		i++
	}
	return i
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

// sectionEnd returns the index of the line that starts the next top-level
// key at or after from, or len(lines). Lines in between must be indented,
// blank, comments or column-0 sequence entries; anything else in column 0
// (a "? " key, a quoted scalar's continuation, "...", a tab) is not
// understood and gives ok=false.
func sectionEnd(lines [][]byte, from int) (end int, ok bool) {
	for end = from; end < len(lines); end++ {
		line := lines[end]
		switch {
		case isBlankOrComment(line), line[0] == ' ', isSeqEntry(line):
		case startsTopLevelKey(line):
			return end, true
		default:
			return 0, false
		}
	}
	return end, true
}

// isSeqEntry recognises "-" followed by a space or the line end.
func isSeqEntry(b []byte) bool {
	return len(b) > 0 && b[0] == '-' && (len(b) == 1 || b[1] == ' ' || b[1] == '\n' || b[1] == '\r')
}

// hasOddLineBreak reports a line break that splitLines does not cut on
// but YAML does: a CR not followed by LF, NEL, LS or PS.
func hasOddLineBreak(data []byte) bool {
	for rest := data; ; {
		i := bytes.IndexByte(rest, '\r')
		if i < 0 {
			break
		}
		if i+1 >= len(rest) || rest[i+1] != '\n' {
			return true
		}
		rest = rest[i+2:]
	}
	for _, brk := range []string{"\u0085", "\u2028", "\u2029"} {
		if bytes.Contains(data, []byte(brk)) {
			return true
		}
	}
	return false
}

// splitItems cuts the lines of a block sequence, the first of which is
// input line first, into items. Every item starts with "- " at the
// sequence's indentation; deeper lines belong to it.
func splitItems(lines [][]byte, first int) (items []chunk, indent int, ok bool) {
	indent = -1
	start := -1
	for j, line := range lines {
		if isBlankOrComment(line) {
			continue
		}
		sp := leadingSpaces(line)
		if indent < 0 {
			indent = sp
		}
		if sp < indent {
			return nil, 0, false
		}
		if sp == indent {
			if !isSeqEntry(line[sp:]) {
				return nil, 0, false
			}
			if start >= 0 {
				items = append(items, chunk{raw: join(lines[start:j]), line: first + start})
			}
			start = j
		} else if start < 0 {
			return nil, 0, false
		}
	}
	if start >= 0 {
		items = append(items, chunk{raw: join(lines[start:]), line: first + start})
	}
	if indent < 0 {
		indent = 0
	}
	return items, indent, true
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

// join returns the contiguous bytes spanned by consecutive lines (they are
// sub-slices of one buffer, so no copy is made).
func join(lines [][]byte) []byte {
	if len(lines) == 0 {
		return nil
	}
	first, last := lines[0], lines[len(lines)-1]
	return first[:cap(first)-cap(last)+len(last)]
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
func isBlankOrComment(line []byte) bool {
	t := line[leadingSpaces(line):]
	return len(t) == 0 || t[0] == '#' || t[0] == '\n' || (t[0] == '\r' && len(t) > 1 && t[1] == '\n')
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
