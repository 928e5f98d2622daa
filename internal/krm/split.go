package krm

import (
	"bytes"
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
// It returns ok=false when the document is not in the simple block layout
// it understands; the caller then parses the document whole.
func splitDocument(data []byte) (sp split, ok bool) {
	lines := splitLines(data)
	i := 0
	// Skip a leading document marker, comments and blank lines.
	for i < len(lines) && (isBlankOrComment(lines[i]) || bytes.HasPrefix(lines[i], []byte("---"))) {
		i++
	}
	for i < len(lines) {
		line := lines[i]
		if isBlankOrComment(line) {
			i++
			continue
		}
		if bytes.HasPrefix(line, []byte("...")) || bytes.HasPrefix(line, []byte("---")) {
			// A second document or an end marker: leave it to the full parser.
			return split{}, false
		}
		key, rest, isKey := topLevelKey(line)
		if !isKey {
			return split{}, false
		}
		end := i + 1
		for end < len(lines) && !startsTopLevelKey(lines[end]) {
			end++
		}
		if key == "items" {
			if len(bytes.TrimSpace(rest)) != 0 && !isComment(bytes.TrimSpace(rest)) {
				return split{}, false // flow style or scalar
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
			rest := line[sp:]
			if !(len(rest) == 1 && rest[0] == '-') && !bytes.HasPrefix(rest, []byte("- ")) {
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

// itemBody turns a raw item chunk ("- a: b\n  c: d") into a YAML document
// by blanking the sequence dash, keeping every column where it was.
func itemBody(chunk []byte, indent int) []byte {
	body := make([]byte, len(chunk))
	copy(body, chunk)
	if indent < len(body) && body[indent] == '-' {
		body[indent] = ' '
	}
	return body
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

func isComment(b []byte) bool { return len(b) > 0 && b[0] == '#' }

func isBlankOrComment(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) == 0 || t[0] == '#'
}

func startsTopLevelKey(line []byte) bool {
	_, _, ok := topLevelKey(line)
	return ok
}

// topLevelKey recognises "key:" or "key: value" at column 0.
func topLevelKey(line []byte) (key string, rest []byte, ok bool) {
	if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '-' || line[0] == '#' {
		return "", nil, false
	}
	i := bytes.IndexByte(line, ':')
	if i <= 0 {
		return "", nil, false
	}
	k := bytes.Trim(line[:i], `"'`)
	for _, c := range k {
		if !(c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return "", nil, false
		}
	}
	after := line[i+1:]
	if len(after) > 0 && after[0] != ' ' && after[0] != '\n' && after[0] != '\r' {
		return "", nil, false
	}
	return string(k), after, true
}
