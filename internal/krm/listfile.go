package krm

import (
	"bytes"
	"fmt"
	"strings"
	"sync/atomic"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio"
)

// ListHeader tells whether data, the text of a file, is a KRM
// ResourceList (kind ResourceList, apiVersion config.kubernetes.io/...)
// rather than objects, and returns its functionConfig (nil when it has
// none). Only the header is read: a block-style or JSON list is cut by the
// splitters, its items neither parsed nor kept; anything else is parsed
// whole up to DefaultMaxFallbackBytes. Data that is not one such document
// (several documents, a v1 List, an object, text that is not YAML) is not
// a ResourceList, and no error: the caller reads it as objects. A
// ResourceList whose functionConfig is over a limit is an error. release
// (may be nil) is told of the pages read.
func ListHeader(data []byte, release func([]byte)) (fc *yaml.Node, ok bool, err error) {
	if !containsReleasing(data, []byte(kio.ResourceListKind), release) {
		return nil, false, nil
	}
	rl := &ResourceList{}
	if !rl.readHeaderFast(data, release) {
		if len(data) > DefaultMaxFallbackBytes {
			return nil, false, nil
		}
		root, err := parseOneDocument(data)
		if err != nil {
			return nil, false, nil
		}
		rl = &ResourceList{}
		for i := 0; i+1 < len(root.Content); i += 2 {
			if k := root.Content[i].Value; k != "items" {
				rl.setHeader(k, root.Content[i+1])
			}
		}
	}
	if !rl.IsResourceList() {
		return nil, false, nil
	}
	if rl.FunctionConfig != nil {
		if err := checkTree(rl.FunctionConfig, Limits{}.withDefaults()); err != nil {
			return nil, true, fmt.Errorf("reading the ResourceList's functionConfig: %w", err)
		}
	}
	return rl.FunctionConfig, true, nil
}

// containsReleasing is bytes.Contains over data a window at a time
// (scanWindows), each window given to release (may be nil) once read:
// telling a 1 GB export from a ResourceList must not hold its pages.
func containsReleasing(data, sub []byte, release func([]byte)) bool {
	var found atomic.Bool
	scanWindows(data, release, func(from, to int) {
		if !found.Load() && bytes.Contains(data[from:min(to+len(sub)-1, len(data))], sub) {
			found.Store(true)
		}
	})
	return found.Load()
}

// readHeaderFast reads the header sections the splitters cut, and reports
// whether they did cut data and every section read as its one key.
func (rl *ResourceList) readHeaderFast(data []byte, release func([]byte)) bool {
	var sp split
	var ok bool
	if looksLikeJSON(data) {
		sp, ok = splitJSON(data, release, nil)
	} else {
		sp, ok = splitDocument(data, release)
	}
	if !ok {
		return false
	}
	for _, s := range sp.sections {
		if s.key == "items" {
			continue
		}
		v, err := s.value()
		if err != nil || v == nil {
			return false
		}
		rl.setHeader(s.key, v)
	}
	return true
}

// IsResourceList reports whether the list's header is a KRM ResourceList's
// (not a kubectl v1 List's).
func (rl *ResourceList) IsResourceList() bool {
	return rl.Kind == kio.ResourceListKind && strings.HasPrefix(rl.APIVersion, "config.kubernetes.io/")
}
