package nova

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/internal/golden"
)

// TestParseReportsWhatNovaComputeRefuses runs every file in
// testdata/parse; the golden file lists the issues, then the document as
// read back (only what passed).
func TestParseReportsWhatNovaComputeRefuses(t *testing.T) {
	golden.Files(t, "testdata/parse/*.yaml", func(t *testing.T, data []byte) []byte {
		doc, issues := Parse(data)
		var b strings.Builder
		for _, iss := range issues {
			b.WriteString(iss.String() + "\n")
		}
		if len(issues) == 0 {
			b.WriteString("no issues\n")
		}
		b.WriteString("--- read back\n")
		text, err := Marshal(doc, nil)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(text)
		return []byte(b.String())
	})
}

func TestMarshalledDocumentsParseBackUnchanged(t *testing.T) {
	one, half := int64(1), 0.5
	doc := &Document{SchemaVersion: SchemaVersion, Providers: []Provider{
		{Identification: Identification{Name: "1.0"}, Traits: []string{"CUSTOM_A", "CUSTOM_B"}},
		{Identification: Identification{Name: "true"}, Inventories: []Inventory{
			{ResourceClass: "CUSTOM_GPU", Total: 2, Reserved: &one, MinUnit: &one, MaxUnit: &one, StepSize: &one, AllocationRatio: &half},
		}},
		{Identification: Identification{UUID: ComputeNode}, Traits: []string{"CUSTOM_C"}},
	}}
	text, err := Marshal(doc, []string{"a header"})
	if err != nil {
		t.Fatal(err)
	}
	got, issues := Parse(text)
	if len(issues) > 0 {
		t.Fatalf("issues in a marshalled document: %v\n%s", issues, text)
	}
	if diff := cmp.Diff(doc, got); diff != "" {
		t.Errorf("read back differs (-want +got):\n%s\n%s", diff, text)
	}
	if !strings.HasPrefix(string(text), "# a header\n") || !strings.Contains(string(text), `name: "1.0"`) {
		t.Errorf("header or quoting missing:\n%s", text)
	}
}

func TestLooksLikeProviderConfigRecognisesTheShape(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"meta-with-version", "meta:\n  schema_version: '1.0'\n", true},
		{"providers-only", "providers: []\n", true},
		{"other-config", "meta: {owner: me}\nlogging: debug\n", false},
		{"plain-text", "hello world", false},
		{"broken-yaml", "meta: [", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LooksLikeProviderConfig([]byte(tt.text)); got != tt.want {
				t.Errorf("LooksLikeProviderConfig(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}
