package admission

import "bytes"

// splitDocuments cuts a YAML stream at its "---" lines.
func splitDocuments(data []byte) [][]byte {
	var out [][]byte
	for _, doc := range bytes.Split(data, []byte("\n---")) {
		doc = bytes.TrimPrefix(bytes.TrimSpace(doc), []byte("---"))
		if len(bytes.TrimSpace(doc)) > 0 {
			out = append(out, doc)
		}
	}
	return out
}
