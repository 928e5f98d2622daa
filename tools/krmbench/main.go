// Command krmbench round-trips a ResourceList through kyaml's kio (the
// reader and writer under framework.Execute), through the kpt function
// SDK (fn.ParseResourceList and ToYAML, what fn.AsMain runs) or through
// internal/krm, so
// that /usr/bin/time can compare their wall time and peak memory on the
// same input (the numbers in internal/krm's package documentation).
//
//	krmbench -impl kio|sdk|krm|krm-drop < list.yaml > out.yaml
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"sigs.k8s.io/kustomize/kyaml/kio"

	"github.com/nfd-fn/nfd-fn/internal/krm"
)

func main() {
	impl := flag.String("impl", "krm", "kio, sdk, krm (trees kept) or krm-drop (trees dropped after reading, as nfd-fn does)")
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
	case "sdk":
		rl, err := sdk.ParseResourceList(data)
		if err != nil {
			return err
		}
		text, err := rl.ToYAML()
		if err != nil {
			return err
		}
		_, err = w.Write(text)
		return err
	case "krm", "krm-drop":
		opts := krm.ReadOptions{}
		if impl == "krm-drop" {
			opts.Decoder = krm.DropTrees{}
		}
		rl, err := krm.Read(data, opts)
		if err != nil {
			return err
		}
		return rl.WriteThen(w, func() []*sdk.Result { return nil })
	}
	return fmt.Errorf("unknown -impl %q", impl)
}
