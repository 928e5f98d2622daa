package lint

import (
	"fmt"
	"strings"
	"text/template/parse"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// templatePaths checks labelsTemplate and varsTemplate for reads that can
// never find data: the template sees the matched features nested by
// domain, then feature (.pci.device, or index . "pci" "device"), so
// index . "pci.device" looks up a key that never exists and yields
// nothing wherever the rule matches (NFD issue: templates written after
// the feature names).
func (c *checker) templatePaths() {
	for _, r := range c.allRules() {
		for _, t := range []struct{ field, text string }{{"labelsTemplate", r.rule.LabelsTemplate}, {"varsTemplate", r.rule.VarsTemplate}} {
			if t.text == "" {
				continue
			}
			for _, key := range dottedIndexKeys(t.text) {
				domain, feature, _ := strings.Cut(key, ".")
				c.add(r.doc, r.ref, diag.Error, "template", r.field+"."+t.field, false,
					fmt.Sprintf("template reads index . %q, a key the template data never has: features are nested by domain, then name; write .%s.%s or index . %q %q", key, domain, feature, domain, feature))
			}
		}
	}
}

// dottedIndexKeys parses a template (function names unchecked: the
// engine reports unknown ones) and returns the string keys containing a
// dot that an index call looks up directly in the top-level data.
func dottedIndexKeys(text string) []string {
	tree := parse.New("t")
	tree.Mode = parse.SkipFuncCheck
	if _, err := tree.Parse(text, "{{", "}}", map[string]*parse.Tree{}); err != nil || tree.Root == nil {
		return nil // the engine reports templates that do not parse
	}
	var keys []string
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			if len(n.Args) >= 3 && isIdent(n.Args[0], "index") && isTopData(n.Args[1]) {
				if s, ok := n.Args[2].(*parse.StringNode); ok && strings.Contains(s.Text, ".") {
					keys = append(keys, s.Text)
				}
			}
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		}
	}
	walk(tree.Root)
	return keys
}

func isIdent(n parse.Node, name string) bool {
	id, ok := n.(*parse.IdentifierNode)
	return ok && id.Ident == name
}

// isTopData reports the template's top-level data: "." outside range and
// with (approximated as any dot) or "$".
func isTopData(n parse.Node) bool {
	switch n := n.(type) {
	case *parse.DotNode:
		return true
	case *parse.VariableNode:
		return len(n.Ident) == 1 && n.Ident[0] == "$"
	}
	return false
}
