package fn

import (
	"io"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// runWith is the function as the tests run it: Run with opts.
func runWith(opts RunOptions) testkit.RunFunc {
	return func(input []byte, out io.Writer) (int, error) { return Run(input, out, opts) }
}

// runList runs the function on a list with no options: the output and the
// exit code.
func runList(t *testing.T, in string) (string, int) {
	t.Helper()
	out, code := testkit.Run(t, runWith(RunOptions{}), []byte(in))
	return string(out), code
}

// runForTest runs the function on input with no options: the output.
func runForTest(t *testing.T, input []byte) []byte {
	t.Helper()
	out, _ := testkit.Run(t, runWith(RunOptions{}), input)
	return out
}
