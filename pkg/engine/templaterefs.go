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

// templateRef is a featureRef and whether every execution reaches it:
// conditional is set when all its uses sit in the body or else branch of
// an if, with or range.
type templateRef struct {
	featureRef
	conditional bool
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
func (t *kvTemplate) rootRefs() []templateRef {
	if t == nil || t.tmpl == nil || t.tmpl.Tree == nil {
		return nil
	}
	w := &refWalker{seen: map[featureRef]int{}, funcs: map[string]bool{}}
	w.list(t.tmpl.Tree.Root, walkCtx{rootDot: true})
	return w.refs
}

// funcNames lists the functions a template calls, in order of first use.
func (t *kvTemplate) funcNames() []string {
	if t == nil || t.tmpl == nil {
		return nil
	}
	w := &refWalker{seen: map[featureRef]int{}, funcs: map[string]bool{}}
	for _, tt := range t.tmpl.Templates() {
		if tt.Tree != nil {
			w.list(tt.Tree.Root, walkCtx{})
		}
	}
	return w.funcNames
}

type refWalker struct {
	refs      []templateRef
	seen      map[featureRef]int
	funcs     map[string]bool
	funcNames []string
}

// walkCtx is where the walker is: whether dot is still the root data, and
// whether the current part runs only under a condition.
type walkCtx struct {
	rootDot, conditional bool
}

func (w *refWalker) list(l *parse.ListNode, c walkCtx) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		w.node(n, c)
	}
}

func (w *refWalker) node(n parse.Node, c walkCtx) {
	switch n := n.(type) {
	case *parse.ActionNode:
		w.pipe(n.Pipe, c)
	case *parse.IfNode:
		w.branch(&n.BranchNode, c, true)
	case *parse.RangeNode:
		w.branch(&n.BranchNode, c, false)
	case *parse.WithNode:
		w.branch(&n.BranchNode, c, false)
	case *parse.TemplateNode:
		w.pipe(n.Pipe, c)
	case *parse.ListNode:
		w.list(n, c)
	}
}

// branch walks if/range/with: the body keeps the root dot only for if;
// body and else run only under the condition.
func (w *refWalker) branch(b *parse.BranchNode, c walkCtx, bodyKeepsDot bool) {
	w.pipe(b.Pipe, c)
	w.list(b.List, walkCtx{rootDot: c.rootDot && bodyKeepsDot, conditional: true})
	w.list(b.ElseList, walkCtx{rootDot: c.rootDot, conditional: true})
}

func (w *refWalker) pipe(p *parse.PipeNode, c walkCtx) {
	if p == nil {
		return
	}
	for _, cmd := range p.Cmds {
		for _, arg := range cmd.Args {
			w.arg(arg, c)
		}
	}
}

func (w *refWalker) arg(n parse.Node, c walkCtx) {
	switch n := n.(type) {
	case *parse.FieldNode:
		if c.rootDot {
			w.add(n.Ident, c.conditional)
		}
	case *parse.VariableNode:
		if len(n.Ident) > 1 && n.Ident[0] == "$" {
			w.add(n.Ident[1:], c.conditional)
		}
	case *parse.IdentifierNode:
		if !w.funcs[n.Ident] {
			w.funcs[n.Ident] = true
			w.funcNames = append(w.funcNames, n.Ident)
		}
	case *parse.PipeNode:
		w.pipe(n, c)
	case *parse.ChainNode:
		w.arg(n.Node, c)
	}
}

func (w *refWalker) add(idents []string, conditional bool) {
	r := featureRef{domain: idents[0]}
	if len(idents) > 1 {
		r.feature = idents[1]
	}
	i, ok := w.seen[r]
	if !ok {
		w.seen[r] = len(w.refs)
		w.refs = append(w.refs, templateRef{featureRef: r, conditional: conditional})
		return
	}
	w.refs[i].conditional = w.refs[i].conditional && conditional
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
			// Failing wherever the rule matches is certain (an error); failing
			// only through some matchAny elements, or only when a
			// conditional part runs, depends on the fleet (a warning, made an
			// error by the pipeline when the fleet hits it).
			where, sev := "wherever the rule matches", SeverityError
			if len(missing) < total {
				where, sev = "whenever it matches through "+strings.Join(missing, ", "), SeverityWarning
			}
			if ref.conditional {
				sev, where = SeverityWarning, where+" and that part of the template runs"
			}
			report(sev, r.field+"."+nt.field,
				"template references %s, but no term of %s matches that feature: nfd-master fails the rule %s (templates only see the features of the matcher that matched)",
				ref.featureRef, strings.Join(missing, ", "), where)
		}
	}
}
