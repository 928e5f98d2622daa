package fn

import (
	"testing"

	"sigs.k8s.io/yaml"
)

// krmResult is one result as the output ResourceList carries it.
type krmResult struct {
	Message     string            `json:"message"`
	Severity    string            `json:"severity"`
	ResourceRef map[string]string `json:"resourceRef"`
	Field       struct {
		Path          string `json:"path"`
		ProposedValue any    `json:"proposedValue"`
	} `json:"field"`
	File struct {
		Path  string `json:"path"`
		Index int    `json:"index"`
	} `json:"file"`
	Tags map[string]string `json:"tags"`
}

// resultList is the output ResourceList: its items and results.
type resultList struct {
	Results []krmResult      `json:"results"`
	Items   []map[string]any `json:"items"`
}

// decodeOutput is the one helper the fn tests read results with: the
// output ResourceList, YAML or JSON, read as kubectl reads it.
func decodeOutput(t *testing.T, out []byte) resultList {
	t.Helper()
	var l resultList
	if err := yaml.Unmarshal(out, &l); err != nil {
		t.Fatalf("output is not a ResourceList: %v\n%s", err, out)
	}
	return l
}

// withCheck picks the results of one check.
func (l resultList) withCheck(check string) []krmResult {
	var out []krmResult
	for _, r := range l.Results {
		if r.Tags["check"] == check {
			out = append(out, r)
		}
	}
	return out
}
