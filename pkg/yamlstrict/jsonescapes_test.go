package yamlstrict

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestJSONForYAMLReadsAsEncodingJSONReads: JSON that yaml.v3 refuses as
// written (\/, UTF-16 surrogates) reads, once rewritten, as encoding/json
// reads the original; escaped backslashes and every other escape are
// left alone, and text that is not JSON is not touched.
func TestJSONForYAMLReadsAsEncodingJSONReads(t *testing.T) {
	for _, text := range []string{
		`{"a": "\ud83d\ude00"}`,
		`{"a": "x\uD83D\uDE00y", "b": "\u00e9"}`,
		`{"a": "\ud83d"}`,
		`{"a": "\ude00\ud83d"}`,
		`{"a": "\ud83d\u0041"}`,
		`{"a": "http:\/\/example.com\/"}`,
		`{"a": "\\/", "b": "\\ud83d", "c": "\\\/"}`,
		`{"\ud83d\ude00": ["\/", true, {"k": "\ud83d\ude00\ud83d\ude00"}]}`,
		"{\"a\"\n:\"x\", \"b\" \r\n\t : [\"y :\"], \"c\": \"d  \", \"f\"  :  \"e\"}",
		"{\"\"\n:[{\"\":\"0\"}]}",
	} {
		var want any
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatal(err)
		}
		var got any
		if n, m := strings.Count(text, "\n"), bytes.Count(JSONForYAML([]byte(text)), []byte("\n")); n != m {
			t.Errorf("%s: %d lines became %d: positions would move", text, n+1, m+1)
		}
		if err := yaml.Unmarshal(JSONForYAML([]byte(text)), &got); err != nil {
			t.Errorf("%s: yaml.v3 refuses the rewritten text %s: %v", text, JSONForYAML([]byte(text)), err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read as %#v, want %#v", text, got, want)
		}
	}
}

func TestJSONForYAMLLeavesOtherTextAsItIs(t *testing.T) {
	for _, text := range []string{
		`{"a": "plain \" \\ \n \u00e9"}`,
		`{a: 'x\/y'}`, // flow YAML: the backslash is itself
		`{"a": "\ud83d\ude00"`,
	} {
		if got := JSONForYAML([]byte(text)); string(got) != text {
			t.Errorf("%s rewritten as %s", text, got)
		}
	}
}
