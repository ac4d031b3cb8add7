#!/usr/bin/env bash
# The Action's summary step (it runs also when the measurement failed): the gate's summary, then the bench's, each
# only if the measuring step of this job wrote it and copied it to $RUNNER_TEMP/auditbench-summaries, appended to the
# job summary GitHub shows. Nothing is read from the work tree: a summary committed there, or a symlink, is the
# branch's, and when setup fails before the measuring step there is nothing of this job's to publish.
set -euo pipefail

: "${GITHUB_STEP_SUMMARY:?GITHUB_STEP_SUMMARY is not set: this script runs as a step of the Action}"
: "${RUNNER_TEMP:?RUNNER_TEMP is not set: this script runs as a step of the Action}"
written="$RUNNER_TEMP/auditbench-summaries"
published=0
for name in gate.md summary.md; do
  file="$written/$name"
  if [ -f "$file" ] && [ ! -L "$file" ]; then
    cat -- "$file" >>"$GITHUB_STEP_SUMMARY"
    published=$((published + 1))
  fi
done
if [ "$published" -eq 0 ]; then
  echo "auditbench: no summary was written in this job; the measuring step's log says why" >>"$GITHUB_STEP_SUMMARY"
fi
