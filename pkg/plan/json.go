package plan

import (
	"encoding/json"
	"io"
)

// WriteJSON writes the plan's stable JSON form, indented, map keys and
// names sorted, so that re-runs are byte-identical.
func WriteJSON(w io.Writer, p *Plan) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(p)
}
