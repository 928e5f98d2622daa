// Package e2e runs every example under examples/ end to end with the real
// orchestrators (kpt, kustomize) or the plain command line, the way the kpt
// function catalog tests its examples: each example directory that has an
// .expected/ directory is a test case.
//
// An example's .expected/config.yaml says how to run it (every key is
// optional):
//
//	testType: render   # render (default): kpt fn render PKG --allow-exec
//	                   # eval: kpt fn eval PKG --exec nfd-fn [-- args]
//	                   # kustomize: kustomize build --enable-alpha-plugins --enable-exec PKG
//	                   # cli: nfd-fn < PKG/<stdin>
//	exitCode: 0        # the expected exit code
//	args: {k: v}       # eval only: passed as k=v after --
//	env: {K: V}        # environment variables for the command
//	stdin: file.yaml   # cli only: the file fed to nfd-fn
//	skip: false        # with skipReason: why
//
// and the other files of .expected/ what to expect:
//
//   - diff.patch: the expected `git diff` of the package after the run
//     (absent: the run must not change any file);
//   - results.yaml: the results file kpt writes with --results-dir
//     (compared when present; required when exitCode is not 0);
//   - output.yaml: the expected standard output (kustomize and cli);
//   - assert.yaml: for output that depends on the machine (discovery), the
//     files the run must create or change and the fields each must hold,
//     checked instead of diff.patch.
//
// Every example runs twice in a fresh git repository: the first run must
// give the expected exit code, results, output and diff; the second must
// give the same and change nothing more. `go test ./e2e -update` rewrites
// diff.patch, results.yaml and output.yaml from the actual runs.
//
// The tests need kpt, kustomize and git on PATH (kustomize is also looked
// for in $(go env GOPATH)/bin). A missing tool skips the examples that need
// it, unless NFD_FN_E2E=1, which .ci/run sets: then it is a failure.
package e2e
