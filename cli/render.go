package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"

	"github.com/nfd-fn/nfd-fn/fn"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// runRender implements `nfd-fn [render]`: the KRM function on stdin.
// With --output nova it prints only the Nova provider config file, and the
// results on stderr.
func runRender(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	output := fs.String("output", "resourcelist", "resourcelist (the KRM function's output) or nova (the Nova provider config file alone)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch *output {
	case "resourcelist":
		return runFunction("render", fs.Args(), stdin, stdout, stderr)
	case "nova":
		return runNovaOutput(fs.Args(), stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "nfd-fn render: unknown --output %q: want resourcelist or nova\n", *output)
	return 2
}

// runNovaOutput renders the ResourceList on stdin and writes the Nova
// provider config file that a deployment tool drops into
// /etc/nova/provider_config/.
func runNovaOutput(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "nfd-fn render: unexpected arguments %q\n", args)
		return 2
	}
	input, err := krm.ReadInput(stdin, 0)
	if err != nil {
		fmt.Fprintf(stderr, "nfd-fn: reading stdin: %v\n", err)
		return 1
	}
	file, diags, code, err := fn.RenderNova(input, fn.RunOptions{Discover: hostDiscover})
	if err != nil {
		fmt.Fprintf(stderr, "nfd-fn: %v\n", err)
		return 1
	}
	if err := diag.WriteText(stderr, diags); err != nil {
		return 1
	}
	if _, err := stdout.Write(file); err != nil {
		fmt.Fprintf(stderr, "nfd-fn: writing stdout: %v\n", err)
		return 1
	}
	return code
}

// runFunction runs the KRM function on stdin. "validate" forces the
// validate mode whatever the functionConfig says.
func runFunction(cmd string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "nfd-fn %s: unexpected arguments %q\n", cmd, args)
		return 2
	}
	input, err := krm.ReadInput(stdin, 0)
	if err != nil {
		fmt.Fprintf(stderr, "nfd-fn: reading stdin: %v\n", err)
		return 1
	}
	var out bytes.Buffer
	code, err := fn.Run(input, &out, fn.RunOptions{ForceMode: modeFor(cmd), Discover: hostDiscover, ErrorLog: stderr})
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
