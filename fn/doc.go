// Package fn is nfd-fn's KRM glue. Process a ResourceList (Run) or the
// objects in files (RunFiles) in four steps, each owned elsewhere:
//
//   - internal/krm cuts the input into items and writes the output back,
//     untouched items as their original bytes; internal/inputs opens the
//     files, directories and stdin of RunFiles, with fn's decoders
//     (Decoding);
//   - internal/config reads the functionConfig (one key table, Default,
//     Validate) into Settings;
//   - the items become one objects.Set (readset.go), which the mode hands to
//     the one fleet pipeline, master.Prepare/Render (render.go), to lint,
//     explain, pkg/nova and pkg/plan;
//   - the rendered Nodes and NodeFeatureGroup status are written into their
//     items (node.go), and every diagnostic becomes a KRM result in one
//     function, Result (krmresult.go).
//
// The CLI's other commands (validate, explain, plan) read their files
// through the same reader, internal/inputs, into an objects.Set.
//
// fn holds no domain logic of its own: what nfd-master does is pkg/master,
// what is wrong is a diag.Diagnostic.
package fn
