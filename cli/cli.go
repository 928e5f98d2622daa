// Package cli is nfd-fn's command line: it picks the mode from the
// arguments, runs it and maps the outcome to an exit code. Each subcommand
// checks its flags and calls one library function.
package cli

import (
	"bytes"
	"fmt"
	"io"

	"github.com/nfd-fn/nfd-fn/fn"
)

// Version is nfd-fn's version, set at build time with -ldflags.
var Version = "v0.1.0-dev"

const usage = `nfd-fn renders node-feature-discovery rules offline.

Usage:
  nfd-fn [render] < resourcelist.yaml     render Nodes (the KRM function; default)
  nfd-fn validate < resourcelist.yaml     check rules and config, no fleet needed
  nfd-fn discover [flags]                 print the NodeFeature nfd-worker would publish for this host
  nfd-fn version                          print the version

As a KRM function nfd-fn reads a ResourceList on stdin and writes one on
stdout; configuration comes from its functionConfig (see README.md).
`

// Main runs nfd-fn with args (without the program name) and returns the
// process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "render"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "render", "validate":
		return runFunction(cmd, args, stdin, stdout, stderr)
	case "discover":
		return runDiscover(args, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, Version)
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "nfd-fn: unknown command %q\n\n%s", cmd, usage)
	return 2
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
