package fn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
)

// section is one top-level key of the ResourceList document, as raw text.
type section struct {
	key string
	// raw is the whole section text, key line included.
	raw []byte
}

// splitDocument is the fast path for block-style ResourceLists (what kpt
// and kustomize write): it cuts the document into top-level sections and
// the items sequence into one raw chunk per item, without building a YAML
// tree of the whole input. Items then pass through byte for byte, comments
// and formatting included, and only the items nfd-fn reads are parsed.
// It returns ok=false when the document is not in the simple block layout
// it understands; the caller then parses the document whole.
func splitDocument(data []byte) (sections []section, items [][]byte, indent int, ok bool) {
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
			return nil, nil, 0, false
		}
		key, rest, isKey := topLevelKey(line)
		if !isKey {
			return nil, nil, 0, false
		}
		end := i + 1
		for end < len(lines) && !startsTopLevelKey(lines[end]) {
			end++
		}
		if key == "items" {
			if len(bytes.TrimSpace(rest)) != 0 && !isComment(bytes.TrimSpace(rest)) {
				return nil, nil, 0, false // flow style or scalar
			}
			var good bool
			items, indent, good = splitItems(lines[i+1 : end])
			if !good {
				return nil, nil, 0, false
			}
			sections = append(sections, section{key: key})
		} else {
			sections = append(sections, section{key: key, raw: join(lines[i:end])})
		}
		i = end
	}
	if len(sections) == 0 {
		return nil, nil, 0, false // empty: let the full parser say so
	}
	return sections, items, indent, true
}

// splitItems cuts the lines of a block sequence into items. Every item
// starts with "- " at the sequence's indentation; deeper lines belong to it.
func splitItems(lines [][]byte) (items [][]byte, indent int, ok bool) {
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
				items = append(items, join(lines[start:j]))
			}
			start = j
		} else if start < 0 {
			return nil, 0, false
		}
	}
	if start >= 0 {
		items = append(items, join(lines[start:]))
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

// parseOneDocument parses data as exactly one YAML (or JSON) document
// holding a mapping.
func parseOneDocument(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("the input is empty: expected a ResourceList")
		}
		return nil, fmt.Errorf("parsing the ResourceList: %w", err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == io.EOF:
	case err != nil:
		return nil, fmt.Errorf("parsing the ResourceList: %w", err)
	case docContent(&next) != nil && !yamlNull(docContent(&next)):
		return nil, fmt.Errorf("the input holds more than one YAML document (a second one starts at line %d): nfd-fn reads one ResourceList", next.Line)
	}
	root := docContent(&doc)
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the input is not a ResourceList: expected a YAML mapping with items")
	}
	return root, nil
}

// isJSON reports whether the input is a JSON document (an object).
func isJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(data)
}

func yamlNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		return fmt.Sprintf("the scalar %q", n.Value)
	}
	return "something else"
}
