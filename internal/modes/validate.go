package modes

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/pkg/admission"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// ValidateOptions adjust Validate.
type ValidateOptions struct {
	// Worker, when set, is the nfd-worker configuration the rules are
	// checked against (--worker-config).
	Worker *lint.WorkerConfig
	// More are the driver's own findings, added once admission's
	// duplicates are dropped (the KRM mode's Nova provider configs).
	More diag.List
	// Keep, when set, keeps the findings reported (validate --context
	// reports on the given files only).
	Keep func(diag.List) diag.List
	// IgnoreSource is where the run's suppressions (s.Ignore) are
	// written, for what is said about them.
	IgnoreSource diag.Diagnostic
	// Observe, when set, is given the fleet's pipeline and stream before
	// the fleet is rendered (lint.Options.Observe): nfd-fn test reads
	// each node's view from the render validate makes anyway.
	Observe func(*master.Pipeline, *master.Stream)
}

// Validate is mode validate over a read set: to found (the problems met
// reading it, admission's among them) it adds the rule engine's compile
// checks, lint's checks and, when the set holds NodeFeatures, the fleet
// checks (lint.Run); drops admission's errors another check reports
// (admission.DropCovered); places what has no position yet; applies the
// suppressions: s.Ignore and the objects' ignore annotations; and folds a
// problem many objects share into one (diag.List.FoldObjects).
func Validate(set *objects.Set, s *config.Settings, found diag.List, o ValidateOptions) diag.List {
	ds := append(found, lint.Run(set, lint.Options{Master: s.Options, Outputs: true, Worker: o.Worker, Observe: o.Observe, Catalog: s.FeatureCatalog})...)
	ds = append(admission.DropCovered(ds), o.More...)
	if o.Keep != nil {
		ds = o.Keep(ds)
	}
	set.Place(ds)
	return set.Suppress(ds, s.Ignore, o.IgnoreSource).FoldObjects()
}

// ValidateFilesOptions adjust ValidateFiles.
type ValidateFilesOptions struct {
	// Ignore are --ignore's findings to accept, added to the settings'.
	Ignore string
	// WorkerConfig is the --worker-config file, if any.
	WorkerConfig string
	// FeatureCatalog is the --feature-catalog file, if any: it declares
	// third-party features, over the settings' featureCatalog.
	FeatureCatalog string
	// Context is a directory whose NFD files are read too, so that
	// references resolve against them, but whose problems are not
	// reported (--context).
	Context string
}

// FilesRead counts the files validate read: those it checked, and those
// it skipped as not mentioning NFD.
type FilesRead struct {
	Checked, Skipped int
}

