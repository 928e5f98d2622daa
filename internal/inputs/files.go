package inputs

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// StdinPath is the file argument that reads standard input as one file.
const StdinPath = "-"

// ReadFiles reads opened files for a render (fn.RunFiles) as the
// ResourceList of their objects: readFiles, holding the trees of what is
// rewritten in place or reported at its line (keepFileForRender).
func ReadFiles(files []krm.File, config *yaml.Node, held *krm.Inputs, release func([]byte)) (*krm.ResourceList, diag.List, error) {
	return readFiles(files, config, keepFileForRender, held, release)
}

// ReadList reads a ResourceList for a render (fn.Run, and a list given as
// a file): cut by the splitter, each item decoded on the worker pool as it
// is cut, lean where it can be (keepForRender); release (may be nil) is
// told of input bytes read.
func ReadList(data []byte, release func([]byte)) (*krm.ResourceList, error) {
	return krm.Read(data, readOptions(keepForRender, nil, release))
}

// readFiles reads opened files as the ResourceList of their objects
// (krm.ReadFiles), each decoded on the worker pool as it is cut: lean
// where it can be, else from a tree that keep says whether to hold on to.
// held (may be nil) are the inputs the files lie in (newItemDecoder);
// release (may be nil) is told of input bytes read. Files the cutter does
// not read are parsed whole (parseFile); their problems are returned.
// config (may be nil) is the list's functionConfig.
func readFiles(files []krm.File, config *yaml.Node, keep func(*krm.Item) bool, held *krm.Inputs, release func([]byte)) (*krm.ResourceList, diag.List, error) {
	files, found := leaveTemplatesOut(files, release)
	rl, err := krm.ReadFiles(files, config, readOptions(keep, held, release), func(f int) ([]krm.Doc, error) {
		docs, more, err := parseFile(files[f])
		found = append(found, more...)
		return docs, err
	})
	return rl, found, err
}

// ReadError is a path argument that cannot be read at all (missing,
// unreadable, not a file or directory), not a problem in what it holds:
// every command exits 2 on it, as on other bad usage.
type ReadError struct{ Err error }

func (e *ReadError) Error() string { return e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }

// UsageError is a command line that cannot run as given (two settings
// that exclude each other), not a problem in the inputs: every command
// exits 2 on it, as on a path it cannot read.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// leaveTemplatesOut returns the files that are not template sources (Helm's
// {{ }} outside a rule's template fields, objects.TemplateNote), and one
// info note for each that is: not YAML until rendered, so neither an
// error nor objects. Each file's bytes are given back to release (may be
// nil) once looked at: scanning a package of mapped files would otherwise
// hold every page of it at once before the read streams through them
// (bench-fleet's package peak went from 93 to 182 MiB at 1,000 nodes).
func leaveTemplatesOut(files []krm.File, release func([]byte)) ([]krm.File, diag.List) {
	var notes diag.List
	kept := make([]krm.File, 0, len(files))
	for _, f := range files {
		note, ok := objects.TemplateNote(f.Data, f.Name)
		if release != nil {
			release(f.Data)
		}
		if ok {
			notes = append(notes, note)
			continue
		}
		kept = append(kept, f)
	}
	return kept, notes
}

// Open opens every file under paths, in order ("-" is stdin, named
// "stdin"); the caller closes the inputs. A path that cannot be read is a
// *ReadError.
func Open(paths []string, stdin *Stdin) ([]krm.File, *krm.Inputs, error) {
	var names []string
	for _, p := range paths {
		if p == StdinPath {
			names = append(names, p)
			continue
		}
		found, err := objects.CollectFiles([]string{p})
		if err != nil {
			return nil, nil, &ReadError{Err: err}
		}
		names = append(names, found...)
	}
	return openNamed(names, stdin)
}

// openNamed opens the files named, in order; with stdin set, "-" is
// stdin, named "stdin" (without, a file named "-"), which its owner
// closes.
func openNamed(names []string, stdin *Stdin) ([]krm.File, *krm.Inputs, error) {
	inputs := &krm.Inputs{}
	files := make([]krm.File, 0, len(names))
	for _, name := range names {
		if name == StdinPath && stdin != nil {
			in, err := stdin.open()
			if err != nil {
				inputs.Close()
				return nil, nil, err
			}
			inputs.Borrow(in)
			files = append(files, krm.File{Name: "stdin", Data: in.Data})
			continue
		}
		in, err := krm.OpenFile(name, 0)
		if err != nil {
			inputs.Close()
			return nil, nil, &ReadError{Err: err}
		}
		inputs.Add(in)
		files = append(files, krm.File{Name: name, Data: in.Data})
	}
	return files, inputs, nil
}

// argFiles lists the files under paths as objects.CollectFiles does
// (directories walked, each run of paths sorted together), keeping "-"
// (stdin) in its place.
func argFiles(paths []string) ([]string, error) {
	var names, run []string
	flush := func() error {
		if len(run) == 0 {
			return nil
		}
		found, err := objects.CollectFiles(run)
		names, run = append(names, found...), nil
		return err
	}
	for _, p := range paths {
		if p != StdinPath {
			run = append(run, p)
			continue
		}
		if err := flush(); err != nil {
			return nil, err
		}
		names = append(names, p)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return names, nil
}

// parseFile parses a file the cutter does not read (flow style, a
// document that is not a mapping, an object that does not parse on its
// own) whole: its objects, and diagnostics for the documents that are not
// objects and for a syntax error (the documents before it count).
func parseFile(f krm.File) ([]krm.Doc, diag.List, error) {
	if len(f.Data) > objects.MaxFileSize {
		return nil, nil, fmt.Errorf("reading %s: %d bytes, more than the %d bytes nfd-fn parses whole from one file: only block-style YAML and JSON "+
			"(what kubectl get -o yaml|json writes) are read in parts; convert the file or send it on stdin", f.Name, len(f.Data), objects.MaxFileSize)
	}
	var docs []krm.Doc
	var found diag.List
	ds, bad := objects.ReadDocuments(f.Data, f.Name)
	for _, d := range ds {
		if d.Node.Kind != yaml.MappingNode || d.Node.ShortTag() != "!!map" {
			// Not an object (a scalar, a list, a mapping under a tag of
			// its own): it cannot be an item of the output list.
			o := objects.Origin{File: f.Name, Index: d.Index, Item: -1, Node: d.Node}
			found = append(found, objects.FileDocumentNote(d.Node, o, d.InList))
			continue
		}
		docs = append(docs, krm.Doc{Node: d.Node, File: f.Name, Index: d.Index})
	}
	if bad != nil {
		found = append(found, *bad)
	}
	return docs, found, nil
}
