package diag

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// sarifSample is a list with every shape a SARIF result takes: a check
// of the catalogue at a line, one outside it, a note with no place, a
// finding with no check.
var sarifSample = List{
	{Severity: Error, Check: "unknown-field", Object: rule("r"), Field: "spec.rules[0].matchOn",
		Pos: Position{File: "rules/a.yaml", Line: 12, Column: 7}, Message: "unknown field"},
	{Severity: Warning, Check: "matches-no-node", Object: rule("r"), Field: "spec.rules[1]", Pos: Position{File: "rules/a.yaml", Line: 30, Column: 5}, Message: "matches none", Nodes: []string{"a"}},
	{Severity: Warning, Check: "no-such-check-in-catalogue", Object: rule("r"), Pos: Position{File: "b.yaml"}, Message: "w"},
	{Severity: Info, Check: "other-kind", Message: "skipped"},
	{Severity: Error, Message: "no check"},
}

func writeSample(t *testing.T, l List) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSARIF(&b, l, "1.2.3"); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sarifRules reads the driver's rules.
func sarifRules(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []map[string]any `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	return log.Runs[0].Tool.Driver.Rules
}

// TestSARIFRulesLinkToTheirChecksSection: a catalogue check's rule has
// helpUri at its heading in docs/checks.md, a fullDescription with the
// example and the fix, and the level it reports at by default.
func TestSARIFRulesLinkToTheirChecksSection(t *testing.T) {
	page, err := os.ReadFile("../../docs/checks.md")
	if err != nil {
		t.Fatal(err)
	}
	rules := sarifRules(t, writeSample(t, sarifSample))
	byID := map[string]map[string]any{}
	for _, r := range rules {
		byID[r["id"].(string)] = r
	}
	r := byID["NFD020"]
	if r == nil {
		t.Fatalf("no rule NFD020 in %v", rules)
	}
	if r["helpUri"] != ChecksPage+"#nfd020-matches-no-node" {
		t.Errorf("helpUri = %v", r["helpUri"])
	}
	if !strings.Contains(string(page), "\n### NFD020 matches-no-node\n") {
		t.Error("docs/checks.md has no heading for the anchor")
	}
	full, _ := r["fullDescription"].(map[string]any)
	if text, _ := full["text"].(string); !strings.Contains(text, "Fix: ") || !strings.Contains(text, "Example: ") {
		t.Errorf("fullDescription = %v", r["fullDescription"])
	}
	if cfg, _ := r["defaultConfiguration"].(map[string]any); cfg["level"] != "warning" {
		t.Errorf("defaultConfiguration = %v", r["defaultConfiguration"])
	}
	if _, ok := byID["no-such-check-in-catalogue"]["helpUri"]; ok {
		t.Error("a check outside the catalogue links to docs/checks.md")
	}
	for _, c := range Catalogue {
		if !strings.Contains(string(page), "\n### "+c.ID+" "+c.Name+"\n") || !strings.HasPrefix(CheckAnchor(c), strings.ToLower(c.ID)+"-") {
			t.Errorf("%s %s: anchor %q has no heading in docs/checks.md", c.ID, c.Name, CheckAnchor(c))
		}
	}
}

// TestSARIFFingerprintsFollowTheFindingNotItsLine: a finding moved to
// another line keeps its fingerprint; another finding gets another.
func TestSARIFFingerprintsFollowTheFindingNotItsLine(t *testing.T) {
	moved := append(List(nil), sarifSample...)
	moved[0].Pos.Line += 40
	a, b := sarifSample[0], moved[0]
	if fingerprint(&a) != fingerprint(&b) {
		t.Error("the fingerprint changes with the line")
	}
	c := sarifSample[1]
	if fingerprint(&a) == fingerprint(&c) {
		t.Error("two findings share a fingerprint")
	}
	if !bytes.Contains(writeSample(t, moved), []byte(`"nfdFnFinding/v1": "`+fingerprint(&b)+`"`)) {
		t.Error("results carry no partialFingerprints")
	}
}
