package fn

import (
	"fmt"
	"io"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// renderList is mode render over a ResourceList: its domain part is
// modes.Render (prepare, shard, stream, the fleet check and summary, then
// Finish: lint, explain, Nova, uncovered, suppress); renderList is the
// streaming adapter over it, writing the rendered Nodes and
// NodeFeatureGroup status into the list's items.
//
// Nodes are rendered a few at a time (master.Stream) and none is kept: a
// node with a Node object in the input is rendered before the list is
// written and updated in place; the new Nodes follow the input's items
// and are rendered as they are written (krm.ResourceList.SetTail). When
// the list holds NodeFeatureGroups every node is rendered first, for the
// groups' members, and new Nodes again as they are written. The Nova
// provider config needs every node at once: with it, nothing is streamed.
//
// The fleet-wide results are known only once every node has been
// rendered: renderList returns finish, which adds them to r and must run
// once the items have been written (it is nil when they are in r already).
func renderList(rl *krm.ResourceList, s config.Settings, r *report, sum *modes.Summary, progressTo io.Writer, stream bool) (finish func()) {
	set := readSet(rl, &s, r)
	worker, problems := listWorkerConfig(rl)
	r.extend(problems)
	for _, it := range rl.Items {
		it.Decoded = nil // the set holds what rendering needs; a fleet holds thousands
	}
	rd := modes.Render(set, s, modes.RenderOptions{Worker: worker, Progress: progress(progressTo), Summary: sum})
	omitOtherShards(rl, set, rd.OtherShards, s.Shard, r)
	keep := s.Nova.Enabled
	// nodeOutput labels writes no Node: each node's view is collected.
	labels := rd.Labels != nil
	r.labels = rd.Labels
	writeNodes(rl, set, rd, s, r, stream && !keep && !labels, keep || labels)
	finish = func() {
		r.extend(r.blind.warning())
		r.list = rd.Finish(r.list, func(nodes []master.NodeResult) diag.List { return writeNova(rl, s, nodes) }, ignoreSource(rl, s))
		locateLean(rl, r.list)
	}
	if keep {
		finish()
		return nil
	}
	return finish
}

// writeNodes renders the nodes of set through rd's stream into the list: Node items
// updated in place, or made as the list is written when stream allows
// (makeNodesAsWritten); new Nodes appended (held: every node is rendered
// before the list is written, with the Nova provider config or the
// labels view, which write none) or made as the list's tail; and the
// NodeFeatureGroups' status.
func writeNodes(rl *krm.ResourceList, set *objects.Set, rd *modes.Rendering, s config.Settings, r *report, stream, held bool) {
	st, keep, labels := rd.Stream, s.Nova.Enabled, rd.Labels != nil
	nodes := nodeObjects(set)
	var made map[string]bool
	if stream {
		made = makeNodesAsWritten(rl, st, nodes, s)
	}
	first, later := renderOrder(rd.Pipeline.NodeNames(), nodes, made, held || st.HasGroups(), !held)
	st.Render(first, func(i int, res *master.NodeResult) {
		switch existing := nodes[res.Name]; {
		case labels || made[res.Name]:
		case existing != nil:
			updateNode(rl, existing, res, s)
		case keep:
			if n := newNode(res, s); n != nil {
				rl.Append(n)
				r.newNodes++
				r.blind.note(n, res.Name, s)
			}
		}
	})
	for _, g := range st.Groups() {
		if !g.StatusKept && setGroupStatus(g.Group.Origin.Node, g.Members) {
			rl.Items[g.Group.Origin.Item].Changed = true
		}
	}
	if held {
		return
	}
	rl.SetTail(func(yield func(*yaml.Node, []byte) error) error {
		var err error
		st.RenderWith(later, func(res *master.NodeResult) any {
			return encodedNode(rl, res, s)
		}, func(_ int, res *master.NodeResult, v any) {
			if n := v.(encoded); n.node != nil && err == nil {
				err = n.err
				if err == nil {
					r.blind.note(n.node, res.Name, s)
					err = yield(n.node, n.text)
					r.newNodes++
				}
			}
		})
		return err
	})
}

// omitOtherShards leaves out of the output the Node objects of the nodes
// other shards render (others), with one info result saying so; with
// NodeFeatureGroups, another says that their status lists this shard's
// members only. A Node inside a List item stays, unrendered.
func omitOtherShards(rl *krm.ResourceList, set *objects.Set, others []string, shard master.Shard, r *report) {
	if !shard.Sharded() {
		return
	}
	other := make(map[string]bool, len(others))
	for _, n := range others {
		other[n] = true
	}
	omitted := 0
	for i := range set.Nodes {
		o := &set.Nodes[i]
		it := rl.Items[o.Origin.Item]
		if other[o.Obj.Name] && it.Kind == "Node" && !it.Omitted {
			it.Omitted = true
			omitted++
		}
	}
	r.add(diag.Info, nil, "", fmt.Sprintf("shard %s: this output holds the nodes whose names hash to shard %d of %d (README: Sharding); "+
		"the other shards render the other %s (%s in the input left out here); fleet-wide checks (matches-no-node, taints-every-node) are skipped",
		shard, shard.Index, shard.Count, diag.Plural(len(others), "node"), diag.Plural(omitted, "Node object")))
	if len(set.Groups) > 0 {
		r.add(diag.Info, nil, "", fmt.Sprintf("shard %s: NodeFeatureGroup status.nodes lists this shard's members only: the union of every shard's lists is the fleet's", shard))
	}
}

// encoded is a new Node item and, for a list that streams, its output
// text, made on the worker that rendered the node.
type encoded struct {
	node *yaml.Node
	text []byte
	err  error
}

// encodedNode builds the new Node item of a rendered node (nil when
// nothing is written for it) and encodes it when the list streams.
func encodedNode(rl *krm.ResourceList, res *master.NodeResult, s config.Settings) encoded {
	n := newNode(res, s)
	if n == nil || !rl.Streams() {
		return encoded{node: n}
	}
	text, err := rl.EncodeItem(nil, n)
	return encoded{node: n, text: text, err: err}
}

// renderOrder lists the nodes (indices into names) rendered before the
// list is written, first: those with a Node object in the input that is
// not made as it is written (made), or every node with all; and with
// tail, the new Nodes rendered (again) as they are written after the
// input's items, later.
func renderOrder(names []string, nodes map[string]*objects.Object[*objects.Node], made map[string]bool, all, tail bool) (first, later []int) {
	for i, name := range names {
		existing := nodes[name] != nil
		if (existing && !made[name]) || all {
			first = append(first, i)
		}
		if !existing && tail {
			later = append(later, i)
		}
	}
	return first, later
}

// makeNodesAsWritten has the Node items of the input that were read lean
// (their trees let go: items of a streaming list, not inside a List item)
// rendered and patched as the list is written, a few at a time, rather
// than all before it (krm.ItemMaker); it returns the names of their nodes.
func makeNodesAsWritten(rl *krm.ResourceList, st *master.Stream, nodes map[string]*objects.Object[*objects.Node], s config.Settings) map[string]bool {
	if !rl.Streams() {
		return nil
	}
	type itemNode struct{ pos, idx int } // item position, node index
	var items []itemNode
	made := map[string]bool{}
	for name, o := range nodes {
		it := rl.Items[o.Origin.Item]
		i, rendered := st.Index(name)
		if o.Origin.Node != nil || it.Kind != "Node" || it.Omitted || !rendered {
			continue
		}
		items = append(items, itemNode{o.Origin.Item, i})
		made[name] = true
	}
	if len(items) == 0 {
		return nil
	}
	slices.SortFunc(items, func(a, b itemNode) int { return a.pos - b.pos })
	pos, idx := make([]int, len(items)), make([]int, len(items))
	for k, in := range items {
		pos[k], idx[k] = in.pos, in.idx
	}
	rl.SetMaker(&krm.ItemMaker{Items: pos,
		Make: func(k int) ([]byte, any, error) {
			res := st.RenderNode(idx[k])
			text, err := nodeText(rl, rl.Items[pos[k]], &nodes[res.Name].Obj.State, res, s)
			return text, res, err
		},
		Made: func(k int, res any) { st.Record(idx[k], res.(*master.NodeResult)) },
	})
	return made
}

// validateList is mode validate (modes.Validate) over the list's objects;
// hand-written Nova provider configs in the package are checked against
// Nova's schema too. given is the worker configuration the run was given
// (nfd-fn validate --worker-config): the rules are checked against it
// instead of a worker ConfigMap among the items, and the workloads among
// the items selecting a label it no longer publishes are warned about
// (modes.WorkerLabelsGone), as over files; the nodes' labels are the
// snapshot's, not recomputed. Items pass through untouched.
func validateList(rl *krm.ResourceList, s config.Settings, given *lint.WorkerConfig, r *report) {
	s.WorkerConfig, s.WorkerConfigFile = nil, ""
	s.AssumeStrict()
	set := readSet(rl, &s, r)
	more := checkProviderConfigs(rl)
	worker, problems := listWorkerConfig(rl)
	r.extend(problems)
	if given != nil {
		worker = given
		// The workloads' own problems are not reported, as over files.
		gone, _ := modes.WorkerLabelsGone(set, &s, given, func() ([]*workload.Workload, error) {
			ws, _ := inputs.Workloads(rl)
			return ws, nil
		})
		more = append(more, gone...)
	}
	r.list = modes.Validate(set, &s, r.list, modes.ValidateOptions{Worker: worker, More: more, IgnoreSource: ignoreSource(rl, s)})
}

// testList is mode test (modes.TestList): each RuleTest among the items
// is checked against the render of the items its inputs name, with its
// own config, workerConfig and nfdVersion where it gives them
// (suiteListSource; testSources), and the results say how each
// fared. Items pass through untouched.
func testList(rl *krm.ResourceList, s config.Settings, over func(*config.Settings) diag.List, r *report) {
	suites, items, problems := listSuites(rl)
	base := r.list
	r.list = problems
	if len(suites) == 0 {
		r.add(diag.Error, nil, "", "mode test: no RuleTest among the items (kind: RuleTest, apiVersion: nfd-fn.dev/v1alpha1)")
		return
	}
	testSources(rl, s, over, base, suites, items, r)
}

// ignoreSource is where the run's suppressions are written: the
// functionConfig's ignore field.
func ignoreSource(rl *krm.ResourceList, s config.Settings) diag.Diagnostic {
	ref, pos := functionConfigPlace(rl.FunctionConfig)
	return diag.Diagnostic{Object: ref, Field: s.IgnoreField, Pos: pos}
}

// nodeObjects maps node names to the Node objects in use, built once so
// that writing n Nodes costs O(n), not a search of every Node per node.
func nodeObjects(set *objects.Set) map[string]*objects.Object[*objects.Node] {
	out := make(map[string]*objects.Object[*objects.Node], len(set.Nodes))
	for i := range set.Nodes {
		if o := &set.Nodes[i]; o.Used() {
			out[o.Obj.Name] = o
		}
	}
	return out
}
