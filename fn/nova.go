package fn

import (
	"fmt"
	"io"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// RenderNova renders the ResourceList read from in with the Nova
// provider config switched on and returns the provider config file alone,
// for nfd-fn render --output nova, with the run's diagnostics. The exit
// code is 1 when there is an error among them.
func RenderNova(in io.Reader, opts RunOptions) (file []byte, diags diag.List, code int, err error) {
	input, err := krm.ReadInput(in, 0)
	if err != nil {
		return nil, nil, 1, fmt.Errorf("%w: %w", ErrInput, err)
	}
	opts.Output = NovaOutput(&file)
	r, err := run(input, io.Discard, opts)
	if err != nil {
		return nil, nil, 1, err
	}
	return file, r.list, r.exitCode(), nil
}
