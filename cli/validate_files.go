package cli

import (
	"github.com/nfd-fn/nfd-fn/fn"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
)

// validateFiles reads every file under paths and checks their objects
// together, so duplicates and back-references across files are found. It
// returns the diagnostics and the number of files read.
func validateFiles(paths []string, s fn.Settings) (diag.List, int, error) {
	set := s.NewSet()
	ds, files, err := set.ReadFiles(paths, true)
	if err != nil {
		return nil, 0, err
	}
	_, more := lint.Run(set, lint.Options{Master: s.Options, Outputs: true})
	ds = append(ds, more...)
	ds.SortByPosition()
	return ds, files, nil
}
