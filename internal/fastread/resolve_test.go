package fastread

import (
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// resolveCheckedAgainst is the yaml.v3 release whose resolve.go plainTag
// was last compared with, line by line. An upgrade of go.yaml.in/yaml/v3
// fails TestResolveCopyIsPinnedToYAMLVersion until someone re-reads the new
// release's resolve.go, brings plainTag in step, and updates this constant.
const resolveCheckedAgainst = "v3.0.6"

func TestResolveCopyIsPinnedToYAMLVersion(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatalf("reading the module's go.mod: %v", err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 || fields[0] != "go.yaml.in/yaml/v3" {
			continue
		}
		if fields[1] != resolveCheckedAgainst {
			t.Fatalf("go.mod requires go.yaml.in/yaml/v3 %s, but resolve.go's plainTag was checked against %s: compare it with the new release's resolve.go, then update resolveCheckedAgainst", fields[1], resolveCheckedAgainst)
		}
		return
	}
	t.Fatal("go.mod does not require go.yaml.in/yaml/v3: resolve.go's copy of its scalar resolution has nothing to follow")
}

// plainTag must say what yaml.v3 itself makes of a plain scalar: null, a
// string, or another type.
func TestPlainTagResolvesAsYAMLDoes(t *testing.T) {
	scalars := []string{
		"", "~", "null", "Null", "NULL", "nULL", "true", "True", "TRUE", "tRUE", "false", "yes", "no", "on", "off", "y", "n",
		"0", "-0", "+5", "007", "0300", "0o17", "0x1F", "0b101", "1_000", "3.0", ".5", "1e3", "1E-3", "-.inf", ".NaN", ".nan.", "-1",
		"0.1.2", "6.8.0-45-generic", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2002-1-1",
		"<<", "8086", "0200", "v1.2.3", "abc", "+", ".", "1:20", "12:30:00", "0x", "1e", "+.inf", "-1_0",
	}
	for _, s := range scalars {
		var node yaml.Node
		if err := yaml.Unmarshal([]byte("v: "+s), &node); err != nil {
			t.Fatalf("yaml.v3 cannot read %q: %v", s, err)
		}
		value := node.Content[0].Content[1]
		tag := value.ShortTag()
		wantNull, wantStr := tag == "!!null", tag == "!!str"
		null, str := plainTag([]byte(s))
		if null != wantNull || str != wantStr {
			t.Errorf("plainTag(%q) = null %v, str %v; yaml.v3 resolves it to %s", s, null, str, tag)
		}
	}
}
