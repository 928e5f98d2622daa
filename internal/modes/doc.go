// Package modes holds nfd-fn's mode entry points, one per mode, that the
// KRM function (fn) and the command line (cli) both call: Render,
// Validate, Explain and Plan take what was read (an objects.Set and the problems
// met reading it, from a ResourceList's items or from files) and return
// the diagnostics, the explanation or the plan; ValidateFiles, ExplainFiles
// and PlanFiles read files first (Files, through internal/inputs). So
// suppression, admission, positions and sorting are done in one place
// whichever driver runs the mode. Render is the fleet pipeline every
// other mode shares, its fleet-wide results added by Rendering.Finish;
// fn streams its nodes into the items. Each command's --output forms are
// one table of writers (Outputs).
//
// modes works on what was read (an objects.Set, settings, diagnostics)
// and returns diagnostics and documents: it neither reads nor writes KRM
// items (internal/inputs reads them, fn writes them; depcheck holds it to
// that, as it holds internal/config to reading its tree with
// pkg/yamlstrict).
//
// modes prints nothing and picks no exit code: what a run has to tell
// beside its result (the settings' findings, the problems explain leaves
// out, discover's note on the node name) comes back as diagnostics, and
// why a run cannot go on as an error (SettingsError says whose fault);
// the drivers say them and map them to exit codes.
package modes
