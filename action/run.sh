#!/usr/bin/env bash
# The Action's run step (action.yml): runs nfd-fn's command on the paths,
# annotates the files (validate and test with -o github), writes the
# report to the job's step summary, and sets the outputs exit-code,
# failed, sarif-file and plan-file. The verdict is left to a later step,
# so that the SARIF upload and the plan comment run first.
#
# NFD_FN_COMMAND validate|test|plan, NFD_FN_PATHS and NFD_FN_ARGS (split at
# spaces), NFD_FN_BASE (plan: the base ref), NFD_FN_SARIF (true: validate
# writes SARIF too).
set -uo pipefail
out=${RUNNER_TEMP:?RUNNER_TEMP is not set: run this as a GitHub Actions step}/nfd-fn
mkdir -p "$out"
read -r -a paths <<<"${NFD_FN_PATHS:-.}"
read -r -a args <<<"${NFD_FN_ARGS:-}"
command=${NFD_FN_COMMAND:-validate}

# summary TITLE FILE FENCE: FILE under a heading in the step summary,
# fenced as text unless FENCE is "markdown".
summary() {
  {
    echo "### $1"
    echo
    if [ "$3" = markdown ]; then cat "$2"; else echo '```text'; cat "$2"; echo '```'; fi
    echo
  } >>"${GITHUB_STEP_SUMMARY:-/dev/null}"
}

case "$command" in
  validate | test)
    # The workflow commands (-o github) on the log: the runner turns them
    # into annotations at each finding's or failed expectation's file and
    # line. Their exit status is the verdict; the text form is the summary.
    nfd-fn "$command" --output github "${args[@]}" "${paths[@]}"
    code=$?
    nfd-fn "$command" "${args[@]}" "${paths[@]}" >"$out/report.txt" 2>&1
    summary "nfd-fn $command: exit $code" "$out/report.txt" text
    if [ "$command" = validate ] && [ "${NFD_FN_SARIF:-false}" = true ]; then
      nfd-fn validate --output sarif "${args[@]}" "${paths[@]}" >"$out/nfd-fn.sarif"
      echo "sarif-file=$out/nfd-fn.sarif" >>"$GITHUB_OUTPUT"
    fi
    failed=$([ "$code" = 0 ] && echo false || echo true)
    ;;
  plan)
    if [ -n "${NFD_FN_BASE:-}" ]; then
      # The first path is the rules; its copy at the base ref is the base.
      sh "$(dirname "$0")/../docs/ci/nfd-fn-plan.sh" "$NFD_FN_BASE" "${paths[@]}" "${args[@]}" >"$out/plan.md"
    else
      nfd-fn plan --output markdown --detailed-exitcode "${args[@]}" "${paths[@]}" >"$out/plan.md"
    fi
    code=$?
    cat "$out/plan.md"
    # 0 no change, 2 changes; 1 (errors, bad usage) prints no plan.
    if [ -s "$out/plan.md" ]; then
      summary "nfd-fn plan" "$out/plan.md" markdown
      echo "plan-file=$out/plan.md" >>"$GITHUB_OUTPUT"
    fi
    failed=$([ "$code" = 0 ] || [ "$code" = 2 ] && echo false || echo true)
    ;;
  *)
    echo "nfd-fn's Action: command is \"$command\"; want validate, test or plan" >&2
    exit 1
    ;;
esac
echo "exit-code=$code" >>"$GITHUB_OUTPUT"
echo "failed=$failed" >>"$GITHUB_OUTPUT"
