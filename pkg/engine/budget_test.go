package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nfd-fn/nfd-fn/pkg/release"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// runTemplate runs a varsTemplate through a whole rule on the test node and
// returns the rule's evaluation error, if any.
func runTemplate(t *testing.T, tmpl string) *EvalError {
	t.Helper()
	rs, diags := Compile([]*api.NodeFeatureRule{ruleObject("obj", api.Rule{Name: "budget", VarsTemplate: tmpl,
		MatchFeatures: api.FeatureMatcher{{Feature: "pci.device", MatchExpressions: &api.MatchExpressionSet{}}}})})
	for _, d := range diags {
		if d.Severity == SeverityError {
			t.Fatalf("diagnostic: %v", d)
		}
	}
	_, errs := rs.Execute(testFeatures())
	if len(errs) > 1 {
		t.Fatalf("errors: %v", errs)
	}
	if len(errs) == 0 {
		return nil
	}
	return errs[0]
}

func TestTemplateBudgetCaps(t *testing.T) {
	tests := []struct {
		name string
		tmpl string
		// limit is the BudgetError limit expected, "" for success.
		limit string
	}{
		{"output-at-cap", fmt.Sprintf(`x={{ repeat %d "a" }}`, MaxTemplateOutput-2), ""},
		{"output-over-cap", fmt.Sprintf(`x={{ repeat %d "a" }}`, MaxTemplateOutput-1), "output"},
		{"steps-at-cap", fmt.Sprintf(`{{ range %d }}{{ end }}`, MaxTemplateSteps), ""},
		{"steps-over-cap", fmt.Sprintf(`{{ range %d }}{{ end }}`, MaxTemplateSteps+1), "steps"},
		{"value-at-cap", fmt.Sprintf(`{{ $x := repeat %d "a" }}`, MaxTemplateValue), ""},
		{"value-over-cap", fmt.Sprintf(`{{ $x := repeat %d "a" }}`, MaxTemplateValue+1), "value size"},
		{"until-at-cap", fmt.Sprintf(`{{ $x := until %d }}`, MaxTemplateValue/16), ""},
		{"until-over-cap", fmt.Sprintf(`{{ $x := until %d }}`, MaxTemplateValue/16+1), "value size"},
		{"printf-width-under-cap", `{{ $x := printf "%262000d" 1 }}`, ""},
		{"printf-width-over-cap", `{{ $x := printf "%262144d" 1 }}`, "value size"},
		// 63 strings of 256 KiB and until's 63 entries stay under 16 MiB;
		// 64 go over.
		{"allocation-under-cap", `{{ range until 63 }}{{ $x := repeat 262144 "a" }}{{ end }}`, ""},
		{"allocation-over-cap", `{{ range until 64 }}{{ $x := repeat 262144 "a" }}{{ end }}`, "allocation"},
		{"nested-ranges-over-data-are-counted", `{{ range .pci.device }}{{ range 600000 }}{{ end }}{{ end }}`, "steps"},
		{"append-in-a-loop", `{{ $l := list }}{{ range until 16000 }}{{ $l = append $l 1 }}{{ end }}`, "allocation"},
		{"seq-huge", `{{ $x := seq 100000000 }}`, "value size"},
		{"indent-huge", `{{ $x := indent 100000000 "a" }}`, "value size"},
		{"replace-empty-old-multiplies", `{{ $s := repeat 60000 "a" }}{{ $x := replace "" (repeat 100 "b") $s }}`, "value size"},
		{"join-long-separator", `{{ $x := join (repeat 1000 "b") (until 1000) }}`, "value size"},
		{"rand-huge", `{{ $x := randAlphaNum 100000000 }}`, "value size"},
		{"doubling-dag-refused-when-walked", `{{ $d := dict "a" "b" }}{{ range until 40 }}{{ $d = dict "l" $d "r" $d }}{{ end }}{{ $x := toJson $d }}`, "value size"},
		{"doubling-dag-refused-when-copied", `{{ $d := list 1 }}{{ range until 40 }}{{ $d = list $d $d }}{{ end }}{{ $x := deepCopy $d }}`, "value size"},
		{"doubling-dag-refused-when-printed", `{{ $d := list 1 }}{{ range until 40 }}{{ $d = list $d $d }}{{ end }}x={{ $d }}`, "output"},
		{"cyclic-dict-refused-when-printed", `{{ $d := dict }}{{ $_ := set $d "self" $d }}x={{ $d }}`, "output"},
		{"cyclic-dict-refused-when-formatted", `{{ $d := dict }}{{ $_ := set $d "self" $d }}{{ $x := toString $d }}`, "value size"},
		{"string-doubling", `{{ $s := "ab" }}{{ range until 40 }}{{ $s = cat $s $s }}{{ end }}`, "value size"},
		{"recursive-template", `{{ define "a" }}{{ if lt . 40 }}{{ template "a" (add1 .) }}{{ template "a" (add1 .) }}{{ end }}{{ end }}{{ template "a" 0 }}`, "steps"},
		{"uniq-long-list", `{{ $x := uniq (until 16000) }}`, "steps"},
	}
	frozen := time.Unix(0, 0)
	budgetClock = func() time.Time { return frozen }
	defer func() { budgetClock = time.Now }()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := runTemplate(t, tt.tmpl)
			if tt.limit == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var be *BudgetError
			if err == nil || !errors.As(err.Err, &be) || be.Limit != tt.limit {
				t.Fatalf("error = %v; want a %q budget error", err, tt.limit)
			}
			if err.RuleName != "budget" || err.Field != "spec.rules[0].varsTemplate" || !errors.As(err, new(*BudgetError)) {
				t.Errorf("error names rule %q field %q; want the rule and its varsTemplate", err.RuleName, err.Field)
			}
		})
	}
}

