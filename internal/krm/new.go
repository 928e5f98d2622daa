package krm

import (
	"strconv"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
)

// Doc is an object read from a file: its tree, the file and its index
// there.
type Doc struct {
	Node  *yaml.Node
	File  string
	Index int
}

// NewList builds a ResourceList from objects read from files, as kpt
// builds one from a package: each object becomes an item carrying the
// path and index annotations of where it came from, and functionConfig is
// fc (nil for none). Every item is encoded on output (there are no input
// bytes to keep); decode runs on each item, as Read's Decode does.
func NewList(docs []Doc, fc *yaml.Node, decode func(*Item)) *ResourceList {
	rl := &ResourceList{root: &yaml.Node{Kind: yaml.MappingNode}, FunctionConfig: fc,
		APIVersion: kio.ResourceListAPIVersion, Kind: kio.ResourceListKind}
	SetField(rl.root, "apiVersion", StrNode(kio.ResourceListAPIVersion))
	SetField(rl.root, "kind", StrNode(kio.ResourceListKind))
	if fc != nil {
		SetField(rl.root, "functionConfig", fc)
	}
	for _, d := range docs {
		if d.Node.Kind == yaml.MappingNode {
			ann := EnsureMap(EnsureMap(d.Node, "metadata"), "annotations")
			for _, k := range []string{kioutil.PathAnnotation, kioutil.LegacyPathAnnotation} {
				SetField(ann, k, StrNode(d.File))
			}
			for _, k := range []string{kioutil.IndexAnnotation, kioutil.LegacyIndexAnnotation} {
				SetField(ann, k, StrNode(strconv.Itoa(d.Index)))
			}
		}
		it := rl.Append(d.Node)
		if decode != nil {
			decode(it)
		}
	}
	return rl
}
