package cli

import (
	"io"

	"github.com/nfd-fn/nfd-fn/internal/modes"
)

const schemaUsage = `Usage: nfd-fn schema NAME

Prints a JSON Schema (draft 2020-12) nfd-fn reads files by, for editors
(yaml-language-server) and CI. NAME is one of: ruletest (nfd-fn test's
RuleTest, also docs/schema/ruletest.json).

Flags:
`

// runSchema implements `nfd-fn schema NAME`.
func runSchema(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("schema", schemaUsage, stderr)
	names, code, done := parseArgs(fs, args, stdout)
	if done {
		return code
	}
	if len(names) != 1 {
		return usageError(fs, "want one schema name: %s", modes.SchemaNames)
	}
	schema, ok := modes.Schema(names[0])
	if !ok {
		return usageError(fs, "no schema %q: want %s", names[0], modes.SchemaNames)
	}
	if _, err := stdout.Write(schema); err != nil {
		complain(stderr, "nfd-fn schema: writing stdout: %v", err)
		return 1
	}
	return 0
}
