package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// WriteText writes one line per finding for people and editors:
// path:line:col: severity: Kind/name field: message.
func WriteText(w io.Writer, findings []Finding) error {
	for i := range findings {
		if _, err := fmt.Fprintln(w, findings[i].Text()); err != nil {
			return err
		}
	}
	return nil
}

// Text renders one finding as path:line:col: severity: what: message.
func (f *Finding) Text() string {
	return fmt.Sprintf("%s: %s: %s", f.position(), f.Severity, f.describe())
}

// describe is the finding without its position: Kind/name field: message.
func (f *Finding) describe() string {
	what := f.Object.Kind
	if f.Object.Name != "" {
		what += "/" + f.Object.Name
	}
	if f.Field != "" {
		what += " " + f.Field
	}
	if what != "" {
		what += ": "
	}
	return what + f.Message
}

func (f *Finding) position() string {
	file := "<input>"
	if f.Doc != nil && f.Doc.File != "" {
		file = f.Doc.File
	}
	if f.Line == 0 {
		return file
	}
	return fmt.Sprintf("%s:%d:%d", file, f.Line, f.Column)
}

// Results converts findings to KRM function results.
func Results(findings []Finding) []*framework.Result {
	out := make([]*framework.Result, 0, len(findings))
	for i := range findings {
		out = append(out, findings[i].Result())
	}
	return out
}

// Result converts a finding to a KRM function result.
func (f *Finding) Result() *framework.Result {
	r := &framework.Result{Severity: framework.Severity(f.Severity), Message: f.Message}
	if f.Object.Kind != "" {
		r.ResourceRef = &kyaml.ResourceIdentifier{TypeMeta: kyaml.TypeMeta{APIVersion: apiVersionOf(f.Object), Kind: f.Object.Kind},
			NameMeta: kyaml.NameMeta{Name: f.Object.Name, Namespace: f.Object.Namespace}}
	}
	if f.Field != "" {
		r.Field = &framework.Field{Path: f.Field}
		if f.Suggestion != "" {
			r.Field.ProposedValue = f.Suggestion
		}
	}
	if f.Doc != nil && f.Doc.File != "" {
		r.File = &framework.File{Path: f.Doc.File, Index: f.Doc.Index}
	}
	if f.Check != "" {
		r.Tags = map[string]string{"check": f.Check}
	}
	if len(f.Nodes) > 0 {
		if r.Tags == nil {
			r.Tags = map[string]string{}
		}
		r.Tags["nodes"] = joinNodes(f.Nodes)
	}
	return r
}

func joinNodes(nodes []string) string {
	s := ""
	for i, n := range nodes {
		if i > 0 {
			s += ","
		}
		s += n
	}
	return s
}

func apiVersionOf(ref engine.ObjectRef) string {
	switch ref.Kind {
	case api.KindNodeFeature, api.KindNodeFeatureRule, api.KindNodeFeatureGroup:
		return api.APIVersion
	}
	return ""
}

// WriteJSON writes the findings as a JSON list of KRM results.
func WriteJSON(w io.Writer, findings []Finding) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(Results(findings))
}

// Counts tallies findings by severity.
func Counts(findings []Finding) map[engine.Severity]int {
	c := map[engine.Severity]int{}
	for i := range findings {
		c[findings[i].Severity]++
	}
	return c
}

// checks lists the distinct check names, sorted.
func checks(findings []Finding) []string {
	seen := map[string]bool{}
	var out []string
	for i := range findings {
		if c := findings[i].Check; c != "" && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}
