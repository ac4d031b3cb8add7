#!/usr/bin/env bash
# The Action's summary step (it runs also when the measurement failed): the gate's summary, then the bench's, each if
# this invocation wrote it (measure.sh removes old ones), appended to the job summary GitHub shows.
set -euo pipefail

report_dir="${AUDITBENCH_REPORT_DIR:-reports}"
: "${GITHUB_STEP_SUMMARY:?GITHUB_STEP_SUMMARY is not set: this script runs as a step of the Action}"
published=0
for file in "$report_dir/gate.md" "$report_dir/summary.md"; do
  if [ -f "$file" ]; then
    cat "$file" >>"$GITHUB_STEP_SUMMARY"
    published=$((published + 1))
  fi
done
if [ "$published" -eq 0 ]; then
  echo "auditbench: no summary was written; the measuring step's log says why" >>"$GITHUB_STEP_SUMMARY"
fi
