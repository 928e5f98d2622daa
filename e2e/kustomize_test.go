package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kustomizeExample copies examples/kustomize-transformer to a temporary
// directory and returns it.
func kustomizeExample(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "kustomize-transformer")
	copyPath(t, "../examples/kustomize-transformer", dir)
	return dir
}

// kustomizeBuild runs kustomize build with exec functions on dir.
func kustomizeBuild(t *testing.T, kustomize, dir string) (stdout, stderr string, code int) {
	t.Helper()
	return run(t, dir, commandEnv(nil), nil, kustomize, "build", "--enable-alpha-plugins", "--enable-exec", ".")
}

// TestKustomizeMinimalConfigSaysWhyNodesAreMissing is issue 26's point 4:
// with the minimal transformer config (the function annotation and no
// nodeOutput), the new Nodes are local-config previews, which kustomize
// build drops; nfd-fn recognises kustomize (its id annotation on every
// item) and says so in one stderr line naming the setting that shows
// them. With nodeOutput: apply the Nodes are in the build output (worker-b,
// which NFD gives nothing, name-only), and the README's pipeline keeps
// the Nodes alone for the two kubectl applies: the same Nodes, without the
// build's own annotations, and none of the package's NodeFeatures or
// rules.
func TestKustomizeMinimalConfigSaysWhyNodesAreMissing(t *testing.T) {
	kustomize := requireTool(t, "kustomize")
	dir := kustomizeExample(t)
	edit(t, filepath.Join(dir, "nfd-fn.yaml"), "  nodeOutput: apply\n", "")
	stdout, stderr, code := kustomizeBuild(t, kustomize, dir)
	const note = "nfd-fn: 1 new Node rendered as local-config previews, which kustomize build leaves out of its output: set nodeOutput: apply in the functionConfig to get them"
	if code != 0 || strings.Contains(stdout, "\nkind: Node\n") || strings.Count(stderr, note) != 1 {
		t.Errorf("minimal config: exit %d, a Node in the output: %v; stderr should say once %q:\n%s", code, strings.Contains(stdout, "\nkind: Node\n"), note, stderr)
	}

	// The same previews from a plain pipe: not kustomize, nothing said.
	_, stderr, code = run(t, ".", commandEnv(nil), brokenResourceList(t, false), filepath.Join(binDir, "nfd-fn"))
	if code != 0 || strings.Contains(stderr, "kustomize") {
		t.Errorf("a plain pipe: exit %d, stderr speaks of kustomize:\n%s", code, stderr)
	}

	dir = kustomizeExample(t)
	built, stderr, code := kustomizeBuild(t, kustomize, dir)
	if code != 0 || !strings.Contains(built, "\nkind: Node\n") || strings.Contains(stderr, "local-config previews") {
		t.Fatalf("nodeOutput: apply: exit %d, Node in the output: %v\n%s", code, strings.Contains(built, "\nkind: Node\n"), stderr)
	}
	// The README's pipeline: the build output through nfd-fn render
	// --output apply and --output apply-status.
	if err := os.WriteFile(filepath.Join(dir, "build.yaml"), []byte(built), 0o644); err != nil {
		t.Fatal(err)
	}
	var streams [2]string
	for i, output := range []string{"apply", "apply-status"} {
		out, stderr, code := run(t, dir, commandEnv(nil), nil, filepath.Join(binDir, "nfd-fn"), "render", "--output", output, "--config", "nfd-fn.yaml", "build.yaml")
		if code != 0 {
			t.Fatalf("render --output %s: exit %d\n%s", output, code, stderr)
		}
		if strings.Count(out, "\nkind: ") != 2 || strings.Count(out, "\nkind: Node\n") != 2 || !strings.Contains(out, "\n  name: worker-b\n") {
			t.Errorf("--output %s writes other than the two Nodes (worker-b name-only):\n%s", output, out)
		}
		streams[i] = out
	}
	nodes, status := streams[0], streams[1]
	for _, want := range []string{"name: worker-a", "vendor.example.com/sriov: \"true\"", "key: vendor.example.com/sriov"} {
		if !strings.Contains(nodes, want) {
			t.Errorf("the pipeline's Node lacks %q:\n%s", want, nodes)
		}
	}
	if !strings.Contains(status, "vendor.example.com/vfs: \"64\"") || strings.Contains(status, "labels:") {
		t.Errorf("the status stream is not the extended resources alone:\n%s", status)
	}
	for _, unwanted := range []string{"config.kubernetes.io/", "kustomize.config.k8s.io/"} {
		if strings.Contains(nodes+status, unwanted) {
			t.Errorf("the pipeline's Node carries the build's %s annotations, which kubectl apply would set on the node:\n%s", unwanted, nodes)
		}
	}
}

