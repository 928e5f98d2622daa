package discover

import (
	"errors"
	"strings"
	"testing"
)

func TestDMIMissesShareOneWarningPerReason(t *testing.T) {
	notFound := func(name string) error {
		return errors.New(`reading "/r/id/` + name + `": open: no such file or directory`)
	}
	denied := func(name string) error { return errors.New(`reading "/r/id/` + name + `": permission denied`) }
	cases := []struct {
		name   string
		misses map[string]error
		order  []string
		want   []string
	}{
		{"none", nil, nil, nil},
		{"a-lone-entry-keeps-its-own-error", map[string]error{"product_name": denied("product_name")}, []string{"product_name"},
			[]string{`system: failed to get DMI entry product_name: reading "/r/id/product_name": permission denied`}},
		{"entries-missed-alike-fold-where-the-first-stood",
			map[string]error{"bios_date": notFound("bios_date"), "product_name": denied("product_name"), "sys_vendor": notFound("sys_vendor")},
			[]string{"bios_date", "product_name", "sys_vendor"},
			[]string{
				`system: failed to get 2 DMI entries (bios_date, sys_vendor): reading "/r/id/*": open: no such file or directory`,
				`system: failed to get DMI entry product_name: reading "/r/id/product_name": permission denied`,
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var m dmiMisses
			for _, name := range tc.order {
				m.add(name, tc.misses[name])
			}
			c := newCollector("system", false)
			m.warn(c)
			var got []string
			for _, w := range c.warnings {
				got = append(got, w.Describe())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
