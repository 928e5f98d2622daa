package objects

import "github.com/nfd-fn/nfd-fn/pkg/diag"

// readText adds the objects of one file's text to s as internal/inputs
// adds a file it parses whole (the tests of other packages use
// testkit.ReadText, which this package's own tests cannot import): each
// document ReadDocuments splits is decoded and added; with note, objects
// of kinds nfd-fn does not read get their note; a syntax error comes
// after the documents before it.
func readText(s *Set, data []byte, file string, note bool) diag.List {
	docs, bad := ReadDocuments(data, file)
	var ds diag.List
	for _, doc := range docs {
		o := Origin{File: file, Index: doc.Index, Item: -1, Node: doc.Node}
		if d := Decode(doc.Node); d.Class != Other {
			ds = append(ds, s.Add(d, o)...)
		} else if note {
			ds = append(ds, OtherNote(d, o))
		}
	}
	if bad != nil {
		ds = append(ds, *bad)
	}
	return ds
}
