package engine

import (
	"slices"
	"sync"
	"text/template/parse"

	"github.com/Masterminds/sprig/v3"
)

// builtinFuncs are text/template's own functions, which every release's
// templates have.
var builtinFuncs = setOf("and", "or", "not", "len", "index", "slice", "print", "printf", "println",
	"urlquery", "js", "html", "eq", "ne", "lt", "le", "gt", "ge", "call")

var (
	sprigNamesOnce sync.Once
	sprigNames     map[string]any
)

// SprigFuncsIn lists, sorted, the Sprig functions a template calls (none
// before NFD v0.18: release.SprigFuncs), but env, expandenv and
// getHostByName, which v0.19 removes again. A template that does not
// parse lists none.
func SprigFuncsIn(text string) []string {
	sprigNamesOnce.Do(func() {
		sprigNames = map[string]any{}
		for name, fn := range sprig.TxtFuncMap() {
			sprigNames[name] = fn
		}
	})
	trees, err := parse.Parse("t", text, "{{", "}}", sprigNames, builtinNames())
	if err != nil {
		return nil
	}
	used := map[string]bool{}
	for _, tree := range trees {
		walkIdentifiers(tree.Root, func(name string) {
			if !builtinFuncs[name] && sprigNames[name] != nil && !slices.Contains(removedTemplateFuncs, name) {
				used[name] = true
			}
		})
	}
	out := make([]string, 0, len(used))
	for name := range used {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func builtinNames() map[string]any {
	m := make(map[string]any, len(builtinFuncs))
	for name := range builtinFuncs {
		m[name] = true
	}
	return m
}

// walkIdentifiers calls fn with every function name n calls.
func walkIdentifiers(n parse.Node, fn func(string)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				walkIdentifiers(c, fn)
			}
		}
	case *parse.ActionNode:
		walkIdentifiers(n.Pipe, fn)
	case *parse.PipeNode:
		if n != nil {
			for _, c := range n.Cmds {
				walkIdentifiers(c, fn)
			}
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			walkIdentifiers(a, fn)
		}
	case *parse.IdentifierNode:
		fn(n.Ident)
	case *parse.IfNode:
		walkBranch(&n.BranchNode, fn)
	case *parse.RangeNode:
		walkBranch(&n.BranchNode, fn)
	case *parse.WithNode:
		walkBranch(&n.BranchNode, fn)
	case *parse.TemplateNode:
		walkIdentifiers(n.Pipe, fn)
	}
}

func walkBranch(b *parse.BranchNode, fn func(string)) {
	walkIdentifiers(b.Pipe, fn)
	walkIdentifiers(b.List, fn)
	if b.ElseList != nil {
		walkIdentifiers(b.ElseList, fn)
	}
}
