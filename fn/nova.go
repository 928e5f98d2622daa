package fn

import (
	"io"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// RenderNova renders input with the Nova provider config switched on and
// returns the provider config file alone, for nfd-fn render --output nova,
// with the run's diagnostics. The exit code is 1 when there is an error
// among them.
func RenderNova(input []byte, opts RunOptions) (file []byte, diags diag.List, code int, err error) {
	opts.NovaFile = &file
	r, err := run(input, io.Discard, opts)
	if err != nil {
		return nil, nil, 1, err
	}
	return file, r.list, r.exitCode(), nil
}
