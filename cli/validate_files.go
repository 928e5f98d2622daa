package cli

import (
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// validateFiles reads every file under paths and checks their objects
// together, so duplicates and back-references across files are found. It
// returns the diagnostics and the number of files read.
func validateFiles(paths []string, opts master.Options) (diag.List, int, error) {
	set, ds, files, err := objects.ReadPaths(paths, true)
	if err != nil {
		return nil, 0, err
	}
	_, more := lint.Run(set, lint.Options{Master: opts, Outputs: true})
	ds = append(ds, more...)
	ds.SortByPosition()
	return ds, files, nil
}
