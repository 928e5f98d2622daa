package inputs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// CheckKustomizePatch is NFD060: a file a kustomization names as a patch,
// not an object of its own.
const CheckKustomizePatch = "kustomize-patch"

// kustomizationNames are the file names kustomize reads a kustomization
// from.
var kustomizationNames = map[string]bool{"kustomization.yaml": true, "kustomization.yml": true, "Kustomization": true}

// patchOf says which kustomization names a file as a patch, and where.
type patchOf struct {
	kustomization, field string
}

// SkipKustomizePatches has the reader leave out of its reads the files
// the kustomizations under paths name as patches (findKustomizePatches),
// with a note for each that a read names (Read's note).
func (fr *Reader) SkipKustomizePatches(paths []string) {
	fr.patches = findKustomizePatches(paths)
}

// findKustomizePatches walks paths (files and directories, hidden
// directories left out) for kustomizations and returns the files they
// name as patches (patches[].path, patchesStrategicMerge[],
// patchesJson6902[].path), by cleaned absolute path. A patch of a
// NodeFeatureRule holds the fields it changes, not a whole object: read
// as one, it would replace the object it patches (NFD018) or lack what
// the API server requires. A kustomization that does not parse names no
// patch (kustomize reports it).
func findKustomizePatches(paths []string) map[string]patchOf {
	out := map[string]patchOf{}
	for _, p := range paths {
		if p == StdinPath {
			continue
		}
		_ = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return nil // the read reports what it cannot read
			case d.IsDir() && path != p && strings.HasPrefix(d.Name(), "."):
				return filepath.SkipDir
			case !d.IsDir() && kustomizationNames[d.Name()]:
				addPatches(out, path)
			}
			return nil
		})
	}
	return out
}

// addPatches adds the patches the kustomization at path names.
func addPatches(out map[string]patchOf, path string) {
	data, err := os.ReadFile(path)
	if err != nil || len(data) > 1<<20 {
		return
	}
	var k struct {
		Patches               []struct{ Path string } `yaml:"patches"`
		PatchesStrategicMerge []string                `yaml:"patchesStrategicMerge"`
		PatchesJSON6902       []struct{ Path string } `yaml:"patchesJson6902"`
	}
	if yaml.Unmarshal(data, &k) != nil {
		return
	}
	dir := filepath.Dir(path)
	add := func(file, field string) {
		if file == "" || strings.ContainsAny(file, "\n:") { // an inline patch, not a file
			return
		}
		if abs, err := filepath.Abs(filepath.Join(dir, file)); err == nil {
			out[abs] = patchOf{kustomization: path, field: field}
		}
	}
	for i, p := range k.Patches {
		add(p.Path, fmt.Sprintf("patches[%d].path", i))
	}
	for i, p := range k.PatchesStrategicMerge {
		add(p, fmt.Sprintf("patchesStrategicMerge[%d]", i))
	}
	for i, p := range k.PatchesJSON6902 {
		add(p.Path, fmt.Sprintf("patchesJson6902[%d].path", i))
	}
}

// leavePatchesOut returns the files that are not kustomize patches, and an
// info note for each that is (with note): read as objects, they would
// replace what they patch. The bytes of a patch left out are given back
// to release.
func leavePatchesOut(files []krm.File, patches map[string]patchOf, note bool, release func([]byte)) ([]krm.File, diag.List) {
	if len(patches) == 0 {
		return files, nil
	}
	var notes diag.List
	kept := files[:0]
	for _, f := range files {
		abs, err := filepath.Abs(f.Name)
		p, isPatch := patches[abs]
		if err != nil || !isPatch {
			kept = append(kept, f)
			continue
		}
		release(f.Data)
		if note {
			notes = append(notes, diag.Diagnostic{Severity: diag.Info, Check: CheckKustomizePatch, Pos: diag.Position{File: f.Name},
				Message: fmt.Sprintf("a kustomize patch (%s names it in %s), not a whole object: left unchecked, as it would replace the object it patches; check what kustomize builds (kustomize build %s | nfd-fn validate -)",
					p.kustomization, p.field, filepath.Dir(p.kustomization))})
		}
	}
	return kept, notes
}
