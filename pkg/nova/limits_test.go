package nova

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/growth"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// aliasedProviders is a provider config whose first provider (9 + traits
// nodes: the mapping, identification and its name, traits and additional,
// then the traits) is repeated through aliases times.
func aliasedProviders(traits, aliases int) string {
	var b strings.Builder
	b.WriteString("meta: {schema_version: '1.0'}\nproviders:\n- &p\n  identification: {name: p}\n  traits:\n    additional:\n")
	for i := range traits {
		fmt.Fprintf(&b, "    - CUSTOM_T%d\n", i)
	}
	for range aliases {
		b.WriteString("- *p\n")
	}
	return b.String()
}

// TestParseCapsAliasExpansion checks MaxAliasNodes just under and just
// over: 100 aliases of a 1,000-node provider reach exactly MaxAliasNodes
// nodes and are read; 101 are refused with an error saying why.
func TestParseCapsAliasExpansion(t *testing.T) {
	const perProvider = MaxAliasNodes / 100
	tests := []struct {
		name    string
		aliases int
		refused bool
	}{
		{"at-the-cap-is-read", 100, false},
		{"one-alias-over-the-cap-is-refused", 101, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, issues := Parse([]byte(aliasedProviders(perProvider-9, tc.aliases)))
			refused := strings.Contains(issues.Error(), fmt.Sprintf("aliases expand to more than %d nodes", MaxAliasNodes))
			if refused != tc.refused {
				t.Errorf("refused = %v, want %v; issues:\n%.500s", refused, tc.refused, issues.Error())
			}
		})
	}
}

// TestParseOfAnAliasBombIsQuickAndRefused is the hand-written config of
// issue 17 point 8 (114 KB that expanded to 1.3 GB): aliases of aliases,
// nine levels of ten.
func TestParseOfAnAliasBombIsQuickAndRefused(t *testing.T) {
	var b strings.Builder
	b.WriteString("meta: {schema_version: '1.0'}\nl0: &l0 [CUSTOM_A, CUSTOM_B, CUSTOM_C, CUSTOM_D, CUSTOM_E, CUSTOM_F, CUSTOM_G, CUSTOM_H, CUSTOM_I, CUSTOM_J]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	b.WriteString("providers:\n- identification: {name: p}\n  traits: {additional: *l8}\n")
	var issues diag.List
	work := growth.Measure(func() { _, issues = Parse([]byte(b.String())) })
	// Counted, not timed: refused, it allocates about 35 KiB; expanded,
	// it allocated 1.3 GB.
	if work.Bytes > 16<<20 {
		t.Errorf("Parse allocated %d MiB", work.Bytes>>20)
	}
	if !strings.Contains(issues.Error(), "aliases expand to more than") {
		t.Errorf("issues = %.500s, want the alias limit", issues.Error())
	}
}
