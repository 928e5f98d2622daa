package diag

import (
	"fmt"
	"io"
	"strings"
)

// Text renders a diagnostic for people and editors:
// path:line:col: severity: Kind/name field: message [NFDnnn], on one line,
// with control characters and bidi overrides escaped (Escape): names and
// values come from input nfd-fn did not write.
func (d Diagnostic) Text() string { return Escape(d.Line()) }

// Line is Text before escaping: "place: severity: what: message [ID]",
// for callers that escape the lines they print themselves.
func (d Diagnostic) Line() string {
	text := fmt.Sprintf("%s: %s: %s", d.Pos.String(), d.Severity, d.Describe())
	if id := d.ID(); id != "" {
		text += " [" + id + "]"
	}
	return text
}

// String is file:line:col, the file alone when the line is not known,
// "<input>" when neither is.
func (p Position) String() string {
	file := p.File
	if file == "" {
		file = "<input>"
	}
	if p.Line == 0 {
		return file
	}
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Column)
}

// WriteText writes one line per diagnostic.
func WriteText(w io.Writer, l List) error {
	for i := range l {
		if _, err := fmt.Fprintln(w, l[i].Text()); err != nil {
			return err
		}
	}
	return nil
}

// MaxNodesListed caps the node names spelt out in one message.
const MaxNodesListed = 5

// DescribeNodes names the nodes a problem was found on, for messages:
// "node a", "3 nodes (a, b, c)" or "12 nodes (a, b, c, d, e, ...)".
func DescribeNodes(nodes []string) string {
	switch {
	case len(nodes) == 1:
		return "node " + nodes[0]
	case len(nodes) <= MaxNodesListed:
		return fmt.Sprintf("%d nodes (%s)", len(nodes), strings.Join(nodes, ", "))
	}
	return fmt.Sprintf("%d nodes (%s, ...)", len(nodes), strings.Join(nodes[:MaxNodesListed], ", "))
}