func TestTemplateSizeCapMatchesNFD(t *testing.T) {
	pad := func(n int) string { return "x=y" + strings.Repeat(" ", n-3) }
	env := newTemplateEnv(release.Default())
	if _, err := parseKVTemplate(pad(MaxTemplateSize), env); err != nil {
		t.Errorf("template of %d bytes: %v", MaxTemplateSize, err)
	}
	_, err := parseKVTemplate(pad(MaxTemplateSize+1), env)
	if err == nil || !errors.Is(err, errTemplateTooLarge) || err.Error() != fmt.Sprintf("the template is larger than nfd-master accepts: %d bytes > %d limit", MaxTemplateSize+1, MaxTemplateSize) {
		t.Errorf("template over the cap: %v", err)
	}
}

func TestTemplateTimeBudget(t *testing.T) {
	clock := time.Unix(0, 0)
	b := budget{now: func() time.Time { return clock }}
	b.reset()
	spend64 := func() error {
		for range 64 {
			if err := b.spend("", 1); err != nil {
				return err
			}
		}
		return nil
	}
	clock = clock.Add(MaxTemplateTime)
	if err := spend64(); err != nil {
		t.Fatalf("at the deadline: %v", err)
	}
	clock = clock.Add(time.Nanosecond)
	var be *BudgetError
	if err := spend64(); !errors.As(err, &be) || be.Limit != "time" {
		t.Fatalf("past the deadline: %v", err)
	}
}

func TestExpensiveFunctionsCostSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("bcrypt is slow")
	}
	frozen := time.Unix(0, 0)
	budgetClock = func() time.Time { return frozen }
	defer func() { budgetClock = time.Now }()
	if err := runTemplate(t, `{{ range until 9 }}{{ $x := bcrypt "p" }}{{ end }}`); err != nil {
		t.Fatalf("9 bcrypt calls: %v", err)
	}
	if err := runTemplate(t, `{{ range until 10 }}{{ $x := bcrypt "p" }}{{ end }}`); err == nil || !errors.As(err, new(*BudgetError)) {
		t.Fatalf("10 bcrypt calls: %v; want a steps budget error", err)
	}
}

func TestInstrumentationKeepsOutput(t *testing.T) {
	tests := []struct{ name, tmpl, want string }{
		{"data-field", `{{ range .pci.device }}v-{{ .vendor }}=1{{ "\n" }}{{ end }}`, "v-10de=1,v-8086=1"},
		{"built-list-printed-like-fmt", `x={{ list 1 "a" (dict "k" "v") }}`, "x=[1 a map[k:v]]"},
		{"nil-prints-no-value", `x={{ first list }}`, "x=<no value>"},
		{"trim-markers-kept", "{{- range until 2 -}}\n  k{{ . }}={{ . }}\n{{ end -}}", "k0=0,k1=1"},
		{"variables-in-loops", `{{ $n := 0 }}{{ range until 3 }}{{ $n = add $n . }}{{ end }}n={{ $n }}`, "n=3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, _ := Compile([]*api.NodeFeatureRule{ruleObject("obj", api.Rule{Name: "r", VarsTemplate: tt.tmpl,
				MatchFeatures: api.FeatureMatcher{{Feature: "pci.device", MatchExpressions: &api.MatchExpressionSet{}}}})})
			results, errs := rs.Execute(testFeatures())
			if len(errs) != 0 || len(results) != 1 {
				t.Fatalf("results = %v, errs = %v", results, errs)
			}
			var got []string
			for _, k := range sortedKeys(results[0].Vars) {
				got = append(got, k+"="+results[0].Vars[k])
			}
			if strings.Join(got, ",") != tt.want {
				t.Errorf("vars = %s, want %s", strings.Join(got, ","), tt.want)
			}
		})
	}
}

// TestSlowTemplateRunsOutOfTimeOnceNotOnEveryNode is issue 34 §4: the
// time budget is per execution, so a template slow on every node cost a
// run MaxTemplateTime per node (40 nodes, 82 s). It runs once: the clock
// is read while the first node's execution runs, never for the other
// nodes, which all fail with the same time budget error.
func TestSlowTemplateRunsOutOfTimeOnceNotOnEveryNode(t *testing.T) {
	reads := 0
	clock := time.Unix(0, 0)
	budgetClock = func() time.Time {
		reads++
		clock = clock.Add(MaxTemplateTime / 8) // every look at the clock finds it later
		return clock
	}
	defer func() { budgetClock = time.Now }()
	rs, _ := Compile([]*api.NodeFeatureRule{ruleObject("obj", api.Rule{Name: "slow", VarsTemplate: `{{ range until 10000 }}{{ len "x" }}{{ end }}`,
		MatchFeatures: api.FeatureMatcher{{Feature: "pci.device", MatchExpressions: &api.MatchExpressionSet{}}}})})
	var first error
	readsAfterFirst := 0
	for node := range 40 {
		_, errs := rs.Execute(testFeatures())
		var be *BudgetError
		if len(errs) != 1 || !errors.As(errs[0], &be) || be.Limit != "time" {
			t.Fatalf("node %d: %v, want the time budget error", node, errs)
		}
		if node == 0 {
			first, readsAfterFirst = be, reads
			continue
		}
		if be != first {
			t.Errorf("node %d: %v, not the first node's error", node, be)
		}
	}
	if readsAfterFirst == 0 || reads != readsAfterFirst {
		t.Errorf("the clock was read %d times by the first node, %d by the 39 others: the template ran again", readsAfterFirst, reads-readsAfterFirst)
	}
}
