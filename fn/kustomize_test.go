package fn

import "testing"

func TestOriginTextIsThePathOrKustomizesRemoteSpelling(t *testing.T) {
	for _, tt := range []struct{ annotation, want string }{
		{"path: nodefeatures/worker-a.yaml\n", "nodefeatures/worker-a.yaml"},
		{"path: rules/gpu.yaml\nrepo: https://github.com/example/fleet\nref: v1\n", "https://github.com/example/fleet//rules/gpu.yaml?ref=v1"},
		{"path: rules/gpu.yaml\nrepo: https://github.com/example/fleet\n", "https://github.com/example/fleet//rules/gpu.yaml"},
		// A generated item: where it was configured, no file of its own.
		{"configuredIn: nfd-fn.yaml\nconfiguredBy: {kind: ConfigMap}\n", ""},
		{"[not, a, map]", ""},
		{"", ""},
	} {
		if got := originText(tt.annotation); got != tt.want {
			t.Errorf("originText(%q) = %q, want %q", tt.annotation, got, tt.want)
		}
	}
}
