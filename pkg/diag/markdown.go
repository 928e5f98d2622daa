package diag

import (
	"fmt"
	"strings"
)

// CatalogueMarkdown is docs/checks.md: every check with its ID, name,
// what it finds, an example and the fix, and how to accept a finding.
func CatalogueMarkdown() string {
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
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", c.ID, c.Name, c.Summary, SeverityText(c.ID))
	}
	for _, c := range Catalogue {
		fmt.Fprintf(&b, "\n### %s %s\n\n%s.\n\n- Severity: %s\n- Example: %s\n- Fix: %s\n", c.ID, c.Name, c.Summary, SeverityText(c.ID), c.Example, c.Fix)
	}
	return b.String()
}
