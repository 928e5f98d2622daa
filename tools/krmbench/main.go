// Command krmbench round-trips a ResourceList through kyaml's kio (the
// reader and writer under framework.Execute) or through internal/krm, so
// that /usr/bin/time can compare their wall time and peak memory on the
// same input (the numbers in internal/krm's package documentation).
//
//	krmbench -impl kio|krm|krm-drop < list.yaml > out.yaml
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"sigs.k8s.io/kustomize/kyaml/kio"

	"github.com/nfd-fn/nfd-fn/internal/krm"
)

func main() {
	impl := flag.String("impl", "krm", "kio, krm (trees kept) or krm-drop (trees dropped after reading, as nfd-fn does)")
	flag.Parse()
	if err := run(*impl, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "krmbench:", err)
		os.Exit(1)
	}
}

func run(impl string, in io.Reader, out io.Writer) error {
	data, err := krm.ReadInput(in, 0)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	defer w.Flush()
	switch impl {
	case "kio":
		rw := &kio.ByteReadWriter{Reader: bytes.NewReader(data), Writer: w, KeepReaderAnnotations: true}
		nodes, err := rw.Read()
		if err != nil {
			return err
		}
		return rw.Write(nodes)
	case "krm", "krm-drop":
		opts := krm.ReadOptions{}
		if impl == "krm-drop" {
			opts.Keep = func(*krm.Item) bool { return false }
		}
		rl, err := krm.Read(data, opts)
		if err != nil {
			return err
		}
		return rl.Write(w, nil)
	}
	return fmt.Errorf("unknown -impl %q", impl)
}
