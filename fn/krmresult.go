package fn

import (
	"encoding/json"
	"io"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Result is the one conversion of a diagnostic to a KRM function result:
// severity, message, the object (resourceRef), the field path with the
// suggested fix as proposedValue, the file and index, and the check as
// the "check" (name) and "checkID" (NFDnnn) tags. The message, the object's
// name and namespace and the file path go through diag.Escape like every
// other text form: kpt prints them to the terminal as they are, so a
// control character or bidi override from a rule file must not reach it
// raw. Names that need escaping are never valid object names, so no
// reference to a real object changes.
func Result(d *diag.Diagnostic) *sdk.Result {
	r := &sdk.Result{Severity: sdk.Severity(d.Severity), Message: diag.Escape(d.Message)}
	if d.Object.Kind != "" || d.Object.Name != "" {
		r.ResourceRef = &sdk.ResourceRef{APIVersion: apiVersionOf(d.Object), Kind: d.Object.Kind,
			Name: diag.Escape(d.Object.Name), Namespace: diag.Escape(d.Object.Namespace)}
	}
	if d.Field != "" {
		r.Field = &sdk.Field{Path: d.Field}
		if d.Suggestion != "" {
			r.Field.ProposedValue = d.Suggestion
		}
	}
	if d.Pos.File != "" {
		r.File = &sdk.File{Path: diag.Escape(d.Pos.File), Index: d.Pos.Index}
	}
	if d.Check != "" {
		r.Tags = map[string]string{"check": d.Check}
		if id := d.ID(); id != "" {
			r.Tags["checkID"] = id
		}
	}
	return r
}

// Results converts diagnostics to KRM results.
func Results(l diag.List) []*sdk.Result {
	out := make([]*sdk.Result, len(l))
	for i := range l {
		out[i] = Result(&l[i])
	}
	return out
}

// WriteResultsJSON writes diagnostics found in files (nfd-fn validate
// --output json) as a JSON list of KRM results, each file place with the
// line and column (1-based) the text form shows, which a KRM result's file
// (path and index) has no field for.
func WriteResultsJSON(w io.Writer, l diag.List) error {
	out := make([]fileResult, len(l))
	for i := range l {
		r := Result(&l[i])
		out[i] = fileResult{Result: r}
		if r.File != nil {
			out[i].File = &filePlace{File: *r.File, Line: l[i].Pos.Line, Column: l[i].Pos.Column}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// fileResult is a KRM result whose file place carries a line and column.
type fileResult struct {
	*sdk.Result
	File *filePlace `json:"file,omitempty"`
}

// filePlace is a KRM result's file with the line and column in it.
type filePlace struct {
	sdk.File
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
}

// apiVersionOf is the object's apiVersion, or the one its kind is served
// at.
func apiVersionOf(ref diag.ObjectRef) string {
	if ref.APIVersion != "" {
		return ref.APIVersion
	}
	switch ref.Kind {
	case api.KindNodeFeature, api.KindNodeFeatureRule, api.KindNodeFeatureGroup:
		return api.APIVersion
	case "Node", "ConfigMap":
		return "v1"
	}
	return ""
}
