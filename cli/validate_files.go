package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/render"
)

// validateFiles reads every file under paths and checks their documents
// together, so duplicates and back-references across files are found. It
// returns the findings and the number of files read.
func validateFiles(paths []string, opts render.Options) ([]lint.Finding, int, error) {
	in, findings, files, err := decodeFiles(paths, opts)
	if err != nil {
		return nil, 0, err
	}
	findings = append(findings, lint.Check(in)...)
	lint.Sort(findings)
	return findings, files, nil
}

// decodeFiles reads and decodes every document of the files under paths.
// It returns the input, the reading and decoding findings, and the number
// of files read.
func decodeFiles(paths []string, opts render.Options) (*lint.Input, []lint.Finding, int, error) {
	files, err := collectFiles(paths)
	if err != nil {
		return nil, nil, 0, err
	}
	var docs []*lint.Document
	var findings []lint.Finding
	for _, f := range files {
		d, bad, err := readDocuments(f)
		if err != nil {
			return nil, nil, 0, err
		}
		docs = append(docs, d...)
		findings = append(findings, bad...)
	}
	in := &lint.Input{Options: opts}
	findings = append(findings, lint.Decode(docs, in)...)
	return in, findings, len(files), nil
}

// collectFiles expands directories into their YAML and JSON files (hidden
// directories such as .git are skipped); files named explicitly are read
// whatever their extension.
func collectFiles(paths []string) ([]string, error) {
	var files []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			add(p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && path != p && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if !d.IsDir() && isManifest(path) {
				add(path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}

func isManifest(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// readDocuments splits a file into its YAML documents. A syntax error is
// a finding at its line; the documents before it are still checked.
func readDocuments(path string) ([]*lint.Document, []lint.Finding, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	var docs []*lint.Document
	for i := 0; ; i++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil, nil
		}
		if err != nil {
			return docs, []lint.Finding{syntaxFinding(path, i, err)}, nil
		}
		if len(n.Content) == 0 || isNullDoc(n.Content[0]) {
			continue
		}
		docs = append(docs, &lint.Document{File: path, Index: i, Node: n.Content[0]})
	}
}

func isNullDoc(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

var yamlErrLine = regexp.MustCompile(`line (\d+)`)

func syntaxFinding(path string, index int, err error) lint.Finding {
	f := lint.Finding{Severity: engine.SeverityError, Check: "yaml", Doc: &lint.Document{File: path, Index: index},
		Message: fmt.Sprintf("YAML does not parse: %v; the rest of the file is not checked", strings.TrimPrefix(err.Error(), "yaml: "))}
	if m := yamlErrLine.FindStringSubmatch(err.Error()); m != nil {
		f.Line, _ = strconv.Atoi(m[1])
		f.Column = 1
	}
	return f
}
