package engine

import (
	"testing"
	"time"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// fuzzDeadline bounds one compile and execution of a fuzzed template:
// MaxTemplateTime is the budget's backstop per execution, and a rule runs
// its labels and vars templates once each. The margin past that is for a
// machine at load 20 (fuzz workers on every core, other builds beside
// them): a template that never stops still fails, a slow machine does not.
const fuzzDeadline = 3*MaxTemplateTime + 30*time.Second

// FuzzTemplate compiles and executes an arbitrary template, as the
// labelsTemplate and the varsTemplate of a rule matching the test node,
// in the sandbox: it must never panic, and must return (a result or an
// error) within the budget's time.
func FuzzTemplate(f *testing.F) {
	for _, s := range templateSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tmpl string) {
		start := time.Now()
		rs, _ := Compile([]*api.NodeFeatureRule{ruleObject("fuzz", api.Rule{Name: "fuzz", LabelsTemplate: tmpl, VarsTemplate: tmpl,
			MatchFeatures: api.FeatureMatcher{{Feature: "pci.device", MatchExpressions: &api.MatchExpressionSet{}}}})})
		rs.Execute(testFeatures())
		if d := time.Since(start); d > fuzzDeadline {
			t.Fatalf("template ran %v, past the budget's %v:\n%q", d, fuzzDeadline, tmpl)
		}
	})
}

// templateSeeds are the NFD documentation's templates and the cases of
// issue 17 point 5 the budget stops.
var templateSeeds = []string{
	"{{ range .pci.device }}vendor-{{ .vendor }}-present=true\n{{ end }}",
	"{{ range $k, $v := .cpu.cpuid }}cpu-{{ $k }}=true\n{{ end }}",
	`{{ $x := repeat 100000000 "a" }}`,
	`{{ range until 16000 }}{{ range until 16000 }}{{ end }}{{ end }}`,
	`{{ $l := list }}{{ range until 16000 }}{{ $l = append $l 1 }}{{ end }}`,
	`{{ $d := list 1 }}{{ range until 40 }}{{ $d = list $d $d }}{{ end }}{{ $x := deepCopy $d }}{{ toJson $d }}`,
	`{{ $d := dict }}{{ $_ := set $d "self" $d }}x={{ $d }}`,
	`{{ define "a" }}{{ template "a" . }}{{ end }}{{ template "a" 0 }}`,
	`{{ $x := seq 100000000 }}{{ $y := untilStep 0 100000000 1 }}`,
	`x={{ now }}{{ uuidv4 }}{{ randAlphaNum 10 }}{{ sha256sum "a" }}`,
	`{{ printf "%262144d" 1 }}{{ indent 100000000 "a" }}`,
	`{{ env "HOME" }}{{ expandenv "$HOME" }}{{ getHostByName "example.com" }}`,
	"a=\x1b[2J\u202e{{ .x",
}
