package yamlstrict

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// The limits every reader of untrusted YAML applies to one document (a
// ResourceList item or section, a file's document, a provider config):
// internal/krm's defaults and pkg/objects' file reading use these values.
const (
	// MaxDepth caps the nesting of mappings and sequences, aliases
	// expanded.
	MaxDepth = 1000
	// MaxAliasNodes caps the nodes reached through aliases when they are
	// expanded: a billion-laughs document stops here.
	MaxAliasNodes = 100_000
)

// ErrLimit is wrapped by every error about a limit on untrusted YAML being
// exceeded (internal/krm's ErrLimit is the same value).
var ErrLimit = errors.New("over a limit")

// CheckTree walks n with its aliases expanded and fails once it nests
// deeper than maxDepth or reaches more than maxAliasNodes nodes through
// aliases, or when a mapping gives one key twice (YAML forbids it, and
// strict readers such as kubectl and yaml.Unmarshal refuse the whole
// document, so such an object must not be echoed into an output that
// then fails to parse). A billion-laughs document stops at maxAliasNodes,
// an alias to its own anchor at maxDepth; the walk itself costs at most
// the size of n plus maxAliasNodes. Run it before any code that follows
// aliases (typed decoding, a walk that resolves them) meets the tree.
func CheckTree(n *yaml.Node, maxDepth, maxAliasNodes int) error {
	w := treeWalk{maxDepth: maxDepth, maxAlias: maxAliasNodes}
	return w.walk(n, 0, false)
}

type treeWalk struct {
	maxDepth, maxAlias int
	// aliased counts the nodes reached through aliases so far.
	aliased int
}

func (w *treeWalk) walk(n *yaml.Node, depth int, viaAlias bool) error {
	if n == nil {
		return nil
	}
	if viaAlias {
		w.aliased++
		if w.aliased > w.maxAlias {
			return fmt.Errorf("%w: its aliases expand to more than %d nodes", ErrLimit, w.maxAlias)
		}
	}
	switch n.Kind {
	case yaml.AliasNode:
		return w.walk(n.Alias, depth, true)
	case yaml.MappingNode, yaml.SequenceNode, yaml.DocumentNode:
		if depth >= w.maxDepth {
			return fmt.Errorf("%w: nested deeper than %d levels", ErrLimit, w.maxDepth)
		}
		if n.Kind == yaml.MappingNode && !viaAlias {
			if err := duplicateKey(n); err != nil {
				return err
			}
		}
		for _, c := range n.Content {
			if err := w.walk(c, depth+1, viaAlias); err != nil {
				return err
			}
		}
	}
	return nil
}

// ErrDuplicateKey is wrapped by the error about a key given twice in one
// mapping.
var ErrDuplicateKey = errors.New("duplicate mapping key")

// duplicateKey reports a scalar key given twice in mapping m, naming both
// lines. Keys are compared as YAML resolves them (tag and value), so 1
// and "1" are different keys. Small mappings are compared pairwise, large
// ones through a map: linear either way.
func duplicateKey(m *yaml.Node) error {
	const small = 16
	pairs := len(m.Content) / 2
	if pairs < 2 {
		return nil
	}
	if pairs <= small {
		for i := 0; i < pairs; i++ {
			for j := i + 1; j < pairs; j++ {
				if sameKey(m.Content[2*i], m.Content[2*j]) {
					return duplicateError(m.Content[2*i], m.Content[2*j])
				}
			}
		}
		return nil
	}
	seen := make(map[[2]string]*yaml.Node, pairs)
	for i := 0; i < pairs; i++ {
		k := m.Content[2*i]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		id := [2]string{k.ShortTag(), k.Value}
		if first, dup := seen[id]; dup {
			return duplicateError(first, k)
		}
		seen[id] = k
	}
	return nil
}

func sameKey(a, b *yaml.Node) bool {
	return a.Kind == yaml.ScalarNode && b.Kind == yaml.ScalarNode && a.Value == b.Value && a.ShortTag() == b.ShortTag()
}

func duplicateError(first, second *yaml.Node) error {
	return &DuplicateKeyError{Key: first.Value, FirstLine: first.Line, Line: second.Line, Column: second.Column}
}

// DuplicateKeyError is a key given twice in one mapping; it wraps
// ErrDuplicateKey. Its lines count from the start of the text the tree
// was parsed from; a caller that parsed a piece of a larger input shifts
// them (Shift).
type DuplicateKeyError struct {
	Key             string
	FirstLine, Line int
	// Column is the second key's column.
	Column int
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("key %q is given twice, at lines %d and %d", e.Key, e.FirstLine, e.Line)
}

// Unwrap returns ErrDuplicateKey.
func (e *DuplicateKeyError) Unwrap() error { return ErrDuplicateKey }

// Shift moves the lines by offset lines.
func (e *DuplicateKeyError) Shift(offset int) {
	e.FirstLine += offset
	e.Line += offset
}
