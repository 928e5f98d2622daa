package engine

import (
	"fmt"
	"strings"
	"text/template/parse"
)

// featureRef is a .<domain>.<feature> reference a template evaluates
// against its root data; feature is "" for a bare .<domain>.
type featureRef struct {
	domain, feature string
}

func (r featureRef) String() string {
	if r.feature == "" {
		return "." + r.domain
	}
	return "." + r.domain + "." + r.feature
}

// rootRefs lists the feature references a template makes against its root
// data: fields while dot is still the root, and $.<domain>.<feature>
// anywhere. References below a range or with, where dot is an element,
// are not features.
func (t *kvTemplate) rootRefs() []featureRef {
	if t == nil || t.tmpl.Tree == nil {
		return nil
	}
	w := &refWalker{seen: map[featureRef]bool{}}
	w.list(t.tmpl.Tree.Root, true)
	return w.refs
}

type refWalker struct {
	refs []featureRef
	seen map[featureRef]bool
}

func (w *refWalker) list(l *parse.ListNode, rootDot bool) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		w.node(n, rootDot)
	}
}

func (w *refWalker) node(n parse.Node, rootDot bool) {
	switch n := n.(type) {
	case *parse.ActionNode:
		w.pipe(n.Pipe, rootDot)
	case *parse.IfNode:
		w.branch(&n.BranchNode, rootDot, true)
	case *parse.RangeNode:
		w.branch(&n.BranchNode, rootDot, false)
	case *parse.WithNode:
		w.branch(&n.BranchNode, rootDot, false)
	case *parse.TemplateNode:
		w.pipe(n.Pipe, rootDot)
	case *parse.ListNode:
		w.list(n, rootDot)
	}
}

// branch walks if/range/with: the body keeps the root dot only for if.
func (w *refWalker) branch(b *parse.BranchNode, rootDot, bodyKeepsDot bool) {
	w.pipe(b.Pipe, rootDot)
	w.list(b.List, rootDot && bodyKeepsDot)
	w.list(b.ElseList, rootDot)
}

func (w *refWalker) pipe(p *parse.PipeNode, rootDot bool) {
	if p == nil {
		return
	}
	for _, c := range p.Cmds {
		for _, arg := range c.Args {
			w.arg(arg, rootDot)
		}
	}
}

func (w *refWalker) arg(n parse.Node, rootDot bool) {
	switch n := n.(type) {
	case *parse.FieldNode:
		if rootDot {
			w.add(n.Ident)
		}
	case *parse.VariableNode:
		if len(n.Ident) > 1 && n.Ident[0] == "$" {
			w.add(n.Ident[1:])
		}
	case *parse.PipeNode:
		w.pipe(n, rootDot)
	case *parse.ChainNode:
		w.arg(n.Node, rootDot)
	}
}

func (w *refWalker) add(idents []string) {
	r := featureRef{domain: idents[0]}
	if len(idents) > 1 {
		r.feature = idents[1]
	}
	if !w.seen[r] {
		w.seen[r] = true
		w.refs = append(w.refs, r)
	}
}

// dataKeys are the template data keys a matcher provides: domain to the
// set of feature keys.
func (m matcher) dataKeys() map[string]map[string]bool {
	keys := map[string]map[string]bool{}
	for _, t := range m {
		if keys[t.domain] == nil {
			keys[t.domain] = map[string]bool{}
		}
		keys[t.domain][t.featureKey] = true
	}
	return keys
}

func (r featureRef) in(keys map[string]map[string]bool) bool {
	feats, ok := keys[r.domain]
	return ok && (r.feature == "" || feats[r.feature])
}

// templateRefDiagnostics reports template references to features that no
// matcher the template runs with provides: with missingkey=error nfd-master
// fails the rule wherever it matches through that matcher.
func templateRefDiagnostics(r *rule, report reportFunc) {
	type named struct {
		field string
		t     *kvTemplate
	}
	for _, nt := range []named{{"labelsTemplate", r.labelsTemplate}, {"varsTemplate", r.varsTemplate}} {
		for _, ref := range nt.t.rootRefs() {
			var missing []string
			total := 0
			if len(r.matchFeatures) > 0 {
				total++
				if !ref.in(r.matchFeatures.dataKeys()) {
					missing = append(missing, "matchFeatures")
				}
			}
			for i, m := range r.matchAny {
				total++
				if !ref.in(m.dataKeys()) {
					missing = append(missing, fmt.Sprintf("matchAny[%d]", i))
				}
			}
			if len(missing) == 0 {
				continue
			}
			where := "wherever the rule matches"
			if len(missing) < total {
				where = "whenever it matches through " + strings.Join(missing, ", ")
			}
			report(SeverityError, r.field+"."+nt.field,
				"template references %s, but no term of %s matches that feature: nfd-master fails the rule %s (templates only see the features of the matcher that matched)",
				ref, strings.Join(missing, ", "), where)
		}
	}
}
