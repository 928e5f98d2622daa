package nova

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/golden"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// buildCase is a testdata/build input: the mapping options and the nodes.
type buildCase struct {
	TraitLabels string `json:"traitLabels"`
	Defaults    struct {
		Reserved        *int64   `json:"reserved"`
		MinUnit         *int64   `json:"min_unit"`
		MaxUnit         *int64   `json:"max_unit"`
		StepSize        *int64   `json:"step_size"`
		AllocationRatio *float64 `json:"allocation_ratio"`
	} `json:"defaults"`
	Nodes []Node `json:"nodes"`
}

// TestBuildMapsRenderedNodes runs every case in testdata/build; the golden
// file lists the problems, then the provider config written.
func TestBuildMapsRenderedNodes(t *testing.T) {
	golden.Files(t, "testdata/build/*.yaml", func(t *testing.T, data []byte) []byte {
		var c buildCase
		if err := yaml.UnmarshalStrict(data, &c); err != nil {
			t.Fatal(err)
		}
		opts := MapOptions{Defaults: InventoryDefaults{Reserved: c.Defaults.Reserved, MinUnit: c.Defaults.MinUnit,
			MaxUnit: c.Defaults.MaxUnit, StepSize: c.Defaults.StepSize, AllocationRatio: c.Defaults.AllocationRatio}}
		if c.TraitLabels != "" {
			opts.TraitLabels = regexp.MustCompile(c.TraitLabels)
		}
		doc, problems := Build(c.Nodes, opts)
		var b strings.Builder
		for _, p := range problems {
			msg := p.Message
			if len(p.Nodes) > 0 {
				prefix := diag.DescribeNodes(p.Nodes) + ": "
				if !strings.HasPrefix(msg, prefix) {
					t.Errorf("message does not name its nodes with %q: %s", prefix, msg)
				}
				msg = strings.TrimPrefix(msg, prefix)
			}
			fmt.Fprintf(&b, "%s: nodes %v: %s\n", p.Severity, p.Nodes, msg)
		}
		if len(problems) == 0 {
			b.WriteString("no problems\n")
		}
		b.WriteString("--- provider config\n")
		text, err := Marshal(doc, nil)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(text)
		if _, issues := Parse(text); len(issues) > 0 {
			t.Errorf("the document built does not validate: %v", issues)
		}
		return []byte(b.String())
	})
}
