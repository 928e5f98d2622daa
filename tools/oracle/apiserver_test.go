package oracle

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strings"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// served is one kind of a release's CRDs as kube-apiserver serves it.
type served struct {
	group, version, kind string
	namespaced           bool
	// status is a status subresource: a create drops the status.
	status     bool
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
}

// serverVerdict is what the API server makes of a create.
type serverVerdict struct {
	// Errors are the refusals (field: detail); any refuses the object
	// under every fieldValidation.
	Errors []string
	// Fields are the fields of the refusals the validator names (none
	// for a refusal while decoding).
	Fields []string
	// Pruned are the unknown fields: warned about and dropped under Warn,
	// dropped under Ignore, refusing the object under Strict.
	Pruned []string
}

// loadCRDs reads a CRD stream as kube-apiserver's CRD handler does: the
// v1 validation converted to the internal version, made structural, its
// defaults pruned, and a schema validator built from it.
func loadCRDs(data []byte) (map[string]*served, error) {
	out := map[string]*served{}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if err != nil {
			break
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.UnmarshalStrict(doc, &crd); err != nil {
			return nil, fmt.Errorf("reading a CRD: %w", err)
		}
		for _, v := range crd.Spec.Versions {
			s, err := serve(&crd, v)
			if err != nil {
				return nil, fmt.Errorf("CRD %s version %s: %w", crd.Name, v.Name, err)
			}
			out[v.Name+"/"+crd.Spec.Names.Kind] = s
		}
	}
	return out, nil
}

func serve(crd *apiextensionsv1.CustomResourceDefinition, v apiextensionsv1.CustomResourceDefinitionVersion) (*served, error) {
	if v.Schema == nil || !v.Served {
		return nil, fmt.Errorf("no schema or not served")
	}
	internal := &apiextensions.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v.Schema, internal, nil); err != nil {
		return nil, err
	}
	s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	if errs := structuralschema.ValidateStructural(nil, s); len(errs) > 0 {
		return nil, fmt.Errorf("not structural: %v", errs.ToAggregate())
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, err
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	return &served{
		group: crd.Spec.Group, version: v.Name, kind: crd.Spec.Names.Kind,
		namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		status:     v.Subresources != nil && v.Subresources.Status != nil,
		structural: s, validator: validator,
	}, nil
}

// create judges a JSON object as kube-apiserver's create handler does for
// a custom resource: decode (ObjectMeta read, unknown fields pruned and
// tracked, nulls in non-nullable fields without a default dropped,
// ObjectMeta coerced), default, BeforeCreate (namespace),
// PrepareForCreate (status dropped with a status subresource), then the
// strategy's Validate (type meta, ObjectMeta, the schema validator,
// embedded resources, list-type invariants). NFD's CRDs carry no
// x-kubernetes-validations (checkNoCEL), so no CEL runs.
func (s *served) create(data []byte) serverVerdict {
	var v serverVerdict
	var obj map[string]any
	if err := utiljson.Unmarshal(data, &obj); err != nil {
		v.Errors = append(v.Errors, "decode: "+err.Error())
		return v
	}
	u := &unstructured.Unstructured{Object: obj}
	kind, apiVersion := u.GetKind(), u.GetAPIVersion()
	meta, foundMeta, metaUnknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object,
		schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		v.Errors = append(v.Errors, "decode: "+err.Error())
		return v
	}
	v.Pruned = append(v.Pruned, metaUnknown...)
	v.Pruned = append(v.Pruned, pruning.PruneWithOptions(u.Object, s.structural, true,
		structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s.structural)
	ferr, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, s.structural, false,
		schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	if ferr != nil {
		v.Errors = append(v.Errors, "decode: "+ferr.Error())
		return v
	}
	v.Pruned = append(v.Pruned, paths...)
	u.SetKind(kind)
	u.SetAPIVersion(apiVersion)
	if foundMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, meta); err != nil {
			v.Errors = append(v.Errors, "decode: "+err.Error())
			return v
		}
	}
	slices.Sort(v.Pruned)
	structuraldefaulting.Default(u.Object, s.structural)
	s.beforeCreate(u)
	for _, e := range s.validate(u) {
		v.Errors = append(v.Errors, e.Error())
		v.Fields = append(v.Fields, e.Field)
	}
	return v
}

// beforeCreate is rest.BeforeCreate and the custom resource strategy's
// PrepareForCreate, as far as they change what Validate sees: kubectl
// sends a namespaced object to its namespace (default when unset), a
// cluster-scoped object loses its namespace, generateName gives a name,
// and with a status subresource a create cannot set status.
func (s *served) beforeCreate(u *unstructured.Unstructured) {
	switch {
	case !s.namespaced:
		u.SetNamespace("")
	case u.GetNamespace() == "":
		u.SetNamespace("default")
	}
	if u.GetName() == "" && u.GetGenerateName() != "" {
		u.SetName(u.GetGenerateName() + "x7k2q")
	}
	if s.status {
		delete(u.Object, "status")
	}
	u.SetGeneration(1)
}

// validate is the custom resource strategy's Validate without CEL.
func (s *served) validate(u *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	if u.GetKind() != s.kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), u.GetKind(), "must be "+s.kind))
	}
	if want := s.group + "/" + s.version; u.GetAPIVersion() != want {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), u.GetAPIVersion(), "must be "+want))
	}
	if len(errs) > 0 {
		return errs
	}
	errs = append(errs, metavalidation.ValidateObjectMetaAccessor(u, s.namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, u.UnstructuredContent(), s.validator)...)
	errs = append(errs, schemaobjectmeta.Validate(nil, u.Object, s.structural, false)...)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, s.structural, u.Object)...)
	return errs
}

// checkNoCEL fails when a CRD stream holds validation rules, which this
// oracle does not run.
func checkNoCEL(data []byte) error {
	if strings.Contains(string(data), "x-kubernetes-validations") {
		return fmt.Errorf("the CRDs hold x-kubernetes-validations: run CEL too (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel)")
	}
	return nil
}
