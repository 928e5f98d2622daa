package admission

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// The checks admission reports under.
const (
	CheckRejected = "admission-rejected"
	CheckPruned   = "admission-pruned"
)

// Admit judges the set's NodeFeatureRules and NodeFeatureGroups in use as
// the API server of rel does, from its CRDs: an object the schema refuses
// is marked Rejected (an error per refused field, naming the value, the
// release and the first release that accepts it); fields the schema does
// not know are pruned from the object nfd-master sees, with a warning, or
// with strict (fieldValidation=Strict, kubectl apply's default) reject it. Objects read
// without their YAML (Origin.Node nil) are left as they are.
func Admit(set *objects.Set, rel release.Release, strict bool) diag.List {
	out := admitAll(set.Rules, api.KindNodeFeatureRule, objects.RuleRef, rel, strict)
	return append(out, admitAll(set.Groups, api.KindNodeFeatureGroup, objects.GroupRef, rel, strict)...)
}

// admitAll admits the objects of one kind in use that were read with
// their YAML, marking the refused ones Rejected and keeping the pruned
// form of the others.
func admitAll[T any](objs []objects.Object[T], kind string, ref func(T) diag.ObjectRef, rel release.Release, strict bool) diag.List {
	var out diag.List
	for i := range objs {
		o := &objs[i]
		if !o.Used() || o.Origin.Node == nil {
			continue
		}
		ds, pruned, rejected, missing := admit(kind, ref(o.Obj), o.Origin, rel, strict)
		out = append(out, ds...)
		o.Rejected = rejected
		// The checks that read a missing field would see a value the user
		// never wrote (""): the refusal says all there is.
		o.Undecoded = append(o.Undecoded, missing...)
		if obj, ok := pruned.(T); ok {
			o.Obj = obj
		}
	}
	return out
}

// admit judges one object; pruned is the object decoded again without the
// pruned fields (nil when none were), missing the required fields it
// lacks.
func admit(kind string, ref diag.ObjectRef, o objects.Origin, rel release.Release, strict bool) (ds diag.List, pruned any, rejected bool, missing []string) {
	s, err := SchemaFor(rel.Schema, kind)
	if err != nil || s == nil {
		return nil, nil, false, nil
	}
	v := Check(s, o.Node)
	for _, p := range v.Problems {
		if p.Detail == requiredValue {
			missing = append(missing, p.Field)
		}
		ds = append(ds, diag.Diagnostic{Severity: diag.Error, Check: CheckRejected, Object: ref, Field: p.Field,
			Pos: o.Position(p.Field, false),
			Message: fmt.Sprintf("the API server of NFD %s refuses this %s whole (%s's CRD schema): %s: %s; %s",
				rel, kind, rel.Schema, objects.Invalid(kind, api.Group, ref.Name), p, acceptedFrom(kind, o.Node, rel.Schema, p.Field, false))})
	}
	for _, path := range v.Pruned {
		accepted := acceptedFrom(kind, o.Node, rel.Schema, path, true)
		if accepted == noReleaseAccepts {
			continue // a field of no release: the object reader reports it (NFD003)
		}
		head := fmt.Sprintf("unknown field %q in NFD %s's CRD schema (%s)", path, rel, rel.Schema)
		d := diag.Diagnostic{Severity: diag.Warning, Check: CheckPruned, Object: ref, Field: path, Pos: o.Position(path, true),
			Message: fmt.Sprintf("%s: %s; %s", head, objects.UnknownFieldPruned(path), accepted)}
		if strict {
			d.Severity, d.Check = diag.Error, CheckRejected
			d.Message = fmt.Sprintf("%s: %s; %s", head, objects.UnknownFieldRefused(kind, path), accepted)
		}
		ds = append(ds, d)
	}
	switch {
	case v.Rejected() || (strict && len(v.Pruned) > 0):
		return ds, nil, true, missing
	case len(v.Pruned) > 0:
		// The pruned object may still hold what the server stores
		// otherwise than written (a YAML 1.1 key): it is used as stored.
		if d := objects.Decode(v.Prune(o.Node)); !d.Rejected(true) {
			pruned = d.Obj
		}
	}
	return ds, pruned, false, missing
}

