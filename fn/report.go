package fn

import (
	"sync"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// report collects the diagnostics of one run, in the order they are found;
// they become the output's KRM results (Result) in that order.
type report struct {
	mu   sync.Mutex
	list diag.List
}

// add records a diagnostic about an item (nil: about the run as a whole)
// and a field in it.
func (r *report) add(sev diag.Severity, it *krm.Item, field, msg string) {
	r.addAt(it, field, diag.Diagnostic{Severity: sev, Message: msg})
}

// addAt records d, made by a producer that does not know the item, about
// an item (nil: about the run as a whole) and a field in it; its severity,
// check, message and nodes are kept.
func (r *report) addAt(it *krm.Item, field string, d diag.Diagnostic) {
	d.Field = field
	if it != nil {
		d.Object = itemRef(it)
		d.Pos = diag.Position{File: it.File, Index: it.Index}
	}
	r.extend(diag.List{d})
}

// extend records diagnostics.
func (r *report) extend(l diag.List) {
	r.mu.Lock()
	r.list = append(r.list, l...)
	r.mu.Unlock()
}

// exitCode is 1 when any diagnostic is an error.
func (r *report) exitCode() int {
	if r.list.HasErrors() {
		return 1
	}
	return 0
}

// itemRef names an item's object.
func itemRef(it *krm.Item) diag.ObjectRef {
	return diag.ObjectRef{APIVersion: it.APIVersion, Kind: it.Kind, Name: it.Name, Namespace: it.Namespace}
}
