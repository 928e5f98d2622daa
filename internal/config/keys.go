package config

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// configKey is one functionConfig setting. The table of keys is the
// FunctionConfig struct itself: a key's name is its JSON name (the same in
// an NFDFunctionConfig and under a ConfigMap's data), its ConfigMap string
// form follows from its Go type, and a `mode:"discover"` tag marks the
// settings only mode discover reads.
type configKey struct {
	name  string
	index int
	// mode is the only mode that reads the key; "" for all.
	mode string
}

// configKeys lists the settings in declaration order.
var configKeys = keysOf(reflect.TypeOf(FunctionConfig{}))

func keysOf(t reflect.Type) []configKey {
	var out []configKey
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "", "-", "apiVersion", "kind", "metadata":
			continue
		}
		out = append(out, configKey{name: name, index: i, mode: f.Tag.Get("mode")})
	}
	return out
}

func configKeyNamed(name string) (configKey, bool) {
	for _, k := range configKeys {
		if k.name == name {
			return k, true
		}
	}
	return configKey{}, false
}

func configKeyNames() []string {
	names := make([]string, len(configKeys))
	for i, k := range configKeys {
		names[i] = k.name
	}
	return names
}

// stringSetter is a setting type with a ConfigMap string form of its own.
type stringSetter interface {
	setString(val string) error
}

// set reads the key's ConfigMap string form into fc: strings as they are,
// booleans with strconv.ParseBool, lists comma-separated, and types with a
// form of their own (feature gates, Nova inventory defaults) by it.
func (k configKey) set(fc *FunctionConfig, val string) error {
	v := reflect.ValueOf(fc).Elem().Field(k.index)
	if v.Kind() == reflect.Pointer && v.IsNil() {
		v.Set(reflect.New(v.Type().Elem()))
	}
	if s, ok := v.Interface().(stringSetter); ok {
		return s.setString(val)
	}
	if s, ok := v.Addr().Interface().(stringSetter); ok {
		return s.setString(val)
	}
	switch {
	case v.Kind() == reflect.String:
		v.SetString(val)
	case v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Bool:
		b, err := strconv.ParseBool(strings.TrimSpace(val))
		if err != nil {
			v.Set(reflect.Zero(v.Type()))
			return fmt.Errorf("%q is not a boolean (want true or false)", val)
		}
		v.Elem().SetBool(b)
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.String:
		v.Set(reflect.ValueOf(SplitList(val)))
	default:
		return fmt.Errorf("setting %s has no string form (a bug in nfd-fn)", k.name)
	}
	return nil
}

// isSet reports whether fc sets the key.
func (k configKey) isSet(fc *FunctionConfig) bool {
	return !reflect.ValueOf(fc).Elem().Field(k.index).IsZero()
}

// setString reads reserved=0,min_unit=1,allocation_ratio=1.5.
func (d *NovaInventoryDefaults) setString(val string) error {
	*d = NovaInventoryDefaults{}
	for _, part := range SplitList(val) {
		name, v, ok := strings.Cut(part, "=")
		name, v = strings.TrimSpace(name), strings.TrimSpace(v)
		if !ok {
			return fmt.Errorf("invalid inventory default %q: want field=value", part)
		}
		if name == "allocation_ratio" {
			d.AllocationRatio = v
			continue
		}
		dst := d.intField(name)
		if dst == nil {
			return fmt.Errorf("unknown inventory field %q: want reserved, min_unit, max_unit, step_size or allocation_ratio", name)
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("%s=%s: %s must be an integer", name, v, name)
		}
		*dst = &n
	}
	return nil
}
