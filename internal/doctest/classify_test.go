package doctest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSplitWordsFollowsQuotesSubstitutionsAndOperators checks how a shown
// line becomes the simple commands the classifier sees.
func TestSplitWordsFollowsQuotesSubstitutionsAndOperators(t *testing.T) {
	cases := []struct {
		name string
		line string
		want [][]string
	}{
		{"comment-dropped", "go test ./...   # run the tests", [][]string{{"go", "test", "./..."}}},
		{"env-prefix-dropped", "NODE_NAME=n kpt fn eval p --exec nfd-fn -- mode=discover",
			[][]string{{"kpt", "fn", "eval", "p", "--exec", "nfd-fn", "--", "mode=discover"}}},
		{"assignment-runs-its-substitution", `work=$(mktemp -d) && cp -r examples/a "$work"`,
			[][]string{{"mktemp", "-d"}, {}, {"cp", "-r", "examples/a", "$work"}}},
		{"pipe-and-redirect", "kpt fn source p | nfd-fn render --output nova > out.yaml",
			[][]string{{"kpt", "fn", "source", "p"}, {"nfd-fn", "render", "--output", "nova", ">", "out.yaml"}}},
		{"single-quotes-keep-regexp", "go test ./pkg/plan -run '^$' -bench 5000",
			[][]string{{"go", "test", "./pkg/plan", "-run", "^$", "-bench", "5000"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := splitWords(c.line)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if got[i] == nil {
					got[i] = []string{}
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("splitWords(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}

// TestSplitWordsRefusesShellItCannotFollow checks that constructs the
// classifier cannot see into make the block fail instead of passing half
// checked.
func TestSplitWordsRefusesShellItCannotFollow(t *testing.T) {
	for _, line := range []string{
		"echo `date`",
		"(cd x && make)",
		"cat <<EOF",
		"sleep 1 &",
		`echo "unterminated`,
	} {
		if _, err := splitWords(line); err == nil {
			t.Errorf("splitWords(%q) accepted it", line)
		}
	}
}

// TestClassifyKnowsEveryDocumentedCommandAndNothingElse checks the rules
// that decide whether a shown command can run, and what it needs.
func TestClassifyKnowsEveryDocumentedCommandAndNothingElse(t *testing.T) {
	cases := []struct {
		name     string
		words    string
		wantNeed string
		wantErr  string
	}{
		{"kpt-render", "kpt fn render pkg --allow-exec", needKpt, ""},
		{"kpt-pkg-get", "kpt pkg get https://github.com/nfd-fn/nfd-fn.git/examples/x@main", needKpt, ""},
		{"kustomize-build", "kustomize build --enable-alpha-plugins --enable-exec dir", needKustomize, ""},
		{"kubectl-apply-stub", "kubectl apply --server-side -f nodes.yaml", needNothing, ""},
		{"go-install", "go install .", needNothing, ""},
		{"make-dry-run", "make e2e", needNothing, ""},
		{"nfd-fn", "nfd-fn plan snapshot.yaml rules/", needNothing, ""},
		{"unknown-program", "helm template chart", "", "does not know how to run"},
		{"unknown-kpt-verb", "kpt live apply pkg", "", "does not know how to run"},
		{"kubectl-delete", "kubectl delete node x", "", "does not know how to run"},
		{"docker-is-not-shown", "docker build -t nfd-fn .", "", "does not know how to run"},
		{"absolute-redirect", "nfd-fn render --output nova > /etc/nova/x.yaml", "", "absolute path"},
		{"absolute-argument", "cp -r examples/x /tmp/", "", "absolute path"},
		{"home-directory", "go build -o ~/bin/nfd-fn .", "", "absolute path"},
		{"absolute-input", "nfd-fn render < /etc/x.yaml", "", "absolute path"},
		{"shard-is-not-a-path", "nfd-fn render --shard 0/2 snapshot.yaml 2>&1", needNothing, ""},
		{"kpt-fn-sink", "kpt fn sink out-0", needKpt, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			need, err := classify(strings.Fields(c.words))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("classify(%q) error = %v, want one containing %q", c.words, err, c.wantErr)
				}
				return
			}
			if err != nil || need != c.wantNeed {
				t.Errorf("classify(%q) = %q, %v; want %q", c.words, need, err, c.wantNeed)
			}
		})
	}
}

// TestReadBlocksReadsDirectivesAndIndentedFences checks the page reader:
// a directive configures only the block after it, and a fence inside a
// list item loses its indentation.
func TestReadBlocksReadsDirectivesAndIndentedFences(t *testing.T) {
	root := t.TempDir()
	page := "Text.\n\n<!-- doctest: dir=testdata/x exit=1 -->\n```sh\nnfd-fn render a\n```\n\n- item:\n\n  ```sh\n  go run . < b\n  ```\n\n```yaml\nk: v\n```\n"
	if err := os.WriteFile(filepath.Join(root, "page.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks, err := readBlocks(root, "page.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 {
		t.Fatalf("got %d blocks, want 3", len(blocks))
	}
	if b := blocks[0]; b.dir != "testdata/x" || b.exit != 1 || b.line != 4 || !reflect.DeepEqual(b.lines, []string{"nfd-fn render a"}) {
		t.Errorf("first block = %+v", b)
	}
	if b := blocks[1]; b.dir != "" || b.exit != 0 || !reflect.DeepEqual(b.lines, []string{"go run . < b"}) {
		t.Errorf("indented block = %+v", b)
	}
	if b := blocks[2]; b.lang != "yaml" {
		t.Errorf("third block's language = %q", b.lang)
	}
}

// TestDirectiveRefusesWhatCouldEscapeTheCopy checks that a directive can
// neither leave the repository copy nor be misspelt silently.
func TestDirectiveRefusesWhatCouldEscapeTheCopy(t *testing.T) {
	for _, d := range []string{
		"<!-- doctest: dir=/etc -->",
		"<!-- doctest: dir=../other -->",
		"<!-- doctest: exit=one -->",
		"<!-- doctest: exits=1 -->",
		"<!-- doctest: dir=x",
	} {
		var b block
		if err := b.configure(d); err == nil {
			t.Errorf("configure(%q) accepted it", d)
		}
	}
}

// TestKubectlStubChecksTheDocumentedCalls checks what the kubectl stand-in
// accepts: the export the README shows, and server-side apply of Nodes,
// each stream in the shape of its subresource.
func TestKubectlStubChecksTheDocumentedCalls(t *testing.T) {
	dir := t.TempDir()
	nodes := filepath.Join(dir, "nodes.yaml")
	other := filepath.Join(dir, "other.yaml")
	writeTestFile(t, nodes, "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: b\n")
	writeTestFile(t, other, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
	withStatus := filepath.Join(dir, "with-status.yaml")
	writeTestFile(t, withStatus, "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n  labels: {x: y}\nstatus:\n  capacity: {r: \"1\"}\n")
	export := filepath.Join(dir, "export.yaml")
	writeTestFile(t, export, "apiVersion: v1\nkind: List\nitems: []\n")
	t.Setenv("NFD_FN_DOCTEST_EXPORT", export)
	cases := []struct {
		name    string
		args    string
		want    string
		wantErr string
	}{
		{"export", "get nodes,nodefeatures,nodefeaturerules -A -o yaml", "apiVersion: v1\nkind: List\nitems: []\n", ""},
		{"export-as-json", "get nodes,nodefeatures -A -o json", "", "-o yaml"},
		{"export-without-nodefeatures", "get nodes -o yaml", "", "nodes and nodefeatures"},
		{"apply", "apply --server-side --field-manager=nfd-fn -f " + nodes, "node/a serverside-applied\nnode/b serverside-applied\n", ""},
		{"apply-status", "apply --server-side --field-manager=nfd-fn --subresource=status -f " + nodes, "node/a serverside-applied\nnode/b serverside-applied\n", ""},
		{"apply-with-status", "apply --server-side --field-manager=nfd-fn -f " + withStatus, "", "a status in the main resource's apply"},
		{"apply-status-with-labels", "apply --server-side --field-manager=nfd-fn --subresource=status -f " + withStatus, "", "metadata beyond the name"},
		{"client-side-apply", "apply --field-manager=nfd-fn -f " + nodes, "", "--server-side"},
		{"other-field-manager", "apply --server-side --field-manager=kubectl -f " + nodes, "", "--field-manager=nfd-fn"},
		{"apply-other-kinds", "apply --server-side --field-manager=nfd-fn -f " + other, "", "Nodes only"},
		{"unknown-flag", "apply --server-side --field-manager=nfd-fn --force-conflicts -f " + nodes, "", "does not know"},
		{"delete", "delete node a", "", "knows get and apply"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			err := kubectlStub(strings.Fields(c.args), &out)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("kubectl %s: error = %v, want one containing %q", c.args, err, c.wantErr)
				}
				return
			}
			if err != nil || out.String() != c.want {
				t.Errorf("kubectl %s: %v, printed %q; want %q", c.args, err, out.String(), c.want)
			}
		})
	}
}

// TestDockerStubRunsOnlyTheDocumentedImage checks that the docker
// stand-in refuses an image other than the one the docs show.
func TestDockerStubRunsOnlyTheDocumentedImage(t *testing.T) {
	err := dockerStub([]string{"run", "--rm", "-i", "--network", "none", "ghcr.io/nfd-fn/nfd-fn:v9.9.9"})
	if err == nil || !strings.Contains(err.Error(), documentedImage) {
		t.Errorf("error = %v, want one naming %s", err, documentedImage)
	}
}

func writeTestFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
