package yamlstrict

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Locate finds the node a field path points at inside root, for reporting
// positions. It returns the key node of the last mapping entry on the path
// when keyNode is true, else its value node. When the path leads outside
// the document it returns the deepest node that exists, so a position is
// always available for a non-nil root. Unquoted segments may themselves
// contain dots (matchExpressions.sgx.enabled.op); the longest key that
// exists wins.
func Locate(root *yaml.Node, path string, keyNode bool) *yaml.Node {
	n := Resolve(root)
	var key *yaml.Node
	segs := splitPath(path)
	for i := 0; i < len(segs) && n != nil; i++ {
		seg := segs[i]
		switch {
		case seg.index >= 0:
			if n.Kind != yaml.SequenceNode || seg.index >= len(n.Content) {
				return pick(n, key, false)
			}
			n, key = Resolve(n.Content[seg.index]), nil
		default:
			if n.Kind != yaml.MappingNode {
				return pick(n, key, keyNode)
			}
			k, v, used := lookupKey(n, segs[i:])
			if v == nil {
				return pick(n, key, keyNode)
			}
			i += used - 1
			n, key = Resolve(v), k
		}
	}
	return pick(n, key, keyNode)
}

func pick(n, key *yaml.Node, keyNode bool) *yaml.Node {
	if keyNode && key != nil {
		return key
	}
	return n
}

// lookupKey finds the mapping entry for segs[0], or for the longest run of
// plain segments joined with dots.
func lookupKey(m *yaml.Node, segs []pathSeg) (k, v *yaml.Node, used int) {
	name := ""
	for j, s := range segs {
		if s.index >= 0 || (j > 0 && s.quoted) {
			break
		}
		if j == 0 {
			name = s.name
		} else {
			name += "." + s.name
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == name {
				k, v, used = m.Content[i], m.Content[i+1], j+1
			}
		}
		if s.quoted {
			break
		}
	}
	return k, v, used
}

type pathSeg struct {
	name   string
	quoted bool
	index  int
}

// splitPath splits a.b[2]["c.d"] into a, b, [2], "c.d".
func splitPath(path string) []pathSeg {
	var segs []pathSeg
	for path != "" {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := closingBracket(path)
			inner := path[1:end]
			if s, err := strconv.Unquote(inner); err == nil {
				segs = append(segs, pathSeg{name: s, quoted: true, index: -1})
			} else if i, err := strconv.Atoi(inner); err == nil {
				segs = append(segs, pathSeg{index: i})
			} else {
				segs = append(segs, pathSeg{name: inner, quoted: true, index: -1})
			}
			path = path[min(end+1, len(path)):]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			segs = append(segs, pathSeg{name: path[:end], index: -1})
			path = path[end:]
		}
	}
	return segs
}

// closingBracket finds the ] that ends the bracket at path[0], skipping a
// quoted key.
func closingBracket(path string) int {
	if len(path) > 1 && path[1] == '"' {
		for i := 2; i < len(path); i++ {
			switch path[i] {
			case '\\':
				i++
			case '"':
				if i+1 < len(path) && path[i+1] == ']' {
					return i + 1
				}
			}
		}
	}
	if end := strings.IndexByte(path, ']'); end > 0 {
		return end
	}
	return len(path) - 1
}
