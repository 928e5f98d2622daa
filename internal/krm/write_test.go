package krm

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
)

// writeList writes rl with results, known before the write begins, as
// fn writes a list it has rendered whole.
func writeList(rl *ResourceList, w io.Writer, results []*sdk.Result) error {
	return rl.WriteThen(w, func() []*sdk.Result { return results })
}

// TestResultsEncodeAsTheirTrees checks that encoding results straight
// from their structs, in batches, gives the bytes that encoding each as a
// yaml.Node in one sequence gave: the output stayed byte-identical when
// Write began to stream.
func TestResultsEncodeAsTheirTrees(t *testing.T) {
	messages := []string{"plain", "multi\nline\n", "  leading spaces", "trailing  ", "yes", "123", "a: b", "- dash",
		"tab\there", "quote \" and ' both", strings.Repeat("long words ", 30), "ünïcödé ✓", "#hash", "", "null", "~"}
	var results []*sdk.Result
	for i, m := range messages {
		res := &sdk.Result{Severity: sdk.Severity([]string{"error", "warning", "info"}[i%3]), Message: m}
		if i%2 == 0 {
			res.ResourceRef = &sdk.ResourceRef{APIVersion: "v1", Kind: "ConfigMap", Name: m}
			res.Field = &sdk.Field{Path: "data." + m}
			res.File = &sdk.File{Path: "dir/" + m + ".yaml", Index: i}
			res.Tags = map[string]string{"b": m, "a": "1"}
		}
		results = append(results, res)
	}
	var want, got bytes.Buffer
	ww, gw := bufio.NewWriter(&want), bufio.NewWriter(&got)
	for _, res := range results {
		if err := writeElement(ww, "results", resultNode(res)); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeResultBatch(gw, results); err != nil {
		t.Fatal(err)
	}
	ww.Flush()
	gw.Flush()
	if got.String() != want.String() {
		t.Errorf("batch encoding differs:\n got:\n%s\nwant:\n%s", got.String(), want.String())
	}
}

// TestWriteKeepsUnchangedItemsAndAppendsNewOnes checks the fast path's
// output: input bytes for unchanged items, broken items left out, a new
// item encoded at the list's indentation, results last.
func TestWriteKeepsUnchangedItemsAndAppendsNewOnes(t *testing.T) {
	in := listHeader + "items:\n  - a: 1   # kept\n  - b: [\n  - c:   3\n"
	rl, err := Read([]byte(in), ReadOptions{Limits: Limits{MaxFallbackBytes: 1}})
	if err != nil {
		t.Fatal(err)
	}
	rl.Append(MapNode(map[string]string{"d": "4"}))
	var out bytes.Buffer
	if err := writeList(rl, &out, []*sdk.Result{{Severity: sdk.Error, Message: "m"}}); err != nil {
		t.Fatal(err)
	}
	want := listHeader + "items:\n  - a: 1   # kept\n  - c:   3\n  - d: \"4\"\nresults:\n  - message: m\n    severity: error\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
