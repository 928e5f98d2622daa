package cli

import "io"

// runValidate implements `nfd-fn validate`: with no arguments it checks the
// ResourceList on stdin in mode validate.
func runValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runFunction("validate", args, stdin, stdout, stderr)
}
