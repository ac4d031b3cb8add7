#!/usr/bin/env bash
# The Action's measuring step, in the DBA's repository. What it measures follows the event:
# - pull_request_target: refused (the base repository's token, and a checkout of the base, not the branch).
# First, either way, the history branch (INPUT_HISTORY_BRANCH, default auditbench-history) is fetched into
# <report dir>/history.jsonl (`auditbench history fetch`; read access is enough, and no branch yet is an empty history).
# - pull_request: `auditbench gate`, base beside head in this one job (the head has no history yet). Its summary,
#   <report dir>/gate.md, shows the verdicts and the base branch's trend read from that history.
# - anything else (a push to the default branch, a schedule, a manual run): `auditbench bench`, the configured runs
#   on the Action's workload. The reporter appends them to history.jsonl and compares each with the pooled last
#   five base-branch entries of the same identity (by counts on any machine, by the wall clock within one machine
#   fingerprint); then `auditbench history record` commits the new entries to the history branch as one new file,
#   with the index and the trend page, and pushes (contents: write), also when the check failed: a failed entry is
#   history too.
# The summaries the command wrote are copied to $RUNNER_TEMP/auditbench-summaries, the only place the next step
# publishes from: the work tree is the branch's, and a summary (or a symlink) committed there is not this job's.
# Inputs come as the environment the Action sets: AUDITBENCH_* and INPUT_BASE_REF (the gate's base, if given).
set -euo pipefail

report_dir="${AUDITBENCH_REPORT_DIR:-reports}"
: "${RUNNER_TEMP:?RUNNER_TEMP is not set: this script runs as a step of the Action}"
written="$RUNNER_TEMP/auditbench-summaries"
rm -rf -- "$written"
mkdir -m 700 -- "$written"
# A gate or a bench measures local servers: no container images to build (GitHub sets CI=true, under which setup
# would build them for the matrix).
export AUDITBENCH_DOCKER="${AUDITBENCH_DOCKER:-0}"

# The auditbench that measures is the repository's own dev dependency (npx --no-install), not this action's checkout:
# the two must be one version, or the action's steps and the CLI they call could disagree.
if [ -n "${GITHUB_ACTION_PATH:-}" ] && [ -f "$GITHUB_ACTION_PATH/package.json" ]; then
  action_version="$(node -p "require(process.argv[1]).version" "$GITHUB_ACTION_PATH/package.json")"
  installed_version="$(npx --no-install auditbench --version)"
  if [ "$action_version" != "$installed_version" ]; then
    echo "auditbench action: the action is auditbench $action_version but the repository installs $installed_version; run 'npx auditbench action --update' and commit the folder it writes, or install $action_version" >&2
    exit 2
  fi
  echo "auditbench action: auditbench $installed_version, the repository's dev dependency, the action's own version"
fi
# Summaries left by an earlier invocation in the same folder (or committed) would be taken for this one's.
rm -f -- "$report_dir/summary.md" "$report_dir/gate.md" "$report_dir/history-check.md"
# The next step publishes the summaries once, also when the command fails before its reporters run.
unset GITHUB_STEP_SUMMARY

history_branch="${INPUT_HISTORY_BRANCH:-auditbench-history}"
status=0
case "${GITHUB_EVENT_NAME:-}" in
  pull_request_target)
    # It runs with the base repository's token and checks out the base: the gate would compare the base with itself.
    echo "auditbench action: GITHUB_EVENT_NAME is pull_request_target, which runs with the base repository's token and, with its default checkout, compares the base with itself: trigger the workflow on pull_request instead (with permissions: contents: read)" >&2
    exit 2
    ;;
  pull_request)
    base="${INPUT_BASE_REF:-${GITHUB_BASE_REF:+origin/$GITHUB_BASE_REF}}"
    if [ -n "$base" ]; then export AUDITBENCH_BASE_REF="$base"; fi
    npx --no-install auditbench history fetch --branch "$history_branch"
    echo "auditbench action: ${GITHUB_EVENT_NAME}: gating base ${base:-(the default branch)} beside head"
    npx --no-install auditbench gate || status=$?
    ;;
  *)
    if [ -n "${INPUT_BASE_REF:-}" ]; then export AUDITBENCH_BASE_REF="$INPUT_BASE_REF"; fi
    npx --no-install auditbench history fetch --branch "$history_branch"
    echo "auditbench action: ${GITHUB_EVENT_NAME:-no event}: measuring the configured runs into $report_dir/history.jsonl"
    npx --no-install auditbench bench || status=$?
    # The pages-url input is only printed, so it goes as an argument the CLI checks (an http(s) URL).
    record=(npx --no-install auditbench history record --branch "$history_branch")
    if [ -n "${INPUT_PAGES_URL:-}" ]; then record+=(--pages-url "$INPUT_PAGES_URL"); fi
    "${record[@]}" || status=$?
    ;;
esac

# Only regular files the command wrote: a symlink there could point anywhere on the runner.
for name in gate.md summary.md history-check.md; do
  file="$report_dir/$name"
  if [ -f "$file" ] && [ ! -L "$file" ]; then cp -- "$file" "$written/$name"; fi
done
exit "$status"
