package nova_test

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/pkg/nova"
)

// Build maps what NFD set on each node; Marshal writes the file
// nova-compute reads from /etc/nova/provider_config/.
func ExampleBuild() {
	nodes := []nova.Node{{
		Name: "compute-1",
		Labels: map[string]string{
			"feature.node.kubernetes.io/cpu-cpuid.AVX512F":    "true",
			"feature.node.kubernetes.io/kernel-version.major": "6",
		},
		Resources: map[string]string{"vendor.io/gpu": "2"},
	}}
	doc, problems := nova.Build(nodes, nova.MapOptions{})
	text, _ := nova.Marshal(doc, []string{"written by nfd-fn"})
	fmt.Print(string(text))
	fmt.Println(len(problems), "problems")
	// Output:
	// # written by nfd-fn
	// meta:
	//   schema_version: "1.0"
	// providers:
	//   - identification:
	//       name: compute-1
	//     inventories:
	//       additional:
	//         - CUSTOM_VENDOR_IO_GPU:
	//             total: 2
	//     traits:
	//       additional:
	//         - CUSTOM_CPU_CPUID_AVX512F
	// 0 problems
}

// Parse checks a hand-written file the way nova-compute would.
func ExampleParse() {
	_, issues := nova.Parse([]byte(`meta:
  schema_version: 1.0
`))
	for _, iss := range issues {
		fmt.Println(iss)
	}
	// Output:
	// error: meta.schema_version: schema_version must be a string: quote it ("1.0"); YAML reads the bare 1.0 as a float
}
