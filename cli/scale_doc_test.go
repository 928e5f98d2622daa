package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

const scaleDoc = "../docs/scale.md"

// yamlBlocks returns the ```yaml blocks of a Markdown file.
func yamlBlocks(t *testing.T, path string) []string {
	t.Helper()
	re := regexp.MustCompile("(?s)```yaml\n(.*?)```")
	var out []string
	for _, m := range re.FindAllStringSubmatch(readFile(t, path), -1) {
		out = append(out, m[1])
	}
	return out
}

// blockWith is the one YAML block of the doc that contains marker.
func blockWith(t *testing.T, marker string) string {
	t.Helper()
	var found []string
	for _, b := range yamlBlocks(t, scaleDoc) {
		if strings.Contains(b, marker) {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s: %d yaml blocks contain %q, want 1", scaleDoc, len(found), marker)
	}
	return found[0]
}

// fleetDir copies the cluster export into dir/fleet as the recipes expect
// it: fleet/snapshot.yaml and fleet/rules.
func fleetDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "fleet", "snapshot.yaml"), readFile(t, filepath.Join(exportDir, "snapshot.yaml")))
	rules := filepath.Join(exportDir, "rules")
	if err := filepath.Walk(rules, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(rules, p)
		writeFile(t, filepath.Join(dir, "fleet", "rules", rel), readFile(t, p))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// run runs nfd-fn with args and fails the test on an exit code above 0.
func run(t *testing.T, args []string) string {
	t.Helper()
	out, errOut, code := testkit.Command(Main, "", args...)
	if code != 0 {
		t.Fatalf("nfd-fn %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// nodeDocs splits a YAML stream of Nodes into their documents by name.
func nodeDocs(t *testing.T, stream string) map[string]string {
	t.Helper()
	out := map[string]string{}
	if !strings.HasPrefix(stream, "---\n") {
		t.Fatalf("the stream does not start with a document marker: streams written apart would not concatenate")
	}
	for _, doc := range strings.Split(stream, "---\n") {
		if strings.TrimSpace(doc) == "" {
			continue
		}
		var n struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal([]byte(doc), &n); err != nil || n.Kind != "Node" {
			t.Fatalf("not a Node (%v):\n%s", err, doc)
		}
		if _, twice := out[n.Metadata.Name]; twice {
			t.Errorf("Node %s is written twice", n.Metadata.Name)
		}
		out[n.Metadata.Name] = doc
	}
	return out
}

// catFiles concatenates the files matching pattern in name order, as
// `cat nodes-*.yaml` does.
func catFiles(t *testing.T, pattern string) string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s (%v)", pattern, err)
	}
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		b.WriteString(readFile(t, f))
	}
	return b.String()
}

// TestIndexedJobRecipeRendersTheFleet reads docs/scale.md's Indexed Job
// as a batch/v1 Job, runs its container's arguments for every completion
// index (the volumes mapped to temporary directories) and checks that the
// merged outputs are the Nodes of one full run.
func TestIndexedJobRecipeRendersTheFleet(t *testing.T) {
	var job batchv1.Job
	if err := yaml.UnmarshalStrict([]byte(blockWith(t, "kind: Job")), &job); err != nil {
		t.Fatalf("the Indexed Job in %s is not a batch/v1 Job: %v", scaleDoc, err)
	}
	if job.Spec.CompletionMode == nil || *job.Spec.CompletionMode != batchv1.IndexedCompletion || job.Spec.Completions == nil {
		t.Fatalf("the Job is not an Indexed Job with completions")
	}
	c := job.Spec.Template.Spec.Containers[0]
	if len(c.Env) != 1 || c.Env[0].ValueFrom == nil || c.Env[0].ValueFrom.FieldRef == nil ||
		c.Env[0].ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Fatalf("the container does not take its index from the completion-index annotation: %+v", c.Env)
	}
	dir := fleetDir(t)
	outDir := t.TempDir()
	mount := strings.NewReplacer("/fleet/", dir+"/fleet/", "/out/", outDir+"/")
	for i := range int(*job.Spec.Completions) {
		var args []string
		for _, a := range c.Args {
			args = append(args, mount.Replace(strings.ReplaceAll(a, "$("+c.Env[0].Name+")", strconv.Itoa(i))))
		}
		run(t, args)
	}
	merged := nodeDocs(t, catFiles(t, filepath.Join(outDir, "nodes-*.yaml")))
	full := nodeDocs(t, run(t, []string{"render", "--output", "apply", dir + "/fleet/snapshot.yaml", dir + "/fleet/rules"}))
	if len(full) == 0 || !reflect.DeepEqual(merged, full) {
		t.Errorf("the Job's merged Nodes differ from a full run:\n got %v\nwant %v", merged, full)
	}
}

// TestActionsMatrixRecipeRendersTheFleet runs docs/scale.md's GitHub
// Actions matrix: its nfd-fn step for every shard of the matrix, then the
// merge job's cat, and checks the result against one full run.
func TestActionsMatrixRecipeRendersTheFleet(t *testing.T) {
	var wf struct {
		Jobs map[string]struct {
			Strategy struct {
				Matrix struct {
					Shard []int `json:"shard"`
				} `json:"matrix"`
			} `json:"strategy"`
			Steps []struct {
				Run string `json:"run"`
			} `json:"steps"`
		} `json:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(blockWith(t, "jobs:")), &wf); err != nil {
		t.Fatal(err)
	}
	step := func(job, prefix string) string {
		for _, s := range wf.Jobs[job].Steps {
			if strings.HasPrefix(s.Run, prefix) {
				return s.Run
			}
		}
		t.Fatalf("job %s has no step running %q", job, prefix)
		return ""
	}
	render := step("render", "nfd-fn render")
	if merge := step("merge", "cat "); merge != "cat nodes-*.yaml > nodes.yaml" {
		t.Fatalf("the merge step is %q; this test runs `cat nodes-*.yaml > nodes.yaml`", merge)
	}
	dir := fleetDir(t)
	shards := wf.Jobs["render"].Strategy.Matrix.Shard
	if len(shards) < 2 {
		t.Fatalf("matrix shards %v", shards)
	}
	for _, i := range shards {
		line := strings.ReplaceAll(render, "${{ matrix.shard }}", strconv.Itoa(i))
		var args []string
		for _, f := range strings.Fields(line)[1:] {
			if strings.HasPrefix(f, "fleet/") || strings.HasPrefix(f, "nodes-") {
				f = filepath.Join(dir, f) // the job's working directory
			}
			args = append(args, f)
		}
		run(t, args)
	}
	merged := nodeDocs(t, catFiles(t, filepath.Join(dir, "nodes-*.yaml")))
	full := nodeDocs(t, run(t, []string{"render", "--output", "apply", dir + "/fleet/snapshot.yaml", dir + "/fleet/rules"}))
	if len(full) == 0 || !reflect.DeepEqual(merged, full) {
		t.Errorf("the matrix's merged Nodes differ from a full run:\n got %v\nwant %v", merged, full)
	}
}
