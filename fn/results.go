package fn

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// maxNodesListed caps the node names spelled out in one result.
const maxNodesListed = 5

// results collects KRM results. Per-node problems with the same object,
// field and message are folded into one result that names the nodes, so a
// fleet of a thousand nodes does not produce a thousand copies.
type results struct {
	mu     sync.Mutex
	items  []*krm.Item
	fixed  []*framework.Result
	folded map[foldKey]*foldedResult
	order  []foldKey
	// static maps an object and rule path to the indexes in fixed of the
	// compile-time diagnostics about that rule.
	static map[string][]int
}

type foldKey struct {
	sev     engine.Severity
	object  engine.ObjectRef
	field   string
	message string
}

type foldedResult struct {
	nodes []string
}

// add records a result about an item.
func (r *results) add(sev engine.Severity, it *krm.Item, field, msg string) {
	res := &framework.Result{Severity: framework.Severity(sev), Message: msg}
	if it != nil {
		r.setItem(res, it, field)
	}
	r.mu.Lock()
	r.fixed = append(r.fixed, res)
	r.mu.Unlock()
}

// setItem points a result at an item and a field in it.
func (r *results) setItem(res *framework.Result, it *krm.Item, field string) {
	res.ResourceRef = &kyaml.ResourceIdentifier{TypeMeta: kyaml.TypeMeta{APIVersion: it.APIVersion, Kind: it.Kind},
		NameMeta: kyaml.NameMeta{Name: it.Name, Namespace: it.Namespace}}
	if field != "" {
		if res.Field == nil {
			res.Field = &framework.Field{}
		}
		res.Field.Path = field
	}
	if it.File != "" {
		res.File = &framework.File{Path: it.File, Index: it.Index}
	}
}

// config records a functionConfig problem.
func (r *results) config(fc *yaml.Node, p configProblem) {
	sev := engine.SeverityError
	if p.warning {
		sev = engine.SeverityWarning
	}
	it := &krm.Item{}
	if fc != nil {
		it.SetNode(fc)
	} else {
		it.APIVersion, it.Kind, it.Name = "v1", "ConfigMap", "functionConfig"
	}
	r.add(sev, it, p.field, "functionConfig: "+p.msg)
}

// diagnostics records compile-time diagnostics.
func (r *results) diagnostics(diags []engine.Diagnostic) {
	for _, d := range diags {
		r.add(d.Severity, r.find(d.Object), d.Field, d.Message)
		if r.static == nil {
			r.static = map[string][]int{}
		}
		key := d.Object.String() + "|" + rulePath(d.Field)
		r.static[key] = append(r.static[key], len(r.fixed)-1)
	}
}

// rulePath cuts a field path to the rule it is in: spec.rules[3].
func rulePath(field string) string {
	for _, prefix := range []string{"spec.rules[", "spec.featureGroupRules["} {
		if strings.HasPrefix(field, prefix) {
			if i := strings.Index(field[len(prefix):], "]"); i >= 0 {
				return field[:len(prefix)+i+1]
			}
		}
	}
	return field
}

// problems records the per-node problems of one node.
func (r *results) problems(node string, ps []master.Problem) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.folded == nil {
		r.folded = map[foldKey]*foldedResult{}
	}
	for _, p := range ps {
		if p.StaticRule != "" {
			if idx, ok := r.static[p.Object.String()+"|"+p.StaticRule]; ok {
				for _, i := range idx {
					r.addNodeToTag(r.fixed[i], node)
				}
				continue
			}
		}
		k := foldKey{p.Severity, p.Object, p.Field, p.Message}
		f, ok := r.folded[k]
		if !ok {
			f = &foldedResult{}
			r.folded[k] = f
			r.order = append(r.order, k)
		}
		f.nodes = append(f.nodes, node)
	}
}

// addNodeToTag counts the nodes a static diagnostic applied to.
func (r *results) addNodeToTag(res *framework.Result, node string) {
	if res.Tags == nil {
		res.Tags = map[string]string{}
	}
	nodes := res.Tags["nodes"]
	if nodes != "" {
		nodes += ","
	}
	res.Tags["nodes"] = nodes + node
}

func (r *results) find(o engine.ObjectRef) *krm.Item {
	for _, it := range r.items {
		if it.Kind == o.Kind && it.Name == o.Name && it.Namespace == o.Namespace {
			return it
		}
	}
	return &krm.Item{APIVersion: api.APIVersion, Kind: o.Kind, Name: o.Name, Namespace: o.Namespace}
}

// all returns every result in a stable order.
func (r *results) all() []*framework.Result {
	out := append([]*framework.Result(nil), r.fixed...)
	for _, res := range out {
		if nodes := res.Tags["nodes"]; nodes != "" {
			list := strings.Split(nodes, ",")
			sort.Strings(list)
			res.Message += fmt.Sprintf(" (hit on %s)", describeNodes(list))
			delete(res.Tags, "nodes")
			if len(res.Tags) == 0 {
				res.Tags = nil
			}
		}
	}
	keys := append([]foldKey(nil), r.order...)
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.object != b.object {
			return a.object.String() < b.object.String()
		}
		if a.field != b.field {
			return a.field < b.field
		}
		return a.message < b.message
	})
	for _, k := range keys {
		nodes := r.folded[k].nodes
		sort.Strings(nodes)
		it := r.find(k.object)
		res := &framework.Result{Severity: framework.Severity(k.sev), Message: fmt.Sprintf("%s: %s", describeNodes(nodes), k.message)}
		res.ResourceRef = &kyaml.ResourceIdentifier{TypeMeta: kyaml.TypeMeta{APIVersion: it.APIVersion, Kind: it.Kind},
			NameMeta: kyaml.NameMeta{Name: it.Name, Namespace: it.Namespace}}
		if k.field != "" {
			res.Field = &framework.Field{Path: k.field}
		}
		if it.File != "" {
			res.File = &framework.File{Path: it.File, Index: it.Index}
		}
		out = append(out, res)
	}
	return out
}

func describeNodes(nodes []string) string {
	if len(nodes) == 1 {
		return "node " + nodes[0]
	}
	if len(nodes) <= maxNodesListed {
		return fmt.Sprintf("%d nodes (%s)", len(nodes), strings.Join(nodes, ", "))
	}
	return fmt.Sprintf("%d nodes (%s, ...)", len(nodes), strings.Join(nodes[:maxNodesListed], ", "))
}

// exitCode is 1 when any error result exists.
func (r *results) exitCode() int {
	for _, res := range r.fixed {
		if res.Severity == framework.Error {
			return 1
		}
	}
	for _, k := range r.order {
		if k.sev == engine.SeverityError {
			return 1
		}
	}
	return 0
}
