package yamlstrict

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// ErrLimit is wrapped by every error about a limit on untrusted YAML being
// exceeded (internal/krm's ErrLimit is the same value).
var ErrLimit = errors.New("over a limit")

// CheckTree walks n with its aliases expanded and fails once it nests
// deeper than maxDepth or reaches more than maxAliasNodes nodes through
// aliases. A billion-laughs document stops at maxAliasNodes, an alias to
// its own anchor at maxDepth; the walk itself costs at most the size of n
// plus maxAliasNodes. Run it before any code that follows aliases (typed
// decoding, a walk that resolves them) meets the tree.
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
		for _, c := range n.Content {
			if err := w.walk(c, depth+1, viaAlias); err != nil {
				return err
			}
		}
	}
	return nil
}
