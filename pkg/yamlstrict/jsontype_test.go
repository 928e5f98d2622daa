package yamlstrict

import "testing"

func TestServerPathWritesMapKeysAsTheSchemaValidatorDoes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"spec.rules[0].name", "spec.rules[0].name"},
		{`spec.rules[0].labels["example.com/a"]`, "spec.rules[0].labels.example.com/a"},
		{`spec.features.attributes["kernel.config"].elements.NO_HZ`, "spec.features.attributes.kernel.config.elements.NO_HZ"},
		{`spec.rules[1].labels["a\"]b"].x[2]`, `spec.rules[1].labels.a"]b.x[2]`},
		{`spec.labels["unterminated`, `spec.labels["unterminated`},
	} {
		if got := ServerPath(c.in); got != c.want {
			t.Errorf("ServerPath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
