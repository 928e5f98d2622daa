package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Media types and the annotation the OCI image spec defines.
const (
	mediaTypeIndex    = "application/vnd.oci.image.index.v1+json"
	mediaTypeManifest = "application/vnd.oci.image.manifest.v1+json"
	annotationRefName = "org.opencontainers.image.ref.name"
)

// descriptor is an OCI content descriptor.
type descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Platform    *platform         `json:"platform,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// platform is the platform a manifest's image runs on.
type platform struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
	Variant      string `json:"variant,omitempty"`
}

// index is an OCI image index, and the layout's index.json.
type index struct {
	SchemaVersion int               `json:"schemaVersion"`
	MediaType     string            `json:"mediaType"`
	Manifests     []descriptor      `json:"manifests"`
	Annotations   map[string]string `json:"annotations,omitempty"`
}

// merge replaces the manifests tagged tags in the layout at dir by one
// image index holding them, each with its platform, named name.
func merge(dir, name string, tags []string) error {
	var top index
	if err := readJSON(filepath.Join(dir, "index.json"), &top); err != nil {
		return err
	}
	var manifests []descriptor
	for _, tag := range tags {
		d, err := tagged(top, tag)
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		p, err := platformOf(dir, d)
		if err != nil {
			return fmt.Errorf("%s: tag %s: %w", dir, tag, err)
		}
		manifests = append(manifests, descriptor{MediaType: d.MediaType, Digest: d.Digest, Size: d.Size, Platform: p})
	}
	body, err := json.Marshal(index{SchemaVersion: 2, MediaType: mediaTypeIndex, Manifests: manifests})
	if err != nil {
		return err
	}
	d, err := writeBlob(dir, body)
	if err != nil {
		return err
	}
	d.MediaType, d.Annotations = mediaTypeIndex, map[string]string{annotationRefName: name}
	out, err := json.Marshal(index{SchemaVersion: 2, MediaType: mediaTypeIndex, Manifests: []descriptor{d}})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.json"), out, 0o644)
}

// tagged finds the one image manifest whose ref name is tag.
func tagged(top index, tag string) (descriptor, error) {
	for _, d := range top.Manifests {
		if d.Annotations[annotationRefName] == tag {
			if d.MediaType != mediaTypeManifest {
				return descriptor{}, fmt.Errorf("tag %s is a %s, not an image manifest", tag, d.MediaType)
			}
			return d, nil
		}
	}
	return descriptor{}, fmt.Errorf("index.json has no manifest tagged %s", tag)
}

// platformOf reads the platform from the config of the manifest d.
func platformOf(dir string, d descriptor) (*platform, error) {
	var m struct {
		Config descriptor `json:"config"`
	}
	if err := readJSON(blobPath(dir, d.Digest), &m); err != nil {
		return nil, err
	}
	var p platform
	if err := readJSON(blobPath(dir, m.Config.Digest), &p); err != nil {
		return nil, err
	}
	if p.OS == "" || p.Architecture == "" {
		return nil, fmt.Errorf("config %s names no os and architecture", m.Config.Digest)
	}
	return &p, nil
}

// writeBlob stores body in the layout under its digest.
func writeBlob(dir string, body []byte) (descriptor, error) {
	sum := sha256.Sum256(body)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	if err := os.WriteFile(blobPath(dir, digest), body, 0o644); err != nil {
		return descriptor{}, err
	}
	return descriptor{Digest: digest, Size: int64(len(body))}, nil
}

// blobPath is where the layout keeps the blob with digest.
func blobPath(dir, digest string) string {
	algorithm, hash, _ := strings.Cut(digest, ":")
	return filepath.Join(dir, "blobs", algorithm, hash)
}

// readJSON decodes the JSON file at path into v.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
