package cli

import (
	"path/filepath"

	"github.com/nfd-fn/nfd-fn/fn"
	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/pkg/admission"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// validateFiles reads every file under paths that mentions NFD (others,
// such as Helm charts and kustomizations, are skipped silently) and checks
// their objects together, so duplicates and back-references across files
// are found. The files under context (a repository, when pre-commit passes
// only the staged files) are read too, so that references resolve against
// every rule file, but only problems in the files under paths are
// reported. With worker (--worker-config), rules are also checked against
// that nfd-worker configuration. It returns the diagnostics and the number of files checked.
// The files are read as render reads them (inputs.Reader): a cluster's
// export of any size is read.
func validateFiles(paths []string, context string, s config.Settings, stdin *inputs.Stdin, worker *lint.WorkerConfig) (diag.List, int, error) {
	set := s.NewSet()
	set.OnlyNFDFiles = true
	in := inputs.NewReader(set, fn.Decoding)
	in.Stdin = stdin
	defer in.Close()
	ds, files, err := in.Read(paths, true)
	if err != nil {
		return nil, 0, err
	}
	if context != "" {
		if err := readContext(in, context, paths); err != nil {
			return nil, 0, err
		}
	}
	ds = append(ds, in.Admit(&s)...)
	more := lint.Run(set, lint.Options{Master: s.Options, Outputs: true, Worker: worker})
	ds = admission.DropCovered(append(ds, more...))
	if context != "" {
		ds = onlyIn(ds, paths)
	}
	ds = set.Suppress(ds, s.Ignore, diag.Diagnostic{Message: "--ignore", Field: "--ignore"})
	in.Locate(ds)
	ds.SortByPosition()
	return ds, files, nil
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
