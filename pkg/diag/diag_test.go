package diag

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func rule(name string) ObjectRef {
	return ObjectRef{Kind: "NodeFeatureRule", Name: name}
}

func TestObjectRefStringNamesNamespaceOnlyWhenSet(t *testing.T) {
	tests := []struct {
		name string
		ref  ObjectRef
		want string
	}{
		{"cluster-scoped", ObjectRef{Kind: "NodeFeatureRule", Name: "r"}, "NodeFeatureRule r"},
		{"namespaced", ObjectRef{APIVersion: "nfd.k8s-sigs.io/v1alpha1", Kind: "NodeFeature", Namespace: "nfd", Name: "n1"}, "NodeFeature nfd/n1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.ref.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestObjectRefKeyDropsAPIVersion(t *testing.T) {
	a := ObjectRef{APIVersion: "nfd.k8s-sigs.io/v1alpha1", Kind: "NodeFeature", Namespace: "ns", Name: "n"}
	b := ObjectRef{Kind: "NodeFeature", Namespace: "ns", Name: "n"}
	if a.Key() != b {
		t.Errorf("Key() = %+v, want %+v", a.Key(), b)
	}
	if a == b {
		t.Fatal("test is vacuous: refs compare equal with their apiVersion")
	}
}

func TestTextIsPositionSeverityObjectFieldMessage(t *testing.T) {
	tests := []struct {
		name string
		d    Diagnostic
		want string
	}{
		{
			name: "file-line-column-object-field",
			d: Diagnostic{Severity: Error, Object: rule("r"), Field: "spec.rules[0].name",
				Pos: Position{File: "rules/a.yaml", Index: 2, Line: 7, Column: 5}, Message: "rule name is required"},
			want: "rules/a.yaml:7:5: error: NodeFeatureRule/r spec.rules[0].name: rule name is required",
		},
		{
			name: "no-file-is-input",
			d:    Diagnostic{Severity: Warning, Object: rule("r"), Pos: Position{Line: 3, Column: 1}, Message: "m"},
			want: "<input>:3:1: warning: NodeFeatureRule/r: m",
		},
		{
			name: "no-line-prints-file-only",
			d:    Diagnostic{Severity: Info, Object: rule("r"), Field: "kind", Pos: Position{File: "f.yaml", Column: 9}, Message: "m"},
			want: "f.yaml: info: NodeFeatureRule/r kind: m",
		},
		{
			name: "no-object-no-field-is-message-only",
			d:    Diagnostic{Severity: Error, Pos: Position{File: "f.yaml", Line: 1, Column: 1}, Message: "YAML does not parse"},
			want: "f.yaml:1:1: error: YAML does not parse",
		},
		{
			name: "namespace-is-not-printed",
			d:    Diagnostic{Severity: Error, Object: ObjectRef{Kind: "NodeFeature", Namespace: "ns", Name: "n"}, Message: "m"},
			want: "<input>: error: NodeFeature/n: m",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.Text(); got != tc.want {
				t.Errorf("Text() =\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestStringIsSeverityAndDescriptionWithoutPosition(t *testing.T) {
	d := Diagnostic{Severity: Warning, Object: rule("r"), Field: "f", Pos: Position{File: "x", Line: 2}, Message: "m"}
	if got, want := d.String(), "warning: NodeFeatureRule/r f: m"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := d.Describe(), "NodeFeatureRule/r f: m"; got != want {
		t.Errorf("Describe() = %q, want %q", got, want)
	}
}

func TestWriteTextWritesOneLinePerDiagnostic(t *testing.T) {
	l := List{
		{Severity: Error, Pos: Position{File: "a", Line: 1, Column: 2}, Message: "one"},
		{Severity: Warning, Object: rule("r"), Message: "two"},
	}
	var b bytes.Buffer
	if err := WriteText(&b, l); err != nil {
		t.Fatal(err)
	}
	want := "a:1:2: error: one\n<input>: warning: NodeFeatureRule/r: two\n"
	if b.String() != want {
		t.Errorf("WriteText =\n%q\nwant\n%q", b.String(), want)
	}
}

func TestDescribeNodesListsAtMostFiveNames(t *testing.T) {
	tests := []struct {
		nodes []string
		want  string
	}{
		{[]string{"a"}, "node a"},
		{[]string{"a", "b"}, "2 nodes (a, b)"},
		{[]string{"a", "b", "c"}, "3 nodes (a, b, c)"},
		{[]string{"a", "b", "c", "d", "e"}, "5 nodes (a, b, c, d, e)"},
		{[]string{"a", "b", "c", "d", "e", "f"}, "6 nodes (a, b, c, d, e, ...)"},
		{[]string{"n01", "n02", "n03", "n04", "n05", "n06", "n07", "n08", "n09", "n10", "n11", "n12"}, "12 nodes (n01, n02, n03, n04, n05, ...)"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := DescribeNodes(tc.nodes); got != tc.want {
				t.Errorf("DescribeNodes(%v) = %q, want %q", tc.nodes, got, tc.want)
			}
		})
	}
}

func TestSortByPositionOrdersFileIndexLineColumnMessage(t *testing.T) {
	l := List{
		{Message: "b-second-file", Pos: Position{File: "b.yaml", Line: 1}},
		{Message: "a-idx1", Pos: Position{File: "a.yaml", Index: 1, Line: 1}},
		{Message: "a-idx0-line9", Pos: Position{File: "a.yaml", Index: 0, Line: 9}},
		{Message: "a-idx0-line2-col8", Pos: Position{File: "a.yaml", Index: 0, Line: 2, Column: 8}},
		{Message: "z", Pos: Position{File: "a.yaml", Index: 0, Line: 2, Column: 3}},
		{Message: "y", Pos: Position{File: "a.yaml", Index: 0, Line: 2, Column: 3}},
		{Message: "no-file", Pos: Position{Line: 100}},
	}
	l.SortByPosition()
	var got []string
	for _, d := range l {
		got = append(got, d.Message)
	}
	want := []string{"no-file", "y", "z", "a-idx0-line2-col8", "a-idx0-line9", "a-idx1", "b-second-file"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
}

func TestSortByPositionIsStableForEqualPositionAndMessage(t *testing.T) {
	l := List{
		{Message: "same", Check: "first"},
		{Message: "same", Check: "second"},
		{Message: "same", Check: "third"},
	}
	l.SortByPosition()
	if l[0].Check != "first" || l[1].Check != "second" || l[2].Check != "third" {
		t.Errorf("order changed: %v %v %v", l[0].Check, l[1].Check, l[2].Check)
	}
}

func TestListErrorHasErrorsErr(t *testing.T) {
	warn := Diagnostic{Severity: Warning, Message: "w"}
	info := Diagnostic{Severity: Info, Message: "i"}
	errd := Diagnostic{Severity: Error, Pos: Position{File: "f", Line: 1, Column: 1}, Message: "e"}
	tests := []struct {
		name      string
		l         List
		hasErrors bool
	}{
		{"empty", nil, false},
		{"warnings-and-info", List{warn, info}, false},
		{"one-error-among-warnings", List{warn, errd, info}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.l.HasErrors(); got != tc.hasErrors {
				t.Errorf("HasErrors() = %v, want %v", got, tc.hasErrors)
			}
			err := tc.l.Err()
			if (err != nil) != tc.hasErrors {
				t.Fatalf("Err() = %v, want non-nil %v", err, tc.hasErrors)
			}
			if err == nil {
				return
			}
			var l List
			if !errors.As(err, &l) || len(l) != len(tc.l) {
				t.Errorf("Err() does not unwrap to the whole List: %#v", err)
			}
		})
	}
	l := List{errd, warn}
	if got, want := l.Error(), "f:1:1: error: e\n<input>: warning: w"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestCountsTalliesBySeverity(t *testing.T) {
	l := List{{Severity: Error}, {Severity: Warning}, {Severity: Error}, {Severity: Info}}
	want := map[Severity]int{Error: 2, Warning: 1, Info: 1}
	if got := l.Counts(); !reflect.DeepEqual(got, want) {
		t.Errorf("Counts() = %v, want %v", got, want)
	}
}

// sarif mirrors the fields of the log that code-scanning reads.
type sarif struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name           string `json:"name"`
				Version        string `json:"version"`
				InformationURI string `json:"informationUri"`
				Rules          []struct {
					ID               string `json:"id"`
					ShortDescription struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID  string `json:"ruleId"`
			Level   string `json:"level"`
			Message struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region *map[string]int `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

func TestWriteSARIFRulesResultsLevelsAndLocations(t *testing.T) {
	l := List{
		{Severity: Error, Check: "unknown-field", Object: rule("r"), Field: "spec.rules[0].matchOn",
			Pos: Position{File: "rules/a.yaml", Line: 12, Column: 7}, Message: "unknown field"},
		{Severity: Warning, Check: "no-such-check-in-catalogue", Object: rule("r"), Pos: Position{File: "b.yaml"}, Message: "w"},
		{Severity: Info, Check: "other-kind", Message: "skipped"},
		{Severity: Error, Check: "unknown-field", Pos: Position{File: "c.yaml", Line: 3}, Message: "again"},
		{Severity: Error, Message: "no check"},
	}
	var b bytes.Buffer
	if err := WriteSARIF(&b, l, "1.2.3"); err != nil {
		t.Fatal(err)
	}
	var log sarif
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, b.String())
	}
	if log.Version != "2.1.0" || log.Schema != "https://json.schemastore.org/sarif-2.1.0.json" || len(log.Runs) != 1 {
		t.Fatalf("header: version %q schema %q runs %d", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	if d := run.Tool.Driver; d.Name != "nfd-fn" || d.Version != "1.2.3" || d.InformationURI == "" {
		t.Errorf("driver = %+v", d)
	}
	type ruleRow struct{ id, desc string }
	var rules []ruleRow
	for _, r := range run.Tool.Driver.Rules {
		rules = append(rules, ruleRow{r.ID, r.ShortDescription.Text})
	}
	wantRules := []ruleRow{
		{"no-such-check-in-catalogue", "no-such-check-in-catalogue"},
		{"NFD023", Checks["other-kind"]},
		{"NFD003", Checks["unknown-field"]},
	}
	if !reflect.DeepEqual(rules, wantRules) {
		t.Errorf("rules = %v, want %v", rules, wantRules)
	}
	type resultRow struct {
		rule, level, text, uri string
		region                 map[string]int
		locations              int
	}
	var got []resultRow
	for _, r := range run.Results {
		row := resultRow{rule: r.RuleID, level: r.Level, text: r.Message.Text, locations: len(r.Locations)}
		if len(r.Locations) > 0 {
			row.uri = r.Locations[0].PhysicalLocation.ArtifactLocation.URI
			if reg := r.Locations[0].PhysicalLocation.Region; reg != nil {
				row.region = *reg
			}
		}
		got = append(got, row)
	}
	want := []resultRow{
		{"NFD003", "error", "NodeFeatureRule/r spec.rules[0].matchOn: unknown field", "rules/a.yaml", map[string]int{"startLine": 12, "startColumn": 7}, 1},
		{"no-such-check-in-catalogue", "warning", "NodeFeatureRule/r: w", "b.yaml", nil, 1},
		{"NFD023", "note", "skipped", "", nil, 0},
		{"NFD003", "error", "again", "c.yaml", map[string]int{"startLine": 3}, 1},
		{"", "error", "no check", "", nil, 0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results =\n%+v\nwant\n%+v", got, want)
	}
}

func TestWriteSARIFEmptyListHasEmptyResultsArray(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSARIF(&b, nil, ""); err != nil {
		t.Fatal(err)
	}
	// Code-scanning uploads reject "results": null.
	if !strings.Contains(b.String(), `"results": []`) {
		t.Errorf("want an empty results array, got:\n%s", b.String())
	}
	if strings.Contains(b.String(), `"version": ""`) {
		t.Errorf("an empty tool version should be omitted:\n%s", b.String())
	}
}

func TestEveryCheckHasADescription(t *testing.T) {
	for id, desc := range Checks {
		if strings.TrimSpace(desc) == "" {
			t.Errorf("check %q has no description", id)
		}
	}
}
