#!/usr/bin/env bash
# Prints `loose-audit_offsets`' 26 numbers (the plugin's ThdOffsets, in order) for one mariadbd binary.
# Step 1: offsetof() of each field in the neighbouring source tree, read with gdb from a probe compiled as the plugin
#   is (-O2 -DDBUG_OFF -DNDEBUG), like upstream's offset-extract.sh does from a binary with debug symbols.
# Step 2: the installed binary has no debug symbols, but its exported accessors (thd_query_id, thd_get_error_number,
#   thd_current_status, …) each read one of those fields: their disassembly gives the true offset ("binary").
# Step 3: a field with no accessor takes the shift of its neighbouring anchors in the same structure when the
#   anchors below and above it agree ("shifted"); with one anchor only it takes that one's ("one-sided"); with none
#   it keeps the source's ("source"). Each field's provenance goes to stderr and <workdir>/offsets.txt.
# The live check is the McAfee suite: error codes, statuses and objects logged right.
# Usage: mcafee-offsets.sh <mariadbd> <server headers tree> <workdir>
set -euo pipefail
mysqld=$1 tree=$2 work=$3
mkdir -p "$work"
fail() {
  printf 'build-mcafee-audit: offsets: %s\n' "$*" >&2
  exit 1
}

# ThdOffsets order (include/audit_handler.h); "-" is a field MariaDB builds leave 0.
fields=(
  "THD query_id" "THD thread_id" "THD main_security_ctx" "THD m_command" "THD lex" "LEX comment"
  "Security_context user" "Security_context host" "Security_context ip" "Security_context priv_user"
  "THD db" "THD killed" "THD client_capabilities" "PFS_thread m_session_connect_attrs"
  "PFS_thread m_session_connect_attrs_length" "PFS_thread m_session_connect_attrs_cs_number" "THD net" "-" "-"
  "THD limit_found_rows" "THD m_sent_row_count" "THD m_row_count_func" "THD m_stmt_da" "Diagnostics_area m_status"
  "Diagnostics_area m_sql_errno" "-"
)
# Extra fields only the reconciliation needs (they anchor other fields).
anchors_only=("THD security_ctx" "LEX sql_command")

cat >"$work/probe.cc" <<'EOF'
#define MYSQL_DYNAMIC_PLUGIN 1
#define MYSQL_SERVER 1
#define DONT_MAP_VIO
#include <my_config.h>
#include <mysql_version.h>
#include <my_global.h>
#include <mysql/plugin.h>
#include <sql_parse.h>
#include <sql_class.h>
#include <storage/perfschema/pfs_instr.h>
THD *probe_THD; LEX *probe_LEX; Security_context *probe_Security_context; PFS_thread *probe_PFS_thread;
Diagnostics_area *probe_Diagnostics_area;
EOF
g++ -std=c++17 -g -O2 -DDBUG_OFF -DNDEBUG -fno-eliminate-unused-debug-types -femit-class-debug-always \
  -I"$tree/include" -I"$tree/sql" -I"$tree" -I"$tree/wsrep-lib/include" -I"$tree/wsrep-lib/wsrep-API/v26" \
  -c -o "$work/probe.o" "$work/probe.cc" 2>"$work/probe.log" || fail "the offset probe does not compile against $tree (see $work/probe.log)"

declare -A source binary
gdb_args=()
for field in "${fields[@]}" "${anchors_only[@]}"; do
  [[ $field == - ]] && continue
  read -r type member <<<"$field"
  gdb_args+=(-ex "printf \"$type.$member %d\\n\", (unsigned long)&probe_$type->$member")
done
while read -r name value; do source[$name]=$value; done < <(gdb -n -batch "${gdb_args[@]}" "$work/probe.o" 2>/dev/null)

# <function> <operand index> <field>: the Nth memory operand's displacement in the function is that field's offset.
accessors=(
  "thd_query_id 1 THD.query_id" "thd_get_thread_id 1 THD.thread_id" "thd_current_command 1 THD.m_command"
  "thd_current_db 1 THD.db" "thd_sql_command 1 THD.lex" "thd_sql_command 2 LEX.sql_command"
  "_Z17thd_net_is_killedP3THD 1 THD.killed" "thd_user_name 1 THD.security_ctx"
  "thd_user_name 2 Security_context.user" "thd_client_host 2 Security_context.host"
  "thd_client_ip 2 Security_context.ip" "thd_get_error_number 1 THD.m_stmt_da"
  "thd_get_error_number 2 Diagnostics_area.m_sql_errno" "thd_current_status 2 Diagnostics_area.m_status"
)
for accessor in "${accessors[@]}"; do
  read -r function index name <<<"$accessor"
  operand=$(gdb -n -batch -ex "disassemble $function" "$mysqld" 2>/dev/null |
    grep -oE '(-?0x[0-9a-f]+)?\(%r[a-z0-9]+\)' | sed -n "${index}p") || true
  [[ -n $operand ]] || continue
  value=${operand%%(*}
  binary[$name]=$((${value:-0}))
done
((${#binary[@]} >= 10)) || fail "only ${#binary[@]} of ${#accessors[@]} accessor offsets could be read from $mysqld (is gdb installed?)"

# Shift of a field: from the nearest anchors of the same structure below and above it in the source layout.
shift_for() {
  local type=$1 at=$2 below="" above="" best_below=-1 best_above=999999999 name
  for name in "${!binary[@]}"; do
    [[ $name == "$type".* && -n ${source[$name]:-} ]] || continue
    local s=${source[$name]} d=$((binary[$name] - source[$name]))
    if ((s <= at && s > best_below)); then best_below=$s below=$d; fi
    if ((s >= at && s < best_above)); then best_above=$s above=$d; fi
  done
  if [[ -n $below && -n $above ]]; then
    [[ $below == "$above" ]] && echo "$below shifted" || echo "ambiguous ($below below, $above above)"
  elif [[ -n $below$above ]]; then
    echo "$below$above one-sided"
  else
    echo "0 source"
  fi
}

offsets=()
: >"$work/offsets.txt"
for field in "${fields[@]}"; do
  if [[ $field == - ]]; then
    offsets+=(0)
    continue
  fi
  read -r type member <<<"$field"
  name=$type.$member
  [[ -n ${source[$name]:-} ]] || fail "$name is not in the source tree's layout (gdb could not read it from the probe)"
  if [[ -n ${binary[$name]:-} ]]; then
    value=${binary[$name]} how=binary
  else
    read -r delta how <<<"$(shift_for "$type" "${source[$name]}")"
    [[ $delta =~ ^-?[0-9]+$ ]] || fail "$name lies between anchors that moved differently ($how): cannot place it"
    value=$((source[$name] + delta))
  fi
  offsets+=("$value")
  printf '%-45s source %6d  binary %6d  (%s)\n' "$name" "${source[$name]}" "$value" "$how" >>"$work/offsets.txt"
done
sed 's/^/build-mcafee-audit:   /' "$work/offsets.txt" >&2
(IFS=,; echo "${offsets[*]}")
