#!/usr/bin/env bash
# The Action's summary step (it runs also when the measurement failed): the gate's summary, the bench's, then the
# history check's (with the last good and first bad commits when it failed), each
# only if the measuring step of this job wrote it and copied it to $RUNNER_TEMP/auditbench-summaries, appended to the
# job summary GitHub shows. Nothing is read from the work tree: a summary committed there, or a symlink, is the
# branch's, and when setup fails before the measuring step there is nothing of this job's to publish.
set -euo pipefail

: "${GITHUB_STEP_SUMMARY:?GITHUB_STEP_SUMMARY is not set: this script runs as a step of the Action}"
: "${RUNNER_TEMP:?RUNNER_TEMP is not set: this script runs as a step of the Action}"
written="$RUNNER_TEMP/auditbench-summaries"
published=0
for name in gate.md summary.md history-check.md; do
  file="$written/$name"
  if [ -f "$file" ] && [ ! -L "$file" ]; then
    cat -- "$file" >>"$GITHUB_STEP_SUMMARY"
    published=$((published + 1))
  fi
done
# The trend page the push jobs publish beside the history (the pages-url input): a plain URL or nothing.
url="${INPUT_PAGES_URL:-}"
if [ "$published" -gt 0 ] && [ -n "$url" ]; then
  if [[ "$url" =~ ^https?://[A-Za-z0-9./_~%:-]+$ ]]; then
    printf '\nThe trend of every run, on the history branch: [the trend page](%s)\n' "$url" >>"$GITHUB_STEP_SUMMARY"
  else
    echo "auditbench: the pages-url input is not a plain http(s) URL, so it is not linked" >>"$GITHUB_STEP_SUMMARY"
  fi
fi
if [ "$published" -eq 0 ]; then
  echo "auditbench: no summary was written in this job; the measuring step's log says why" >>"$GITHUB_STEP_SUMMARY"
fi
