package doctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// catalogMetadata is the field set of a kpt function catalog
// metadata.yaml (the catalog's schema allows no other field).
type catalogMetadata struct {
	Image              string   `json:"image"`
	Description        string   `json:"description"`
	Tags               []string `json:"tags"`
	SourceURL          string   `json:"sourceURL,omitempty"`
	ExamplePackageURLs []string `json:"examplePackageURLs,omitempty"`
	License            string   `json:"license,omitempty"`
	Emails             []string `json:"emails,omitempty"`
	Hidden             bool     `json:"hidden,omitempty"`
}

// catalogTags are the tag values the catalog's schema accepts.
var catalogTags = map[string]bool{
	"mutator": true, "validator": true, "viewer": true, "generator": true, "test": true, "testing": true,
	"timing": true, "Config Sync": true, "GCP": true, "blueprints": true, "name prefix": true, "name suffix": true,
}

// examplePackageURL is how metadata.yaml names an example package, and
// examplePkgGet how an example's README fetches it.
const (
	examplePackageURL = "https://github.com/nfd-fn/nfd-fn/tree/main/examples/"
	examplePkgGet     = "kpt pkg get https://github.com/nfd-fn/nfd-fn.git/examples/%s@main"
)

func readMetadata(t *testing.T, root string) catalogMetadata {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "metadata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var m catalogMetadata
	if err := yaml.UnmarshalStrict(data, &m); err != nil {
		t.Fatalf("metadata.yaml has a field the kpt catalog does not: %v", err)
	}
	return m
}

// exampleDirs are the examples e2e runs: the directories with .expected/.
func exampleDirs(t *testing.T, root string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(root, "examples", "*", ".expected"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no examples with .expected/ (%v)", err)
	}
	var names []string
	for _, d := range m {
		names = append(names, filepath.Base(filepath.Dir(d)))
	}
	sort.Strings(names)
	return names
}

// TestMetadataFollowsTheCatalogSchema checks metadata.yaml against the kpt
// function catalog's metadata schema: only its fields, the required ones
// set, an untagged ghcr.io image, known tags, and one example package URL
// per example e2e runs.
func TestMetadataFollowsTheCatalogSchema(t *testing.T) {
	root := repoRoot(t)
	m := readMetadata(t, root)
	if !strings.HasPrefix(m.Image, "ghcr.io/") || strings.Contains(strings.TrimPrefix(m.Image, "ghcr.io/"), ":") {
		t.Errorf("image %q: the catalog wants a ghcr.io image without a tag (the release adds it)", m.Image)
	}
	if !strings.HasPrefix(documentedImage, m.Image+":") {
		t.Errorf("image %q is not the image the docs run, %s", m.Image, documentedImage)
	}
	if m.Description == "" || len(m.Tags) == 0 || len(m.Emails) == 0 {
		t.Errorf("description, tags and emails (whom the catalog's users write to) are required: %+v", m)
	}
	for _, tag := range m.Tags {
		if !catalogTags[tag] {
			t.Errorf("tag %q is not one the catalog accepts", tag)
		}
	}
	var listed []string
	for _, u := range m.ExamplePackageURLs {
		name, ok := strings.CutPrefix(u, examplePackageURL)
		if !ok || strings.Contains(name, "/") {
			t.Errorf("examplePackageURL %q is not %s<example>", u, examplePackageURL)
			continue
		}
		listed = append(listed, name)
	}
	sort.Strings(listed)
	if want := exampleDirs(t, root); strings.Join(listed, " ") != strings.Join(want, " ") {
		t.Errorf("examplePackageURLs name %v, the examples are %v", listed, want)
	}
}

// TestReadmeHasTheCatalogsLongSection checks the section the kpt function
// catalog's docs generator (mdtogo) reads from a function's README: one
// <!--mdtogo:Long--> ... <!--mdtogo--> pair, around the functionConfig
// reference, every key of which it holds.
func TestReadmeHasTheCatalogsLongSection(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	if strings.Count(text, "<!--mdtogo:Long-->") != 1 {
		t.Fatalf("README.md should hold one <!--mdtogo:Long--> marker, holds %d", strings.Count(text, "<!--mdtogo:Long-->"))
	}
	_, long, _ := strings.Cut(text, "<!--mdtogo:Long-->")
	long, _, closed := strings.Cut(long, "<!--mdtogo-->")
	if !closed {
		t.Fatal("README.md's <!--mdtogo:Long--> section is not closed by <!--mdtogo-->")
	}
	for _, key := range []string{"kind: ConfigMap", "kind: NFDFunctionConfig", "nfdVersion:", "nodeOutput:", "enableTaints:", "### Feature gates"} {
		if !strings.Contains(long, key) {
			t.Errorf("README.md's mdtogo Long section lacks %q", key)
		}
	}
}

