package fn

import (
	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// lintInput gathers the decoded NFD items for the lint checks, those that
// did not decode cleanly included (marked rejected), and remembers which
// item each document is.
func lintInput(rl *krm.ResourceList, s Settings) (*lint.Input, map[*lint.Document]*krm.Item) {
	in := &lint.Input{Options: s.Options}
	items := map[*lint.Document]*krm.Item{}
	for _, it := range rl.Items {
		d, ok := it.Decoded.(*decodedNFD)
		if !ok || it.ParseErr != nil {
			continue
		}
		doc := &lint.Document{File: it.File, Index: it.Index}
		items[doc] = it
		rejected := len(d.errs) > 0
		switch o := d.obj.(type) {
		case *api.NodeFeatureRule:
			in.Rules = append(in.Rules, lint.Object[*api.NodeFeatureRule]{Doc: doc, Obj: o, Rejected: rejected})
		case *api.NodeFeatureGroup:
			in.Groups = append(in.Groups, lint.Object[*api.NodeFeatureGroup]{Doc: doc, Obj: o, Rejected: rejected})
		case *api.NodeFeature:
			in.Features = append(in.Features, lint.Object[*api.NodeFeature]{Doc: doc, Obj: o, Rejected: rejected})
		}
	}
	return in, items
}

// findings records lint findings as results about their items.
func (r *results) findings(fs []lint.Finding, items map[*lint.Document]*krm.Item) {
	for i := range fs {
		res := fs[i].Result()
		if it := items[fs[i].Doc]; it != nil {
			r.setItem(res, it, fs[i].Field)
		}
		r.mu.Lock()
		r.fixed = append(r.fixed, res)
		r.mu.Unlock()
	}
}

// lintRendered adds the lint checks to a render: the static ones the
// render itself does not report, and the fleet checks on what the rules
// did on each node.
func lintRendered(rl *krm.ResourceList, s Settings, rendered []master.NodeResult, r *results) {
	in, items := lintInput(rl, s)
	in.Rendering = true
	findings := lint.Static(in)
	outcomes := make([]lint.NodeOutcome, len(rendered))
	for i := range rendered {
		outcomes[i] = lint.NodeOutcome{Name: rendered[i].Name, Results: rendered[i].Rules}
	}
	findings = append(findings, lint.Fleet(in, outcomes)...)
	lint.Sort(findings)
	r.findings(findings, items)
}