// ValidateFiles is `nfd-fn validate FILE...`: it reads every file that
// mentions NFD (others, such as Helm charts and kustomizations, are
// skipped, and counted) and checks their objects together (Validate), so
// duplicates and back-references across files are found, with the
// settings f.LoadSettings read. It returns the diagnostics, sorted by
// position, and how many files were checked and skipped. The files are read as
// render reads them (inputs.Reader): a cluster's export of any size is
// read.
func ValidateFiles(f *Files, o ValidateFilesOptions) (diag.List, FilesRead, error) {
	s := f.Settings
	s.AssumeStrict()
	if o.Ignore != "" {
		s.Ignore = strings.Trim(s.Ignore+","+o.Ignore, ",")
	}
	worker, err := ReadWorkerConfig(o.WorkerConfig)
	if err != nil {
		return nil, FilesRead{}, err
	}
	if o.FeatureCatalog != "" {
		if s.FeatureCatalog, err = ReadFeatureCatalog(o.FeatureCatalog); err != nil {
			return nil, FilesRead{}, err
		}
	}
	set := s.NewSet()
	set.OnlyNFDFiles = true
	in := f.reader(set)
	kustomized := slices.Clone(f.Paths)
	if o.Context != "" {
		kustomized = append(kustomized, o.Context) // the patches a staged file is, in pre-commit
	}
	in.SkipKustomizePatches(kustomized)
	ds, files, err := in.Read(f.Paths, true)
	if err != nil {
		return nil, FilesRead{}, err
	}
	read := FilesRead{Checked: files, Skipped: in.Skipped} // the context's are not counted
	// As render reads them: the nfd-worker.conf ConfigMap among the files
	// (the context's are not looked at); one that cannot be read is an
	// error about it, as among a ResourceList's items.
	inFiles, unread := in.WorkerConfig()
	vo := ValidateOptions{Worker: worker, IgnoreSource: diag.Diagnostic{Message: "--ignore", Field: "--ignore"}}
	if o.Context != "" {
		if err := readContext(in, o.Context, f.Paths); err != nil {
			return nil, FilesRead{}, err
		}
		vo.Keep = func(ds diag.List) diag.List { return onlyIn(ds, f.Paths) }
	}
	ds = append(ds, in.Admit(&s)...)
	if vo.Worker == nil {
		vo.Worker = inFiles
		ds = append(ds, unread...)
	}
	if worker != nil {
		more, err := WorkerLabelsGone(set, &s, worker, f.fileWorkloads)
		if err != nil {
			return nil, FilesRead{}, err
		}
		vo.More = append(vo.More, more...)
	}
	ds = Validate(set, &s, ds, vo)
	in.Locate(ds)
	ds.SortByPosition()
	return ds, read, nil
}

// ReadWorkerConfig reads a --worker-config file (nil for path ""):
// nfd-worker.conf, its ConfigMap, or Helm values with worker.config.
func ReadWorkerConfig(path string) (*lint.WorkerConfig, error) {
	b, err := readNamed(path)
	if path == "" || err != nil {
		return nil, err
	}
	return lint.ReadWorkerConfig(b, path)
}

// readContext adds the NFD objects of the files under dir that are not
// among paths; their own problems are not reported.
func readContext(in *inputs.Reader, dir string, paths []string) error {
	given, err := objects.CollectFiles(withoutStdin(paths))
	if err != nil {
		return err
	}
	skip := map[string]bool{}
	for _, f := range given {
		skip[filepath.Clean(f)] = true
	}
	all, err := objects.CollectFiles([]string{dir})
	if err != nil {
		return err
	}
	var others []string
	for _, f := range all {
		if !skip[filepath.Clean(f)] {
			others = append(others, f)
		}
	}
	if len(others) == 0 {
		return nil
	}
	_, _, err = in.Read(others, false)
	return err
}

// onlyIn keeps the diagnostics about the files under paths (and those
// about no file).
func onlyIn(ds diag.List, paths []string) diag.List {
	files, err := objects.CollectFiles(withoutStdin(paths))
	if err != nil {
		return ds
	}
	keep := map[string]bool{"stdin": len(files) < len(paths)}
	for _, f := range files {
		keep[filepath.Clean(f)] = true
	}
	out := ds[:0:0]
	for _, d := range ds {
		if d.Pos.File == "" || keep[filepath.Clean(d.Pos.File)] {
			out = append(out, d)
		}
	}
	return out
}

// withoutStdin is paths without "-" (stdin), for what walks the paths
// on disk.
func withoutStdin(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p != inputs.StdinPath {
			out = append(out, p)
		}
	}
	return out
}

// ReadFeatureCatalog reads the --feature-catalog file of validate, test
// and render: nil for no file; an error names the flag, the file and the
// entry.
func ReadFeatureCatalog(path string) (*lint.FeatureCatalog, error) {
	if path == "" {
		return nil, nil
	}
	b, err := readNamed(path)
	var cat *lint.FeatureCatalog
	if err == nil {
		cat, err = lint.ReadFeatureCatalog(b, path)
	}
	if err != nil {
		return nil, fmt.Errorf("--feature-catalog: %w", err)
	}
	return cat, nil
}
