package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestValidateWorkerConfigKRMAndFilesReportTheSameLabelsGone is issue 37
// point 3 in both drivers of validate: the gpu-operator#1469 example's
// files, and the same objects as a ResourceList on stdin (one item per
// object, with kpt's path annotations), checked against the worker
// configuration after the change, give the same NFD311 findings; with the
// configuration the snapshot was taken with, neither gives any.
func TestValidateWorkerConfigKRMAndFilesReportTheSameLabelsGone(t *testing.T) {
	bin := buildListTestBinary(t)
	t.Chdir(upgradeExample)
	list := exampleResourceList(t, "snapshot.yaml", "gpu-operator.yaml")
	for _, tc := range []struct {
		worker string
		want   int
	}{{"worker-after.yaml", 3}, {"worker-before.yaml", 0}} {
		t.Run(tc.worker, func(t *testing.T) {
			files := runBinary(t, bin, nil, "validate", "-o", "json", "--worker-config", tc.worker, "snapshot.yaml", "gpu-operator.yaml")
			if files.code != 0 {
				t.Fatalf("files: exit %d\n%s", files.code, files.stderr)
			}
			var fromFiles testkit.List
			if err := json.Unmarshal([]byte(files.stdout), &fromFiles.Results); err != nil {
				t.Fatalf("files: -o json: %v\n%s", err, files.stdout)
			}
			krm := runBinary(t, bin, list, "validate", "--worker-config", tc.worker)
			if krm.code != 0 {
				t.Fatalf("ResourceList: exit %d\n%s", krm.code, krm.stderr)
			}
			got, want := labelsGone(testkit.Read(t, []byte(krm.stdout))), labelsGone(fromFiles)
			if len(want) != tc.want {
				t.Fatalf("files: %d NFD311 findings, want %d:\n%s", len(want), tc.want, strings.Join(want, "\n"))
			}
			if !slices.Equal(got, want) {
				t.Errorf("the ResourceList's NFD311 findings differ from the files':\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
	t.Run("unreadable-worker-config", func(t *testing.T) {
		got := runBinary(t, bin, list, "validate", "--worker-config", "does-not-exist.yaml")
		if got.code != 2 || !strings.Contains(got.stderr, "nfd-fn validate: --worker-config:") || got.stdout != "" {
			t.Errorf("exit %d, want 2 and no output\nstdout:\n%s\nstderr:\n%s", got.code, got.stdout, got.stderr)
		}
	})
}

// labelsGone are the NFD311 findings of l, each as its severity, object,
// file and message, sorted.
func labelsGone(l testkit.List) []string {
	var out []string
	for _, r := range l.WithCheck("worker-label-gone") {
		ref := r.ResourceRef
		out = append(out, fmt.Sprintf("%s %s/%s/%s %s: %s", r.Severity, ref["kind"], ref["namespace"], ref["name"], r.File.Path, r.Message))
	}
	slices.Sort(out)
	return out
}

// exampleResourceList is the objects of files (a kubectl List or a
// multi-document stream, as helm template prints it) as a ResourceList's
// items, one per object with kpt's path and index annotations naming the
// file it came from, as kpt fn source gives them.
func exampleResourceList(t *testing.T, files ...string) []byte {
	t.Helper()
	var items []map[string]any
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, obj := range exampleObjects(t, file, string(text)) {
			meta, _ := obj["metadata"].(map[string]any)
			annotations, _ := meta["annotations"].(map[string]any)
			if annotations == nil {
				annotations = map[string]any{}
			}
			annotations["config.kubernetes.io/path"] = filepath.ToSlash(file)
			annotations["config.kubernetes.io/index"] = fmt.Sprint(i)
			meta["annotations"] = annotations
			items = append(items, obj)
		}
	}
	out, err := sigsyaml.Marshal(map[string]any{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": items})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// exampleObjects are the objects of one file's text: a List's items, or
// each document of a stream.
func exampleObjects(t *testing.T, file, text string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, doc := range strings.Split("\n"+text, "\n---") {
		var obj map[string]any
		if err := sigsyaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		switch items, _ := obj["items"].([]any); {
		case obj == nil:
		case obj["kind"] == "List":
			for _, it := range items {
				objs = append(objs, it.(map[string]any))
			}
		default:
			objs = append(objs, obj)
		}
	}
	return objs
}