// e2eConfig is the part of an example's .expected/config.yaml that says
// which command e2e runs (e2e/doc.go).
type e2eConfig struct {
	TestType string            `json:"testType"`
	Args     map[string]string `json:"args"`
	Stdin    string            `json:"stdin"`
	Command  []string          `json:"command"`
}

// TestEveryExampleReadmeShowsHowToGetAndRunIt checks that each example's
// README fetches it with kpt pkg get, runs it with kpt fn eval --image and
// --exec, says how to use kustomize, shows the command e2e runs, and is in
// the catalog's layout (Overview, then Expected result).
func TestEveryExampleReadmeShowsHowToGetAndRunIt(t *testing.T) {
	root := repoRoot(t)
	for _, name := range exampleDirs(t, root) {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(root, "examples", name)
			data, err := os.ReadFile(filepath.Join(dir, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			readme := string(data)
			var cfg e2eConfig
			if b, err := os.ReadFile(filepath.Join(dir, ".expected", "config.yaml")); err == nil {
				if err := yaml.Unmarshal(b, &cfg); err != nil {
					t.Fatal(err)
				}
			}
			want := []string{
				strings.Replace(examplePkgGet, "%s", name, 1),
				"--image " + documentedImage,
				"--exec nfd-fn",
				"kustomize",
				e2eCommand(name, cfg),
			}
			for _, w := range want {
				if !strings.Contains(readme, w) {
					t.Errorf("examples/%s/README.md does not show %q", name, w)
				}
			}
			if !regexp.MustCompile(`(?s)^# [^\n]*\n\n### Overview\n.*\n### Expected result\n`).MatchString(readme) {
				t.Errorf("examples/%s/README.md is not in the catalog's layout: a title, ### Overview, ..., ### Expected result", name)
			}
		})
	}
}

// e2eCommand is the command line e2e runs for an example, as the README
// shows it.
func e2eCommand(name string, cfg e2eConfig) string {
	switch cfg.TestType {
	case "eval":
		keys := make([]string, 0, len(cfg.Args))
		for k := range cfg.Args {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		cmd := "kpt fn eval " + name + " --exec nfd-fn"
		if len(keys) > 0 {
			cmd += " --"
		}
		for _, k := range keys {
			cmd += " " + k + "=" + cfg.Args[k]
		}
		return cmd
	case "kustomize":
		return "kustomize build --enable-alpha-plugins --enable-exec " + name
	case "cli":
		if len(cfg.Command) > 0 {
			return "nfd-fn " + strings.Join(cfg.Command, " ")
		}
		return "go run . < examples/" + name + "/" + cfg.Stdin
	}
	return "kpt fn render " + name + " --allow-exec"
}

// emailAddress is an address anyone could write to: a domain name with a
// top-level domain that is neither reserved for tests and examples (RFC
// 2606: .invalid, .test, .example, example.com, ...) nor a file name's
// extension (curl's body@plan.md, test fixtures' name@file.yaml).
var emailAddress = regexp.MustCompile(`[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+\.)+[A-Za-z]{2,}\b`)

// notContact are the domain endings emailAddress matches that no one
// reads: RFC 2606's reserved names and file extensions.
var notContact = regexp.MustCompile(`(\.invalid|\.test|\.example|\.localhost|\bexample\.(com|org|net)|\.(md|ya?ml|json|txt|sh))$`)

// TestNoContactDataBeyondMetadataEmails keeps contact data where the kpt
// catalog requires it and nowhere else: the project has no published
// address, so metadata.yaml's emails: is a placeholder the catalog's
// schema demands, and no other file (README, docs, examples, the Action,
// the component, the release configuration, code) may offer an address
// of its own or repeat that one as if someone read it.
func TestNoContactDataBeyondMetadataEmails(t *testing.T) {
	root := repoRoot(t)
	for _, rel := range projectFiles(t, root) {
		if rel == "metadata.yaml" || rel == "go.sum" || strings.HasPrefix(rel, "testdata/") || strings.Contains(rel, "/testdata/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range emailAddress.FindAllString(string(data), -1) {
			if !notContact.MatchString(m) {
				t.Errorf("%s: %q: contact data lives in metadata.yaml's emails: alone", rel, m)
			}
		}
	}
}

// projectFiles are the regular files the project holds, relative to root
// with slashes: tracked ones and new ones git does not ignore, so that
// build outputs (./nfd-fn from make build, dist/, bin/) are not read.
func projectFiles(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files in %s: %v", root, err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f == "" {
			continue
		}
		if fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); err == nil && fi.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	return files
}
