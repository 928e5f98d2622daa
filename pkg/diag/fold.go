package diag

import (
	"fmt"
	"strconv"
	"strings"
)

// FoldFrom is how many objects must share a problem for FoldObjects to
// fold it into one diagnostic.
const FoldFrom = 5

// FoldObjects gives one verdict for a problem many objects share: the
// diagnostics that say the same thing (severity, check, kind, field and
// message) about FoldFrom or more objects become one, in the first one's
// place, that says how many there are and where the first is ("NFD002 on
// 3,300 NodeFeatures, first at snap.yaml:14: ..."), as render folds the
// problems a rule has on many nodes into one naming the nodes. The others
// keep their order; the work is linear in the list.
func (l List) FoldObjects() List {
	type key struct {
		sev                   Severity
		check, kind, field, m string
	}
	keyOf := func(d *Diagnostic) key { return key{d.Severity, d.Check, d.Object.Kind, d.Field, unnamed(d)} }
	count := map[key]int{}
	for i := range l {
		if l[i].Object.Kind != "" {
			count[keyOf(&l[i])]++
		}
	}
	folded := map[key]bool{}
	out := make(List, 0, len(l))
	for i := range l {
		d := l[i]
		k := keyOf(&d)
		n := count[k]
		if d.Object.Kind == "" || n < FoldFrom {
			out = append(out, d)
			continue
		}
		if folded[k] {
			continue
		}
		folded[k] = true
		name := d.ID()
		if name == "" {
			name = d.Check
		}
		d.Message = fmt.Sprintf("%s on %s %ss, first at %s: %s", name, thousands(n), d.Object.Kind, d.Pos.Where(d.Object), d.Message)
		out = append(out, d)
	}
	return out
}

// unnamed is d's message with the API server's naming of its object
// taken out: its 422 names the object (`NodeFeature.nfd.k8s-sigs.io
// "node-1" is invalid: ...`), and objects that share a problem still
// share it. Other messages that name their object stay apart.
func unnamed(d *Diagnostic) string {
	if d.Object.Name == "" {
		return d.Message
	}
	return strings.ReplaceAll(d.Message, strconv.Quote(d.Object.Name)+" is invalid", `"" is invalid`)
}

// Where is a position as "file:line" (or "file", or the object when the
// position is unknown).
func (p Position) Where(o ObjectRef) string {
	switch {
	case p.File != "" && p.Line > 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	case p.File != "":
		return p.File
	}
	return o.String()
}

// thousands writes n with a comma between groups of three digits: 3,300.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
