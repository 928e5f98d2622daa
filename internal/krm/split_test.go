package krm

import (
	"fmt"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestSplitterSkipsOnlyCommentsYAMLAccepts checks, character class by
// character class, that a comment the splitter skips unread is one the
// YAML reader would accept: anything else must go to the full parser so
// that the error is reported, as the fuzz targets found for a NUL and a
// Latin-1 byte in a header comment.
func TestSplitterSkipsOnlyCommentsYAMLAccepts(t *testing.T) {
	chars := []string{
		"a", "\t", "\x00", "\x07", "\x1b", "\x7f", "\xe9", "\xc3\xa9",
		"\u0085", "\u0090", "\u00a0", "\u202e", "\ud7ff", "\ufeff",
		"\ufffd", "\ufffe", "\uffff", "\U0001f600", "\xed\xa0\x80",
	}
	for _, c := range chars {
		t.Run(fmt.Sprintf("%q", c), func(t *testing.T) {
			data := []byte("# note " + c + "\napiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n")
			var v any
			yamlErr := yaml.Unmarshal(data, &v)
			if got, want := yamlReadable([]byte("# note "+c+"\n")), yamlErr == nil; got != want {
				t.Errorf("yamlReadable says %v, yaml.v3 error %v", got, yamlErr)
			}
			if _, err := Read(data, ReadOptions{}); (err == nil) != (yamlErr == nil) {
				t.Errorf("Read error %v, yaml.v3 error %v", err, yamlErr)
			}
		})
	}
}
