package cli

import (
	"bytes"
	"fmt"
	"io"

	"github.com/nfd-fn/nfd-fn/fn"
)

// runRender implements `nfd-fn [render]`: the KRM function on stdin.
func runRender(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runFunction("render", args, stdin, stdout, stderr)
}

// runFunction runs the KRM function on stdin. "validate" forces the
// validate mode whatever the functionConfig says.
func runFunction(cmd string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "nfd-fn %s: unexpected arguments %q\n", cmd, args)
		return 2
	}
	input, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "nfd-fn: reading stdin: %v\n", err)
		return 1
	}
	var out bytes.Buffer
	code, err := fn.Run(input, &out, fn.RunOptions{ForceMode: modeFor(cmd), Discover: hostDiscover})
	if err != nil {
		fmt.Fprintf(stderr, "nfd-fn: %v\n", err)
		return 1
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		fmt.Fprintf(stderr, "nfd-fn: writing stdout: %v\n", err)
		return 1
	}
	return code
}

func modeFor(cmd string) string {
	if cmd == "validate" {
		return "validate"
	}
	return ""
}
