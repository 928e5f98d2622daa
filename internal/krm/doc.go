// Package krm reads and writes KRM function ResourceLists (the KRM
// Functions Specification's config.kubernetes.io/v1 list, and kubectl's v1
// List) as bytes and items. It knows nothing of NFD: the caller decodes
// the items it cares about (a Decoder, ReadOptions.Decoder), changes or
// appends items, and hands WriteThen its results (the kpt function SDK's
// fn.Result).
//
// # The read, render and write flow
//
// Who calls whom for a render of a ResourceList on stdin (fn.Run), in
// order; "||" marks work on the worker pool, one item per worker. The
// Decoder is internal/inputs' (inputs.ReadList), shown in fn's column,
// which reads through it. Files
// (krm.ReadFiles) and a ResourceList given as a file take the same path
// with another cutter.
//
//	cli            fn                  krm                        internal/fastread, pkg/objects, pkg/master
//	 | fn.Run(input) |                   |                            |
//	 |-------------->| inputs.ReadList   |                            |
//	 |               |--krm.Read(data, ReadOptions{Decoder})-------->|
//	 |               |                   | splitter cuts item i       |
//	 |               |                   | || Item.parse:             |
//	 |               |<--Decoder.DecodeRaw(it)-----------------------|
//	 |               |--fastread.DecodeLean / DecodeNodeFast / DecodeOtherFast--------------->|
//	 |               |<-------------------------- ok: objects.Decoded (no tree) --------------|
//	 |               |   (not ok)        | Item.ParseTree, checkTree  |
//	 |               |<--Decoder.Decode(it)--------------------------|
//	 |               |--objects.Decode(tree)---------------------------------------------------->|
//	 |               |<--Decoder.Keep(it): drop the tree or keep it--|
//	 |               |<--*ResourceList (items in input order)---------|
//	 |               | process: config.Load(FunctionConfig)           |
//	 |               | renderList: readSet -> objects.Set.Add per decoded object ------------->|
//	 |               |   modes.Render: master.Prepare(set).Stream; Render(first nodes) --------->|
//	 |               |   || lean NodeFeature: Load() reads its Raw again (Release after) ------>|
//	 |               |   updateNode: Item.Changed, tree edited (state tree)                     |
//	 |               |   SetMaker(ItemMaker) for Node items made as written (state made)         |
//	 |               |   SetTail(new Nodes, rendered as written)                                 |
//	 |               | write                                                                    |
//	 |               |--rl.WriteThen(out, results)-->|                            |
//	 |               |                   | per item, in order, by its state (output):           |
//	 |               |                   |   raw: Raw as is, placed or re-indented; Release     |
//	 |               |                   |   made: || ItemMaker.Make(k) (render, SyncMapText)   |
//	 |               |                   |   tree: Node encoded                                 |
//	 |               |                   | tail: yield each new Node's text                     |
//	 |               |<--results()-------| (finish: Rendering.Finish: lint, explain, Nova)       |
//	 |               |                   | results written last       |
//	 |<--exit code---|                   |                            |
//
// The contracts in that flow are types: the caller's decoding is one
// Decoder (DecodeRaw from the text, else Decode from the tree, and Keep
// for the tree); an Item is in one State, raw (its text is written),
// tree (its Node is encoded) or made (the ItemMaker makes its text as it
// is written), and ResourceList.output alone chooses how each state is
// written for the list's form; an Input (or Inputs) that is closed
// refuses a later Hold with ErrClosed, so what reads its bytes after the
// reading (a lean NodeFeature's Load) gets an error, never a fault on an
// unmapped page.
//
// # kyaml and the kpt function SDK
//
// The design card names kyaml and the kpt function SDK for this layer.
// The SDK now lives at github.com/kptdev/krm-functions-sdk/go/fn (the old
// GoogleContainerTools path is still refused by the module proxy); v1.0.2
// builds with Go 1.26 and the kyaml v0.21.2 nfd-fn pins, adding kpt
// v1.0.0-beta.61, kustomize/api v0.20.1 and pkg/errors and upgrading
// nothing. nfd-fn uses it at the KRM boundary where it costs nothing:
// results are the SDK's fn.Result with its severities (they encode to the
// bytes framework.Result did: TestSDKResultsEncodeAsFrameworkResultsDid),
// the functionConfig's identity and place are read by its KubeObject
// (fn's functionConfigPlace), and the local-config annotation is its
// KptLocalConfig. The path, index and seqindent annotations are kyaml's
// kioutil constants (with the legacy config.kubernetes.io ones); a missing
// header is written as kio.ResourceListAPIVersion and kio.ResourceListKind.
//
// The SDK's ResourceList (fn.ParseResourceList, ToYAML: what fn.AsMain
// runs) is not used to read or write the list, for any input size. On the
// quickstart list (examples/render-quickstart, 4 KB) it is as fast (under
// 10 ms, 9 MB peak RSS for both), but its output is not the same list:
// ToYAML sorts the items by apiVersion, kind, namespace and name and drops
// the list's comments, where kpt and nfd-fn's streaming path keep the
// input's order and bytes. On a 50-node fleet (fleetgen -nodes 50 -seed 1,
// 9.1 MB), krmbench round trips, medians of 3 on the shared 2-core
// machine (load 12-15, so CPU time, not wall time):
//
//	SDK fn.ParseResourceList+ToYAML  2.93 s CPU, 836 MiB peak RSS
//	Read+Write (trees dropped)       1.01 s CPU,  36 MiB peak RSS
//
// It parses every item into a kyaml tree and keeps them all, as kio does
// (below), so on the 1,000-node fleet it would cost what kio costs.
//
// It keeps its own reader and writer instead of kio.ByteReadWriter (what
// framework.Execute runs) because of what they cost on a fleet. One round
// trip (read, write back unchanged) of the 1,000-node fleet (fleetgen
// -nodes 1000 -seed 1, 181 MB, 1,010 items), tools/krmbench run by farm-bench
// side by side on the 2-core machine this project runs on, medians of 3:
//
//	kio.ByteReadWriter          107 s wall, 106 s CPU, 18,931 MiB peak RSS
//	Read+Write (trees dropped)  13.3 s wall, 12.7 s CPU,   784 MiB peak RSS
//
// that is 0.12x the wall time and 0.04x the memory.
// kio parses every item into a kyaml tree, keeps them all, and encodes
// each again on output (reformatted: its output differs from the input
// from line 12,130 on). The fast splitter here cuts the list into items
// by their lines, parses each item on its own on every core, lets the
// caller drop a tree once decoded (Decoder.Keep), and writes every
// unchanged item back as its original bytes, comments and layout
// included: the round trip above is byte-identical.
//
// # Reading
//
// The fast splitter reads a strict subset of block YAML: top-level keys in
// column 0 ("key:", plain or wholly quoted, then a space or the line end),
// items as "- " entries at one indentation. Anything else (flow style,
// JSON, "items :", "items:<TAB>", "? items", a second document, a lone CR
// or NEL line break, a column-0 line it cannot place) goes to yaml.v3's
// full parser, and so does a list whose sections do not each parse as
// exactly their key or that repeats a key. Each item is parsed as the
// one-entry sequence it is, in the same context as in the whole document.
// When an item does not parse on its own, the whole input is parsed again
// (if it is at most Limits.MaxFallbackBytes), because the cause may be
// the splitter's cut: an alias to an anchor in another item, a quoted
// string running over a "- " line. If the whole input is not YAML either,
// that item is broken. FuzzSplitter checks the splitter against yaml.v3.
//
// A list in JSON (kubectl get -o json) has a splitter of its own,
// splitJSON: it follows strings, escapes and brackets to cut the
// top-level object into its keys and the items array into its elements,
// each checked as JSON (unless a fast decoder read it, which reads only
// valid JSON) and parsed on its own; a key it cannot read as YAML does,
// or a header value that is not JSON, sends the input to the full
// parser. FuzzJSONList holds the result to the whole parse and writer.
//
// A list that was JSON is written as JSON, an item at a time: an
// unchanged item whose tokens the writer would give back as they are
// (canonical: appendIndented) is only re-indented, the others are written from their
// trees by a jsontext encoder (go-json-experiment/json, the API that
// became encoding/json/v2). Any other list parsed whole is written as
// block YAML, each key in place. An item's own JSON text is edited
// (annotateJSON, SyncMapJSON) where a jsontext decoder finds the
// members; the splitter and the re-indenting stay hand-written, for the
// reasons and the measurements given at splitJSON and appendIndented.
//
// # Streaming
//
// OpenInput maps the input (a pipe is spooled to an unlinked temporary
// file first), and ReadOptions.Release / Input.Release give back the pages
// each pass is done with, so the input never sits in memory whole. A list
// that streams (block YAML or JSON cut by a splitter) can make items only as it
// writes them: SetMaker has a worker pool make some items' text in input
// order (exported Nodes patched as they are written), SetTail appends
// items made one at a time after the others (new Nodes), and WriteThen
// asks for the results only once every item is written. Lists parsed
// whole make their tail first.
//
// # Files
//
// A file that is itself a ResourceList (kpt fn source's output, nfd-fn's
// own, a list saved from a pipe) is not an object: ListHeader tells it by
// its header alone (the splitter cuts it, no item is parsed), and the
// caller reads it with Read, as stdin, streamed the same way
// (ReadOptions.Name makes its items' positions the file's).
//
// ReadFiles builds the list kpt would build from a package, from files
// mapped or read (OpenFile; several inputs are released and closed
// together by Inputs). cutFile cuts a file of block YAML by its text: its
// documents at their "---" lines, a v1 List into its items with the
// splitter; a file it cannot be sure to cut as YAML does goes to the
// caller's full parse. Objects are decoded as items are, parsed while the
// cut goes on. On output each object is its own text, re-indented as an
// item, with the path and index annotations added where annotatePlace
// would add them to its tree (placedText); exported Nodes are edited in
// their text the same way (SyncMapText). Both edit only when the lines
// they read are plain (no tabs, quotes left open, flow or keep-chomping
// scalars around the edit) and leave anything else to the tree;
// TestCutFileReadsEveryRepositoryManifestAsADecoderDoes, FuzzCutFile and
// FuzzSyncMapText hold them to yaml.v3 and to the tree edits. A JSON file
// is cut by splitJSON (a v1 List into its items); its unchanged objects
// are written as their own text, a YAML flow entry with the annotations
// inserted (jsonEntry; FuzzJSONFileEntry holds it to the tree). When
// every file is JSON, the list is written as JSON, as a JSON list on
// stdin is: each unchanged object its own text with the annotations
// inserted (annotateJSON), the others from their annotated trees.
//
// # Untrusted input
//
// Every byte of input is untrusted, functionConfig included. An item that
// does not parse (a control character, invalid UTF-8, an undefined alias,
// a truncated document) or that exceeds a limit gets Item.ParseErr: it
// is not decoded, WriteThen leaves it out, and the caller reports it by
// Item.Pos and Item.Line; the rest of the list is written intact and the
// output parses (FuzzReadResourceList). Read refuses, with an error and no
// list: input that is not one YAML or JSON document holding a mapping, a
// top-level key given twice (in YAML or JSON), a top-level merge key,
// items that are not a list, and the limits below on the list as a whole.
//
// Limits (Limits; zero fields take these defaults):
//
//	MaxBytes          1 GiB      input size (ReadInput stops reading there)
//	MaxItems          1,000,000  items in the list
//	MaxDepth          1,000      nesting of mappings and sequences in an item
//	                             or section, aliases expanded; an alias to its
//	                             own anchor stops here
//	MaxAliasNodes     100,000    nodes reached through aliases in one item or
//	                             section: a billion-laughs item fails in
//	                             milliseconds, naming the item
//	MaxFallbackBytes  64 MiB     largest block list parsed again whole when an
//	                             item does not parse on its own; above it such
//	                             items are reported broken, so a broken item
//	                             in a large fleet costs no whole-tree parse
//	MaxTreeBytes      64 MiB     largest item parsed into a tree when the fast
//	                             decoders do not read it; above it the item is
//	                             reported and left out (a tree is about ten
//	                             times its text)
//
// MaxBytes sits above a 5,000-node fleet (about 900 MB); the depth and
// alias limits are far above any Kubernetes object (a CRD schema nests
// about 60 deep) and bound the work of every caller that walks a tree.
// Over MaxDepth or MaxAliasNodes an item is broken; functionConfig or
// results over them, and a list over MaxBytes or MaxItems, are refused.
// Errors about limits wrap ErrLimit.
//
// # Writing
//
// WriteThen streams through a buffered writer: unchanged items as their bytes,
// changed and new items and every result encoded on their own, results a
// few hundred at a time straight from their structs. Its cost is linear in
// the number of items and results: 40,000 error results, which took
// 6.6 s and 1.1 GB of peak memory in nfd-fn as one YAML tree, now take
// 3.0 s and 330 MB for the whole run (BenchmarkWrite40000Results: the
// writing alone).
package krm
