package diag

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/golden"
)

// TestChecksDocIsGeneratedFromTheCatalogue keeps docs/checks.md in step
// with the catalogue (go test ./pkg/diag -update rewrites it).
func TestChecksDocIsGeneratedFromTheCatalogue(t *testing.T) {
	golden.Check(t, "../../docs/checks.md", []byte(catalogueMarkdown()))
}

// TestCatalogueIDsAreStableAndUnique checks the IDs' form and order and
// that every check has a name, an example and a fix.
func TestCatalogueIDsAreStableAndUnique(t *testing.T) {
	id := regexp.MustCompile(`^NFD\d{3}$`)
	names := map[string]bool{}
	for i, c := range Catalogue {
		if !id.MatchString(c.ID) || (i > 0 && c.ID <= Catalogue[i-1].ID) {
			t.Errorf("check %d: ID %q is not NFDnnn in increasing order", i, c.ID)
		}
		if names[c.Name] || c.Name == "" || c.Summary == "" || c.Example == "" || c.Fix == "" {
			t.Errorf("check %s: name %q is a duplicate or a part is missing", c.ID, c.Name)
		}
		names[c.Name] = true
	}
}

// TestEveryCheckHasItsSeverities checks that the severity table covers
// exactly the catalogue, so docs/checks.md states every check's severity.
func TestEveryCheckHasItsSeverities(t *testing.T) {
	for _, c := range Catalogue {
		if len(Severities[c.ID]) == 0 {
			t.Errorf("check %s %s has no severity in Severities", c.ID, c.Name)
		}
	}
	for id := range Severities {
		if _, ok := Lookup(id); !ok {
			t.Errorf("Severities names %s, which is not in the catalogue", id)
		}
	}
}

// catalogueMarkdown is docs/checks.md: every check with its ID, name,
// what it finds, an example and the fix, and how to accept a finding.
func catalogueMarkdown() string {
	var b strings.Builder
	b.WriteString(`# Checks

Every finding nfd-fn reports (render, validate, explain, plan) names its check: a stable ID and
a short name, in the text output (` + "`... [NFD020]`" + `), in KRM results (tags ` + "`check`" + ` and
` + "`checkID`" + `) and in SARIF (` + "`ruleId`" + `). IDs never change meaning and are never reused.

## Severity

` + SeverityRule + `

## Accepting known findings

- On the object, for the whole object or one rule:

  ` + "```yaml" + `
  metadata:
    annotations:
      nfd-fn.dev/ignore: "NFD020, NFD006:nfd built-in cpu-sst labels"
  ` + "```" + `
- For a run: ` + "`nfd-fn validate --ignore NFD006`" + `, or ` + "`ignore: \"NFD006,NFD020\"`" + ` in the functionConfig.

Entries are check IDs or names, comma-separated, optionally ` + "`CHECK:rule name`" + `. A suppression
that silences nothing, or names no check, is itself reported (NFD040), so stale ones do not pile
up. NFD's own sample rules validate clean once their known findings are accepted in one line:
` + "`nfd-fn validate --ignore NFD006,NFD011 samples/`" + ` (NFD006: cpu templates reading features their
matchers do not provide; NFD011: the network sample's ` + "`network-sriov_numvfs`" + `, an element nfd-worker
publishes as ` + "`sriov_numvfs`" + `, so that rule never matches).

## The checks

| ID | name | finds | severity |
|---|---|---|---|
`)
	for _, c := range Catalogue {
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", c.ID, c.Name, c.Summary, severityText(c.ID))
	}
	for _, c := range Catalogue {
		fmt.Fprintf(&b, "\n### %s %s\n\n%s.\n\n- Severity: %s\n- Example: %s\n- Fix: %s\n", c.ID, c.Name, c.Summary, severityText(c.ID), c.Example, c.Fix)
	}
	return b.String()
}

// severityText is a check's severities as the docs write them
// ("error / warning").
func severityText(id string) string {
	var parts []string
	for _, s := range Severities[id] {
		parts = append(parts, string(s))
	}
	return strings.Join(parts, " / ")
}
