package labelview

import (
	"bytes"
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

func fleet() []Node {
	nodes := []Node{
		NewNode("worker-b", nil, nil, nil, nil),
		NewNode("gpu-1",
			map[string]string{"nvidia.com/gpu.present": "true", "feature.node.kubernetes.io/cpu-avx2": "true"},
			map[string]string{"nfd.node.kubernetes.io/gpu-model": "A100\tSXM"},
			[]api.Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: "NoSchedule"}, {Key: "dedicated", Effect: "NoExecute"}},
			map[string]string{"nvidia.com/gpu": "8"}),
	}
	Sort(nodes)
	return nodes
}

func TestWriteTextOneRowPerThingNodeNameOnEveryRow(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, fleet()); err != nil {
		t.Fatal(err)
	}
	want := `NODE      KIND        KEY                                  VALUE
gpu-1     label       feature.node.kubernetes.io/cpu-avx2  true
gpu-1     label       nvidia.com/gpu.present               true
gpu-1     annotation  nfd.node.kubernetes.io/gpu-model     "A100\tSXM"
gpu-1     taint       dedicated                            :NoExecute
gpu-1     taint       nvidia.com/gpu                       present:NoSchedule
gpu-1     resource    nvidia.com/gpu                       8
worker-b  -           (nothing)
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteJSONHasEveryMemberAndSortedKeys(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, fleet()[1:]); err != nil {
		t.Fatal(err)
	}
	want := `{
  "nodes": [
    {
      "name": "worker-b",
      "labels": {},
      "annotations": {},
      "taints": [],
      "extendedResources": {}
    }
  ]
}
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteJSON(&b, nil); err != nil || b.String() != "{\n  \"nodes\": []\n}\n" {
		t.Errorf("no nodes: %q, %v", b.String(), err)
	}
}

func TestTaintStringIsKubectls(t *testing.T) {
	for _, tt := range []struct {
		t    Taint
		want string
	}{
		{Taint{"k", "v", "NoSchedule"}, "k=v:NoSchedule"},
		{Taint{"k", "", "NoExecute"}, "k:NoExecute"},
	} {
		if got := tt.t.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.t, got, tt.want)
		}
	}
}