// acceptedFrom names the first release after from whose schema accepts
// the field (knows it, with pruned): "first accepted by v0.18.0".
func acceptedFrom(kind string, obj *yaml.Node, from release.Version, field string, pruned bool) string {
	for _, line := range release.Lines() {
		minor := line.Minor
		if minor <= from.Minor {
			continue
		}
		s, err := SchemaFor(release.Version{Minor: minor}, kind)
		if err != nil || s == nil {
			continue
		}
		v := Check(s, obj)
		if !v.refuses(field, pruned) {
			return fmt.Sprintf("NFD v0.%d.0 is the first release that accepts it", minor)
		}
	}
	return noReleaseAccepts
}

// noReleaseAccepts ends the message of a field no release accepts.
const noReleaseAccepts = "no NFD release accepts it"

func (v *Verdict) refuses(field string, pruned bool) bool {
	if pruned {
		for _, p := range v.Pruned {
			if p == field {
				return true
			}
		}
		return false
	}
	for _, p := range v.Problems {
		if p.Field == field {
			return true
		}
	}
	return false
}

// DropCovered keeps one result per refused field: where the API server
// refuses an object (CheckRejected) for a field another check reports as
// an error too (the rule engine's invalid op, a rule without a name, a
// taint without an effect), the other result goes, for what it says comes
// next ("the rule fails on every node", "nfd-master drops it") never
// comes: the object, its valid rules included, never reaches nfd-master.
// The other check's suggested fix moves to the admission's result.
// Release differences (Ge on v0.17) are admission's alone and stay.
func DropCovered(ds diag.List) diag.List {
	// The file tells apart an object defined twice: the one the cluster
	// keeps is admitted, the other keeps its own findings.
	type key struct {
		object      diag.ObjectRef
		field, file string
	}
	keyOf := func(d *diag.Diagnostic) key { return key{d.Object.Key(), d.Field, d.Pos.File} }
	refused := map[key]bool{}
	for i := range ds {
		if ds[i].Check == CheckRejected && ds[i].Field != "" {
			refused[keyOf(&ds[i])] = true
		}
	}
	if len(refused) == 0 {
		return ds
	}
	suggestion := map[key]string{}
	out := make(diag.List, 0, len(ds))
	for i := range ds {
		d := &ds[i]
		if d.Severity == diag.Error && d.Check != CheckRejected && refused[keyOf(d)] {
			if d.Suggestion != "" {
				suggestion[keyOf(d)] = d.Suggestion
			}
			continue
		}
		out = append(out, *d)
	}
	for i := range out {
		d := &out[i]
		if best := suggestion[keyOf(d)]; d.Check == CheckRejected && best != "" && d.Suggestion == "" {
			d.Suggestion = best
			d.Message += fmt.Sprintf(" (did you mean %q?)", best)
		}
	}
	return out
}

// Need is what an older release's API server refuses or prunes in an
// object: the field, and what about it ("Ge", "type").
type Need struct{ Field, What string }

// FirstAccepting is the oldest release whose API server takes the object
// as written (nothing refused, nothing pruned), and what the release
// before it refuses or prunes; ok is false when no release takes it.
func FirstAccepting(kind string, obj *yaml.Node) (first release.Version, why []Need, ok bool) {
	for _, line := range release.Lines() {
		v := release.Version{Minor: line.Minor}
		s, err := SchemaFor(v, kind)
		if err != nil || s == nil {
			continue
		}
		verdict := Check(s, obj)
		if !verdict.Rejected() && len(verdict.Pruned) == 0 {
			return v, why, true
		}
		why = why[:0]
		for _, p := range verdict.Problems {
			why = append(why, Need{Field: p.Field, What: p.Value})
		}
		for _, path := range verdict.Pruned {
			why = append(why, Need{Field: path, What: path[strings.LastIndex(path, ".")+1:]})
		}
	}
	return release.Version{}, why, false
}
