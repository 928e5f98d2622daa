package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/admission"
	"github.com/nfd-fn/nfd-fn/pkg/release"
	"github.com/nfd-fn/nfd-fn/tools/internal/corpus"
)

// fieldValidations are the API server's three settings: Strict is
// kubectl's default, Warn client-go's (Helm, operators, GitOps
// controllers), Ignore drops unknown fields silently.
var fieldValidations = []string{"Strict", "Warn", "Ignore"}

// resources are the NFD kinds' plurals and scopes.
var resources = map[string]struct {
	plural     string
	namespaced bool
}{
	"NodeFeature":      {"nodefeatures", true},
	"NodeFeatureRule":  {"nodefeaturerules", false},
	"NodeFeatureGroup": {"nodefeaturegroups", true},
}

// serverAnswer is what the API server made of one dry-run create.
type serverAnswer struct {
	refused bool
	message string
	// unknown are the unknown fields it named: in its warnings under
	// Warn, in its refusal under Strict.
	unknown []string
	// truncated are the starts of unknown fields whose warnings the
	// server cut: past 4,096 characters of warnings in one response it
	// keeps 256 of each (k8s.io/apiserver's warning recorder).
	truncated []string
}

// names reports whether the answer names exactly the fields of want: each
// in full, or cut to one of its truncated starts.
func (a serverAnswer) names(want []string) bool {
	if len(want) != len(a.unknown)+len(a.truncated) {
		return false
	}
	rest := slices.Clone(a.truncated)
	for _, w := range want {
		if slices.Contains(a.unknown, w) {
			continue
		}
		i := slices.IndexFunc(rest, func(p string) bool { return strings.HasPrefix(w, p) })
		if i < 0 {
			return false
		}
		rest = slices.Delete(rest, i, i+1)
	}
	return true
}

// expected is nfd-fn's verdict on an object under one fieldValidation:
// pkg/admission's schema verdict and pkg/objects' metadata errors, with
// pruned fields refusing the object under Strict only.
func expected(v admission.Verdict, metadata []string, fieldValidation string) serverAnswer {
	refused := v.Rejected() || len(metadata) > 0
	var unknown []string
	if fieldValidation != "Ignore" {
		unknown = slices.Compact(slices.Sorted(slices.Values(v.Pruned)))
	}
	if fieldValidation == "Strict" && len(unknown) > 0 {
		refused = true
	}
	if refused && fieldValidation != "Strict" {
		unknown = nil // a refusal carries no unknown-field warnings to compare
	}
	return serverAnswer{refused: refused, unknown: unknown}
}

// testAdmission creates every distinct NFD object of the testdata and
// fuzz corpora (dry run) on each release's CRDs under each
// fieldValidation and compares the API server's answer with nfd-fn's.
func testAdmission(t *testing.T, p *plane) {
	objs := distinctObjects(t)
	p.createNamespaces(t, objs)
	counts := map[string]int{}
	for _, line := range release.Lines() {
		tag := line.CRDs.String()
		if err := p.useCRDs(crdStream(t, tag)); err != nil {
			t.Fatalf("%s's CRDs: %v", tag, err)
		}
		for _, fv := range fieldValidations {
			answers := p.createAll(objs, fv)
			for i, o := range objs {
				s, err := admission.SchemaFor(release.Version{Minor: line.Minor}, o.Kind)
				if err != nil || s == nil {
					t.Fatalf("pkg/admission has no %s schema for %s: %v", o.Kind, tag, err)
				}
				want := expected(admission.Check(s, o.Node), corpus.MetadataErrors(o.Node), fv)
				got := answers[i]
				if got.refused != want.refused || (!got.refused || fv == "Strict") && !got.names(want.unknown) {
					t.Errorf("%s (%s) on %s's CRDs, fieldValidation=%s: API server refused=%v unknown=%q (%s); nfd-fn refused=%v unknown=%q",
						o.Where, o.Kind, tag, fv, got.refused, got.unknown, got.message, want.refused, want.unknown)
				}
				counts[verdictName(got)]++
			}
		}
	}
	t.Logf("%d distinct NFD objects x %d releases x %d fieldValidations: %v", len(objs), len(release.Lines()), len(fieldValidations), counts)
	if counts["refused"] == 0 || counts["pruned"] == 0 || counts["accepted"] == 0 {
		t.Errorf("the corpus must hold objects the API server refuses, prunes and accepts: %v", counts)
	}
}

