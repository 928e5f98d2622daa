package krm

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"sigs.k8s.io/kustomize/kyaml/kio"
)

// nodeFeatureList is a ResourceList of one NodeFeature shaped like those
// nfd-worker writes: cpuid flags, kernel attributes and PCI instances
// (about 170 KB and 6,000 lines with 600 instances, as in the fleet).
func nodeFeatureList(instances int) []byte {
	var b strings.Builder
	b.WriteString(listHeader + "items:\n- apiVersion: nfd.k8s-sigs.io/v1alpha1\n  kind: NodeFeature\n  metadata:\n    name: worker-0\n" +
		"    namespace: node-feature-discovery\n    labels:\n      nfd.node.kubernetes.io/node-name: worker-0\n" +
		"  spec:\n    features:\n      flags:\n        cpu.cpuid:\n          elements:\n")
	for i := range 100 {
		fmt.Fprintf(&b, "            FLAG%03d: {}\n", i)
	}
	b.WriteString("      attributes:\n        kernel.version:\n          elements:\n            major: \"6\"\n            minor: \"8\"\n" +
		"      instances:\n        pci.device:\n          elements:\n")
	for i := range instances {
		fmt.Fprintf(&b, "          - attributes:\n              class: \"0200\"\n              vendor: \"8086\"\n              device: \"%04x\"\n"+
			"              subsystem_vendor: \"8086\"\n              subsystem_device: \"0001\"\n              address: \"0000:%02x:00.0\"\n", i, i%256)
	}
	return []byte(b.String())
}

// BenchmarkReadNodeFeature reads a list of one worker-sized NodeFeature.
func BenchmarkReadNodeFeature(b *testing.B) {
	data := nodeFeatureList(600)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(data, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadFleet reads the list in $NFD_FN_FLEET (make bench-go sets it
// to the 1,000-node fleet), dropping the trees after reading as nfd-fn does.
func BenchmarkReadFleet(b *testing.B) {
	data := fleet(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(data, ReadOptions{Decoder: DropTrees{}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundTripFleet compares kyaml's kio reader and writer (what
// framework.Execute uses) with Read and WriteThen on the same fleet.
func BenchmarkRoundTripFleet(b *testing.B) {
	data := fleet(b)
	b.Run("kio", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rw := &kio.ByteReadWriter{Reader: bytes.NewReader(data), Writer: io.Discard, KeepReaderAnnotations: true}
			nodes, err := rw.Read()
			if err != nil {
				b.Fatal(err)
			}
			if err := rw.Write(nodes); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("krm", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rl, err := Read(data, ReadOptions{Decoder: DropTrees{}})
			if err != nil {
				b.Fatal(err)
			}
			if err := writeList(rl, io.Discard, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWrite40000Results writes 40,000 error results, the cost that
// issue 17 measured at 42 s and 4 GB when they were one YAML tree.
func BenchmarkWrite40000Results(b *testing.B) {
	rl, err := Read([]byte(listHeader+"items: []\n"), ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	results := make([]*sdk.Result, 40000)
	for i := range results {
		results[i] = &sdk.Result{Severity: sdk.Error, Message: fmt.Sprintf("rule r%d: invalid regexp \"[\"", i),
			Field: &sdk.Field{Path: fmt.Sprintf("spec.rules[%d].matchFeatures[0].matchExpressions.X86.value", i)}}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := writeList(rl, io.Discard, results); err != nil {
			b.Fatal(err)
		}
	}
}

func fleet(b *testing.B) []byte {
	path := os.Getenv("NFD_FN_FLEET")
	if path == "" {
		b.Skip("NFD_FN_FLEET names no fleet file (make bench-go sets it)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}
