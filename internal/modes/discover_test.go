package modes

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

func TestFoldDMIKeepsOtherWarningsAndLoneEntries(t *testing.T) {
	warn := func(source, msg string) diag.Diagnostic {
		return diag.Diagnostic{Severity: diag.Warning, Field: source, Message: msg}
	}
	in := diag.List{
		warn("kernel", "loadedmodule: missing"),
		warn("system", `failed to get DMI entry bios_date: reading "/r/id/bios_date": open: no such file or directory`),
		warn("system", `failed to get DMI entry sys_vendor: reading "/r/id/sys_vendor": open: no such file or directory`),
		warn("system", `failed to get DMI entry product_name: reading "/r/id/product_name": permission denied`),
		warn("usb", "missing"),
	}
	want := []string{
		"kernel: loadedmodule: missing",
		`system: failed to get 2 DMI entries (bios_date, sys_vendor): reading "/r/id/*": open: no such file or directory`,
		`system: failed to get DMI entry product_name: reading "/r/id/product_name": permission denied`,
		"usb: missing",
	}
	var got []string
	for _, w := range foldDMI(in) {
		got = append(got, w.Describe())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
