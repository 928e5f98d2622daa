// Command jsonexport turns a YAML document (exportgen's kubectl export)
// into what `kubectl get ... -o json` prints for it: the same object with
// its keys sorted, indented by four spaces. It is a benchmark input (make
// bench-fleet), not part of nfd-fn.
//
//	go run ./internal/jsonexport < export-1000.yaml > export-1000.json
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"go.yaml.in/yaml/v3"
)

func main() {
	var doc any
	if err := yaml.NewDecoder(bufio.NewReaderSize(os.Stdin, 1<<20)).Decode(&doc); err != nil {
		fail(err)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "    ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		fail(err)
	}
	if err := w.Flush(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "jsonexport:", err)
	os.Exit(1)
}
