package lint

import (
	"strings"
	"testing"
)

// TestTemplateReadsThatFailOnEveryNode: a read that does not fit the
// shape of the template data (domains, features as lists of elements,
// elements as maps of fixed keys) is found from the template alone; reads
// that fit, or reach what nfd-fn cannot know (a third party's feature, a
// function's result), are not.
func TestTemplateReadsThatFailOnEveryNode(t *testing.T) {
	tests := []struct {
		name, text string
		want       string // "" for none; else a part of the one message
		cond       bool
	}{
		{"misspelt-key-of-a-fixed-instance-element", `{{ range .pci.device }}v-{{ .vendr }}=1{{ end }}`,
			`template reads .vendr: an element of pci.device has no key vendr (its keys are class, vendor, device`, false},
		{"did-you-mean-the-closest-key", `{{ range .pci.device }}v-{{ .vendr }}=1{{ end }}`, `did you mean .vendor?`, false},
		{"field-of-an-attribute-feature", `k={{ .kernel.version.major }}`,
			`template reads .kernel.version.major: feature kernel.version is a list of elements in templates, which has no field major`, false},
		{"element-name-read-as-a-key", `{{ range .kernel.version }}k={{ .major }}{{ end }}`,
			`an element of kernel.version has no key major (its keys are Name, Value)`, false},
		{"variable-from-range", `{{ range $i, $d := .pci.device }}v-{{ $d.vendr }}=1{{ end }}`, `template reads $d.vendr`, false},
		{"root-variable-inside-range", `{{ range .pci.device }}{{ $.kernel.version.major }}{{ end }}`, `feature kernel.version is a list`, false},
		{"with-on-a-feature", `{{ with .pci.device }}{{ .vendor }}{{ end }}`, `feature pci.device is a list of elements`, true},
		{"only-under-if-is-conditional", `{{ if .pci }}{{ .pci.device.vendor }}{{ end }}`, `feature pci.device is a list`, true},
		{"field-of-a-value", `{{ range .pci.device }}{{ .vendor.id }}{{ end }}`, `an element's value is a string, which has no field id`, false},
		{"fixed-instance-keys-read", `{{ range .pci.device }}v-{{ .vendor }}-{{ .class }}=1{{ end }}`, "", false},
		{"attribute-name-and-value", `{{ range .kernel.version }}{{ .Name }}={{ .Value }}{{ end }}`, "", false},
		{"flag-name", `{{ range .cpu.cpuid }}{{ .Name }}=true{{ end }}`, "", false},
		{"open-instance-feature-unknown-to-nfd-fn", `{{ range .vendor.gpu }}{{ .anything }}{{ end }}`, "", false},
		{"function-result-not-followed", `{{ range (index . "pci" "device") }}{{ .vendr }}{{ end }}`, "", false},
		{"ranged-domain-feature-unknown", `{{ range .pci }}{{ range . }}{{ .vendr }}{{ end }}{{ end }}`, "", false},
		{"template-that-does-not-parse", `{{ range .pci.device }`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shapeProblems(tt.text)
			if tt.want == "" {
				if len(got) != 0 {
					t.Fatalf("problems %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0].msg, tt.want) || got[0].conditional != tt.cond {
				t.Fatalf("problems %+v, want one containing %q (conditional %v)", got, tt.want, tt.cond)
			}
		})
	}
}
