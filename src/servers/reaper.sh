#!/bin/sh
# auditbench's reaper (src/servers/cleanup.ts, startReaper): reaper.sh <owner pid> <owner start ticks> <run folder>.
# Once the owner is gone (even by SIGKILL) and the folder still exists, it ends the processes whose argv holds exactly
# --defaults-file=<folder>/my.cnf (its servers) or <folder>/syslog/rsyslog.conf (their syslog receiver), unmounts what is mounted there, and deletes the folder. Nothing from the folder's
# name is ever a pattern: arguments and mount points are compared as whole strings (grep -F -x, awk's ==, index).
owner=$1 born=$2 dir=$3
arg="--defaults-file=$dir/my.cnf"

# Field 22 of /proc/<pid>/stat, counted after the command name's last ')'; nothing for a zombie or a gone pid.
started() {
  read -r s <"/proc/$1/stat" || return 0
  s=${s##*) }
  set -- $s  # fields after the name: numbers and a state letter, nothing a glob expands
  [ "$1" = Z ] || echo "${20}"
}
# The same process as the one that started us: same pid and start time (a reused pid is someone else).
owner_running() {
  if [ -n "$born" ]; then [ "$(started "$owner")" = "$born" ]; else kill -0 "$owner"; fi
}
# Pids whose argv holds $arg (or the receiver's configuration) as one whole argument: NUL-separated records, a fixed string matching a whole record. The
# pattern comes on stdin, so grep's own argv never holds it.
victims() {
  printf '%s\n%s\n' "$arg" "$dir/syslog/rsyslog.conf" | grep -lzxF -f - /proc/[0-9]*/cmdline 2>/dev/null | while IFS= read -r f; do
    f=${f#/proc/}
    echo "${f%/cmdline}"
  done
}
# Mount points at or under the folder (mountinfo's field 5; the folder holds no character mountinfo escapes).
mounts() {
  D=$dir awk 'BEGIN { d = ENVIRON["D"] } { t = $5; gsub(/\\040/, " ", t); gsub(/\\011/, "\t", t)
    if (t == d || index(t, d "/") == 1) print t }' /proc/self/mountinfo
}

while [ -d "$dir" ] && owner_running 2>/dev/null; do sleep 1; done
[ -d "$dir" ] || exit 0
# A frozen filesystem would hold a dying server in its write: thawed first.
mounts | while IFS= read -r m; do fsfreeze -u "$m" 2>/dev/null; done
v=$(victims)
# A receiver stopped by the pause fault (SIGSTOP) holds the server in its send() and acts on TERM only once continued.
[ -z "$v" ] || kill -TERM $v 2>/dev/null
[ -z "$v" ] || kill -CONT $v 2>/dev/null
for i in 1 2 3 4 5 6 7 8 9 10; do
  v=$(victims)
  [ -n "$v" ] || break
  sleep 1
done
[ -z "$v" ] || kill -KILL $v 2>/dev/null
mounts | sort -r | while IFS= read -r m; do umount "$m" 2>/dev/null || umount -l "$m"; done
rm -rf -- "$dir"
