package testkit

import (
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// ReadText adds the objects of one file's text to set the way
// internal/inputs adds a file it parses whole, for the tests of the
// libraries under pkg/ that internal/inputs itself depends on: the
// documents objects.ReadDocuments splits (a syntax error is a diagnostic
// after the documents before it), each decoded (objects.Decode) and
// added (objects.Set.Add); with note, each object of a kind nfd-fn does
// not read gets its info note (objects.OtherNote), as the reader's notes.
func ReadText(set *objects.Set, data []byte, file string, note bool) diag.List {
	docs, bad := objects.ReadDocuments(data, file)
	var ds diag.List
	for _, doc := range docs {
		o := objects.Origin{File: file, Index: doc.Index, Item: -1, Node: doc.Node}
		d := objects.Decode(doc.Node)
		if d.Class != objects.Other {
			ds = append(ds, set.Add(d, o)...)
		} else if note {
			ds = append(ds, objects.OtherNote(d, o))
		}
	}
	if bad != nil {
		ds = append(ds, *bad)
	}
	return ds
}
