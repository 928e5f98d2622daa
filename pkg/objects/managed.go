package objects

import (
	"strings"

	"go.yaml.in/yaml/v3"

	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// MasterManager is the field manager nfd-master's Node updates are
// recorded under in a Node's metadata.managedFields (client-go names it
// after the binary).
const MasterManager = "nfd-master"

// ManagedFields are the fields of a Node that nfd-master's entries in its
// metadata.managedFields (manager nfd-master, operation Update: its
// patches of the Node and of its status) list, among those nfd-fn writes:
// label and annotation keys, extended resource names, and the taint list
// (an atomic list: owned whole). Keys are in the entries' order.
type ManagedFields struct {
	Labels, Annotations   []string
	Capacity, Allocatable []string
	Taints                bool
}

// IsManaged reports an entry of metadata.managedFields whose fields are
// nfd-master's: manager nfd-master, operation Update (its patches; an
// Apply entry would be a server-side apply under that name, which the
// API server removes fields of when the applier drops them).
func IsManaged(manager, operation string) bool {
	return manager == MasterManager && operation == "Update"
}

// FieldsKey is the name a fieldsV1 key stands for ("f:kubernetes.io/os"
// is kubernetes.io/os), and false for the keys that name no field of a
// map ("." is the map itself, "k:" and "v:" are list entries).
func FieldsKey(k string) (string, bool) {
	name, ok := strings.CutPrefix(k, "f:")
	return name, ok
}

// readMasterFields reads nfd-master's fields from metadata.managedFields
// (nil when it has none).
func readMasterFields(entries *yaml.Node) *ManagedFields {
	if entries == nil || entries.Kind != yaml.SequenceNode {
		return nil
	}
	var out *ManagedFields
	for _, e := range entries.Content {
		e = ys.Resolve(e)
		if !IsManaged(ys.Scalar(e, "manager"), ys.Scalar(e, "operation")) {
			continue
		}
		if out == nil {
			out = &ManagedFields{}
		}
		f := ys.Mapping(e, "fieldsV1")
		md, spec, status := ys.Mapping(f, "f:metadata"), ys.Mapping(f, "f:spec"), ys.Mapping(f, "f:status")
		out.Labels = appendFieldKeys(out.Labels, ys.Mapping(md, "f:labels"))
		out.Annotations = appendFieldKeys(out.Annotations, ys.Mapping(md, "f:annotations"))
		out.Capacity = appendFieldKeys(out.Capacity, ys.Mapping(status, "f:capacity"))
		out.Allocatable = appendFieldKeys(out.Allocatable, ys.Mapping(status, "f:allocatable"))
		out.Taints = out.Taints || ys.Value(spec, "f:taints") != nil
	}
	return out
}

// appendFieldKeys appends the names of the fields a fieldsV1 map lists.
func appendFieldKeys(out []string, m *yaml.Node) []string {
	if m == nil {
		return out
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if name, ok := FieldsKey(m.Content[i].Value); ok {
			out = append(out, name)
		}
	}
	return out
}

// ApplyManager is the field manager the README's apply commands use for
// nfd-fn's apply-ready output (`kubectl apply --server-side
// --field-manager=nfd-fn`).
const ApplyManager = "nfd-fn"

// AppliedTaints reads a Node's metadata.managedFields (md is its
// metadata) for whether nfd-fn's server-side apply (manager
// ApplyManager, operation Apply) owns spec.taints; known is false when
// the Node was exported without managedFields (kubectl's default), so
// that nothing can be told.
func AppliedTaints(md *yaml.Node) (owns, known bool) {
	entries := ys.Value(md, "managedFields")
	if entries == nil || entries.Kind != yaml.SequenceNode {
		return false, false
	}
	for _, e := range entries.Content {
		e = ys.Resolve(e)
		if ys.Scalar(e, "manager") == ApplyManager && ys.Scalar(e, "operation") == "Apply" &&
			ys.Value(ys.Mapping(ys.Mapping(e, "fieldsV1"), "f:spec"), "f:taints") != nil {
			return true, true
		}
	}
	return false, true
}
