// Package fastread is nfd-fn's fast path: it decodes the objects of a
// fleet straight from their text, without a YAML tree, into pkg/objects
// values (objects.Decoded). pkg/objects keeps the model and the strict
// decoder; this package only reads faster what that decoder reads.
//
// The contract is one sentence: a fast decoder either returns exactly what
// objects.Decode returns for the parsed text, or reports ok=false and the
// caller decodes the tree with objects.Decode, which reads it or says what
// is wrong with field paths and positions. Callers never see a partially
// decoded value.
//
// The decoders (decodeFast, DecodeLean, DecodeNodeFast, DecodeOtherFast)
// are one decoding logic over two readers: block, for the block-style
// YAML kubectl -o yaml, kpt and nfd-worker write, and jsonReader for the
// JSON kubectl -o json writes (see reader). Each reader accepts a subset
// of its format in which it reads exactly what yaml.v3 reads, and the
// decoding accepts exactly what the strict decoder reads cleanly.
// Differential tests and fuzz targets (FuzzFastDecode, FuzzFastDecodeJSON)
// hold the fast decoders to the general path. JSON is not read with
// encoding/json, which matches field names case-insensitively, keeps the
// last of a key given twice and accepts escapes yaml.v3 refuses: it would
// read objects the general path reports. Nor with jsontext's tokenizer,
// which alone takes as long as jsonReader's whole read (see jsonReader).
// resolve.go copies yaml.v3's
// scalar resolution; a test pins the yaml.v3 version it was checked
// against.
package fastread
