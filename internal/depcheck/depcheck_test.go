// Package depcheck holds the tests that keep the project's structure:
// imports pointed down (libraries under pkg/ never reach into internal/,
// the rule engine stays free of YAML, the CLI uses only the packages it is
// allowed), one main package under ./..., and every fuzz target fuzzed in
// CI. The import checks read the graph with `go list`, the way
// go-containerregistry's cmd/crane/depcheck_test.go does, so they see
// exactly what the build sees.
package depcheck

import (
	"encoding/json"
	"maps"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/nfd-fn/nfd-fn"

// listed is the part of `go list -json` these checks read.
type listed struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// goList runs `go list -json` with the arguments, from the module root.
func goList(t *testing.T, patterns ...string) []listed {
	t.Helper()
	args := append([]string{"list", "-json"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", patterns, err)
	}
	var pkgs []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// internalAllowedInPkg lists the internal packages a pkg/ library may use,
// each with the reason. internal/parallel is a leaf (standard library only)
// that bounds the worker pool shared by the master and plan libraries.
var internalAllowedInPkg = map[string]string{
	module + "/internal/parallel": "leaf worker pool, no project imports",
}

func TestPkgLibrariesDoNotImportInternal(t *testing.T) {
	for _, p := range goList(t, "./pkg/...") {
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/internal/") {
				continue
			}
			if _, ok := internalAllowedInPkg[imp]; !ok {
				t.Errorf("%s imports %s: pkg/ libraries must not depend on internal/ (allow it in internalAllowedInPkg with a reason, or move the code)", p.ImportPath, imp)
			}
		}
	}
}

func TestInternalAllowListIsALeaf(t *testing.T) {
	for path := range internalAllowedInPkg {
		for _, p := range goList(t, path) {
			for _, imp := range p.Imports {
				if strings.HasPrefix(imp, module+"/") {
					t.Errorf("%s is allowed in pkg/ as a leaf but imports %s", path, imp)
				}
			}
		}
	}
}

// yamlLibraries are the YAML packages the engine must not parse with: it
// works on decoded API types only.
var yamlLibraries = []string{"go.yaml.in/yaml/", "gopkg.in/yaml.", "sigs.k8s.io/yaml", "sigs.k8s.io/kustomize/kyaml"}

func TestEngineUsesNoYAMLLibrary(t *testing.T) {
	engine := goList(t, "./pkg/engine")[0]
	// The engine and every project package it depends on: none may import
	// a YAML library itself (apimachinery's own dependencies are not ours).
	own := []string{engine.ImportPath}
	for _, d := range goList(t, "-deps", "./pkg/engine") {
		if strings.HasPrefix(d.ImportPath, module+"/") && d.ImportPath != engine.ImportPath {
			own = append(own, d.ImportPath)
		}
	}
	for _, p := range goList(t, own...) {
		for _, imp := range p.Imports {
			for _, y := range yamlLibraries {
				if strings.HasPrefix(imp, y) {
					t.Errorf("%s (used by pkg/engine) imports %s: the engine must not depend on a YAML library", p.ImportPath, imp)
				}
			}
		}
	}
}

// cliAllowed is the set of project packages cli/ may import: the KRM
// function (fn), the mode entry points (internal/modes), diagnostics'
// text forms, discover's flags, the version, and pkg/suggest for the
// did-you-mean of mistyped commands and flags. Each subcommand parses
// its flags and calls one of them (issue 28). Adding a package here is a
// design change: say why in the commit.
var cliAllowed = []string{"fn", "internal/modes", "pkg/diag", "pkg/discover", "pkg/suggest", "pkg/version"}

func TestCLIImportsOnlyItsAllowedSet(t *testing.T) {
	allowed := map[string]bool{}
	for _, a := range cliAllowed {
		allowed[module+"/"+a] = true
	}
	var extra []string
	for _, imp := range goList(t, "./cli")[0].Imports {
		if strings.HasPrefix(imp, module+"/") && !allowed[imp] {
			extra = append(extra, imp)
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("cli/ imports packages outside its allowed set: %v", extra)
	}
}

// mainAllowed is what main.go may import: the CLI, and the heap floor it
// sets before anything allocates.
var mainAllowed = map[string]bool{module + "/cli": true, module + "/internal/heapfloor": true}

func TestMainImportsOnlyTheCLI(t *testing.T) {
	for _, imp := range goList(t, ".")[0].Imports {
		if strings.HasPrefix(imp, module+"/") && !mainAllowed[imp] {
			t.Errorf("main imports %s: main.go only sets the heap floor and hands os.Args to cli/", imp)
		}
	}
}

// listedName is the part of `go list -json` that names a package.
type listedName struct {
	ImportPath string
	Name       string
}

// pre-commit's golang hooks are built with `go install ./...` at the root
// of the repository: every main package there is built on the user's
// machine. Only nfd-fn may be one; benchmark and generator programs live
// in the tools/ module, which ./... does not reach.
func TestGoInstallBuildsOnlyTheBinary(t *testing.T) {
	for _, p := range listAll[listedName](t) {
		if p.Name == "main" && p.ImportPath != module {
			t.Errorf("%s is a main package under ./...: `go install ./...` (pre-commit) would build it; move it to tools/", p.ImportPath)
		}
	}
}

// listedTests is the part of `go list -json` that names a package's
// imports, its tests' included.
type listedTests struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// importersAllowed lists, for each package kept behind one reader, the
// packages allowed to import it (its own tests and fuzz targets always
// may), each with the reason. internal/fastread is the lean fast path
// behind internal/inputs' decoder (issue 35): a second caller would be a
// second decoding of the same bytes to keep in step.
var importersAllowed = map[string]map[string]string{
	"internal/fastread": {
		"internal/inputs": "the one reader: its decoder is fastread's only caller",
	},
}

func TestFastPathsHaveTheirOneImporter(t *testing.T) {
	for _, p := range listAll[listedTests](t) {
		for guarded, allowed := range importersAllowed {
			if p.ImportPath == module+"/"+guarded {
				continue
			}
			if _, ok := allowed[strings.TrimPrefix(p.ImportPath, module+"/")]; ok {
				continue
			}
			for _, imp := range append(append(p.Imports, p.TestImports...), p.XTestImports...) {
				if imp == module+"/"+guarded {
					t.Errorf("%s imports %s, which only %v may import: go through them, or allow it in importersAllowed with a reason", p.ImportPath, guarded, slices.Sorted(maps.Keys(allowed)))
					break
				}
			}
		}
	}
}

// listAll is `go list -json ./...` from the module root, each package
// decoded as T.
func listAll[T any](t *testing.T) []T {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	var pkgs []T
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p T
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// forbidden lists, for a package, the project packages it must not import
// (its tests included), each with the reason.
var forbidden = map[string]map[string]string{
	// How an item is written (Nodes, the Nova ConfigMap, apply-ready
	// parts) is fn's, whatever the speed path (issue 35): the modes work
	// on what was read (objects.Set) and return diagnostics and documents.
	"internal/modes": {"internal/krm": "item reading and writing is internal/inputs' and fn's"},
	// The functionConfig is a yaml.v3 tree read with pkg/yamlstrict.
	"internal/config": {"internal/krm": "read the functionConfig's tree with pkg/yamlstrict"},
}

func TestLayersKeepOutOfTheItems(t *testing.T) {
	for _, p := range listAll[listedTests](t) {
		banned := forbidden[strings.TrimPrefix(p.ImportPath, module+"/")]
		for _, imp := range append(append(p.Imports, p.TestImports...), p.XTestImports...) {
			if why, ok := banned[strings.TrimPrefix(imp, module+"/")]; ok {
				t.Errorf("%s imports %s: %s", p.ImportPath, imp, why)
			}
		}
	}
}
