package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

// crd is the part of a CustomResourceDefinition the plane reads.
type crd struct {
	Metadata struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Plural string `json:"plural"`
		} `json:"names"`
		Versions []struct {
			Name string `json:"name"`
		} `json:"versions"`
	} `json:"spec"`
	Status struct {
		Conditions []struct {
			Type, Status string
		} `json:"conditions"`
	} `json:"status"`
}

// useCRDs replaces the CRDs the API server serves by those of a CRD
// stream (a release's): the CRDs of the same names are deleted first and
// gone before the new ones are created, so no request is judged by a
// schema of the release before. It returns once every version of each
// new CRD is Established and serves its resources.
func (p *plane) useCRDs(stream []byte) error {
	docs, err := crdDocuments(stream)
	if err != nil {
		return err
	}
	for _, d := range docs {
		if err := p.deleteCRD(d.crd.Metadata.Name); err != nil {
			return err
		}
	}
	for _, d := range docs {
		if r := p.do("POST", crdPath, "application/json", d.json); r.code != http.StatusCreated {
			return fmt.Errorf("creating CRD %s: %d %v %s", d.crd.Metadata.Name, r.code, r.err, r.body)
		}
	}
	for _, d := range docs {
		if err := p.waitServed(d.crd); err != nil {
			return err
		}
	}
	return nil
}

type crdDoc struct {
	crd  crd
	json []byte
}

// crdDocuments cuts a CRD stream into its CRDs, as JSON.
func crdDocuments(stream []byte) ([]crdDoc, error) {
	var out []crdDoc
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, err
		}
		var c crd
		if err := json.Unmarshal(js, &c); err != nil || c.Metadata.Name == "" {
			return nil, fmt.Errorf("not a CRD: %v", err)
		}
		out = append(out, crdDoc{c, js})
	}
}

// deleteCRD deletes a CRD and waits until it is gone.
func (p *plane) deleteCRD(name string) error {
	r := p.do("DELETE", crdPath+"/"+name, "", nil)
	if r.code == http.StatusNotFound {
		return nil
	}
	if r.code != http.StatusOK && r.code != http.StatusAccepted {
		return fmt.Errorf("deleting CRD %s: %d %v %s", name, r.code, r.err, r.body)
	}
	return poll("CRD "+name+" gone", func() (bool, error) {
		return p.do("GET", crdPath+"/"+name, "", nil).code == http.StatusNotFound, nil
	})
}

// waitServed waits for a CRD's Established condition, then for each of
// its versions to list its resources.
func (p *plane) waitServed(c crd) error {
	err := poll("CRD "+c.Metadata.Name+" established", func() (bool, error) {
		r := p.do("GET", crdPath+"/"+c.Metadata.Name, "", nil)
		var got crd
		if r.code != http.StatusOK || json.Unmarshal(r.body, &got) != nil {
			return false, nil
		}
		for _, cond := range got.Status.Conditions {
			if cond.Type == "Established" && cond.Status == "True" {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return err
	}
	for _, v := range c.Spec.Versions {
		path := "/apis/" + c.Spec.Group + "/" + v.Name + "/" + c.Spec.Names.Plural
		if err := poll(path+" served", func() (bool, error) {
			return p.do("GET", path, "", nil).code == http.StatusOK, nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// poll calls done until it reports true, at most 600 times 0.2 s apart:
// a bound only a broken server reaches.
func poll(what string, done func() (bool, error)) error {
	for range 600 {
		ok, err := done()
		if err != nil || ok {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("timed out waiting for %s", what)
}