func verdictName(a serverAnswer) string {
	switch {
	case a.refused:
		return "refused"
	case len(a.unknown)+len(a.truncated) > 0:
		return "pruned"
	}
	return "accepted"
}

// distinctObjects is the corpus with each (kind, JSON) once.
func distinctObjects(t *testing.T) []corpus.Object {
	all, _, err := corpus.Collect(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []corpus.Object
	for _, o := range all {
		if key := o.Kind + "\x00" + string(o.JSON); !seen[key] {
			seen[key] = true
			out = append(out, o)
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d distinct NFD objects in the corpus", len(out))
	}
	return out
}

// head is the part of an object that picks its URL.
type head struct {
	Metadata struct {
		Namespace string `json:"namespace"`
	} `json:"metadata"`
}

// createNamespaces creates the namespaces the corpus's objects name, as
// the cluster they are applied to would have them; names no namespace
// can have are left to refuse their objects.
func (p *plane) createNamespaces(t *testing.T, objs []corpus.Object) {
	seen := map[string]bool{"default": true}
	for _, o := range objs {
		var h head
		if json.Unmarshal(o.JSON, &h) != nil || seen[h.Metadata.Namespace] || h.Metadata.Namespace == "" {
			continue
		}
		seen[h.Metadata.Namespace] = true
		body := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, h.Metadata.Namespace)
		if r := p.do("POST", "/api/v1/namespaces", "application/json", []byte(body)); r.err != nil {
			t.Fatal(r.err)
		}
	}
}

// createAll creates each object (dry run) under fieldValidation, four
// requests at a time, and returns the answers in the objects' order.
func (p *plane) createAll(objs []corpus.Object, fieldValidation string) []serverAnswer {
	out := make([]serverAnswer, len(objs))
	work := make(chan int)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i] = p.create(objs[i], fieldValidation)
			}
		}()
	}
	for i := range objs {
		work <- i
	}
	close(work)
	wg.Wait()
	return out
}

// create sends one object as kubectl create would, to its namespace
// (default when it names none), dry run.
func (p *plane) create(o corpus.Object, fieldValidation string) serverAnswer {
	r := resources[o.Kind]
	path := "/apis/" + corpus.GroupVersion + "/" + r.plural
	if r.namespaced {
		var h head
		_ = json.Unmarshal(o.JSON, &h)
		ns := h.Metadata.Namespace
		if ns == "" {
			ns = "default"
		}
		path = "/apis/" + corpus.GroupVersion + "/namespaces/" + url.PathEscape(ns) + "/" + r.plural
	}
	resp := p.do("POST", path+"?dryRun=All&fieldValidation="+fieldValidation, "application/json", o.JSON)
	if resp.err != nil {
		return serverAnswer{refused: true, message: resp.err.Error()}
	}
	a := serverAnswer{refused: resp.code != http.StatusCreated}
	if a.refused {
		var status struct{ Message string }
		_ = json.Unmarshal(resp.body, &status)
		a.message = fmt.Sprintf("%d %s", resp.code, status.Message)
		a.unknown = unknownFields(status.Message)
	} else {
		for _, w := range resp.warnings {
			if m := unknownField.FindStringSubmatch(w); m != nil {
				a.unknown = append(a.unknown, m[1])
			} else if start, ok := strings.CutPrefix(w, `unknown field "`); ok {
				a.truncated = append(a.truncated, start)
			}
		}
		slices.Sort(a.unknown)
		a.unknown = slices.Compact(a.unknown)
	}
	return a
}

var unknownField = regexp.MustCompile(`unknown field "([^"]*)"`)

// unknownFields are the fields an API server message names as unknown,
// sorted.
func unknownFields(msg string) []string {
	var out []string
	for _, m := range unknownField.FindAllStringSubmatch(msg, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}
