// Package fn is nfd-fn's KRM glue: a ResourceList in (Run, RunInput) or
// the objects in files (RunFiles), the mode's entry point, the
// ResourceList and its results out. Each step is owned elsewhere:
//
//   - internal/krm cuts the input into items and writes the output back,
//     untouched items as their original bytes; internal/inputs opens the
//     files, directories and stdin of RunFiles, and decodes items (lean
//     where internal/fastread reads them, else strictly) as they are cut,
//     for Run as for RunFiles (inputs.ReadList, inputs.ReadFiles);
//   - internal/config reads the functionConfig (one key table, Default,
//     Validate) into Settings;
//   - the items become one objects.Set (readset.go, inputs.AddItems),
//     which the mode hands to its entry point in internal/modes (Render,
//     Validate, Explain, PlanDiagnostics, BuildNova), the same functions
//     the command line calls; for render, fn is the streaming adapter over
//     modes.Render (render.go), and the --output forms other than the list
//     are Outputs (output.go);
//   - fn writes every item it changes or makes, whatever the speed path:
//     the rendered Nodes, patched in their trees or their text or made
//     new (nodewrite.go, node.go), their apply-ready parts (applyShape),
//     NodeFeatureGroup status, and the Nova provider config's ConfigMap
//     (novaconfigmap.go); it reads the worker ConfigMap and the RuleTests
//     among the items (workerconfig.go, testlist.go); and every diagnostic
//     becomes a KRM result in one function, Result (krmresult.go).
//
// fn holds no domain logic of its own: what nfd-master does is pkg/master,
// what is wrong is a diag.Diagnostic.
package fn