// TestKustomizeErrorsNameTheOrigin is issue 26's point 9 (kustomize part):
// with `buildMetadata: [originAnnotations]` kustomize says where each item
// came from, and nfd-fn's error lines on stderr name that file instead of
// <input>.
func TestKustomizeErrorsNameTheOrigin(t *testing.T) {
	kustomize := requireTool(t, "kustomize")
	dir := kustomizeExample(t)
	edit(t, filepath.Join(dir, "nodefeatures/worker-b.yaml"), `major: "5"`, `major: 5`)
	_, stderr, code := kustomizeBuild(t, kustomize, dir)
	if code == 0 || !strings.Contains(stderr, "nfd-fn: <input>: error: NodeFeature/worker-b") {
		t.Fatalf("without origins: exit %d, want an error at <input>:\n%s", code, stderr)
	}
	edit(t, filepath.Join(dir, "kustomization.yaml"), "transformers:", "buildMetadata: [originAnnotations]\ntransformers:")
	_, stderr, code = kustomizeBuild(t, kustomize, dir)
	if code == 0 || !strings.Contains(stderr, "nfd-fn: nodefeatures/worker-b.yaml: error: NodeFeature/worker-b spec.features.attributes") {
		t.Errorf("with origins: exit %d, want the error at nodefeatures/worker-b.yaml:\n%s", code, stderr)
	}
}

// TestKustomizeOriginNamesTheFileOnEveryLine is issue 34's third output
// point: with `buildMetadata: [originAnnotations]`, every stderr line
// about an object names the file kustomize read it from: a rule's errors
// (whose checks name the rule without its apiVersion), a NodeFeature's,
// and the functionConfig's (the transformer's own file); none says
// <input>.
func TestKustomizeOriginNamesTheFileOnEveryLine(t *testing.T) {
	kustomize := requireTool(t, "kustomize")
	dir := kustomizeExample(t)
	edit(t, filepath.Join(dir, "kustomization.yaml"), "transformers:", "buildMetadata: [originAnnotations]\ntransformers:")
	edit(t, filepath.Join(dir, "rules/kernel.yaml"), "op: Gt", "op: Bogus")
	edit(t, filepath.Join(dir, "nodefeatures/worker-b.yaml"), `major: "5"`, `major: 5`)
	edit(t, filepath.Join(dir, "nfd-fn.yaml"), `enableTaints: "true"`, `enableTaints: "maybe"`)
	_, stderr, code := kustomizeBuild(t, kustomize, dir)
	want := map[string]bool{"rules/kernel.yaml": false, "nodefeatures/worker-b.yaml": false, "nfd-fn.yaml": false}
	for _, line := range strings.Split(stderr, "\n") {
		file, found := strings.CutPrefix(line, "nfd-fn: ")
		if !found {
			continue
		}
		file, _, _ = strings.Cut(file, ": ")
		if _, ok := want[file]; !ok {
			t.Errorf("a line names %q, not the object's file:\n%s", file, line)
		}
		want[file] = true
	}
	for file, seen := range want {
		if !seen {
			t.Errorf("no line names %s:\n%s", file, stderr)
		}
	}
	if code == 0 {
		t.Errorf("exit 0 with errors:\n%s", stderr)
	}
}
