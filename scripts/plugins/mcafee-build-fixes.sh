#!/usr/bin/env bash
# The smallest changes that let mysql-audit v1.2.5 build with Debian 12's autotools, Python 3 and GCC 12 (-Werror
# kept). Applied to an extracted copy in the build dir, never to a tracked file; the plugin's own code is untouched.
# Usage: mcafee-build-fixes.sh <extracted source dir>
set -euo pipefail
cd "$1"
fail() {
  printf 'build-mcafee-audit: build fix failed: %s\n' "$*" >&2
  exit 1
}

# udis86/Makefile.am recurses into scripts/ udcli/ docs/ tests/, for which configure generates no Makefile.
sed -i -E 's/^SUBDIRS = .*/SUBDIRS = libudis86/' udis86/Makefile.am
# Bundled as its own project, udis86's paths were relative to its top dir; here the top dir is the plugin's.
# And it was an installable shared library, which left the plugin needing libudis86.so.0 from the build dir:
# a convenience library is linked into libaudit_plugin.so instead.
sed -i -E \
  -e 's|^PYTHON *= *@PYTHON@|PYTHON = python3|' \
  -e 's|@top_srcdir@/docs/x86/optable.xml|$(top_srcdir)/udis86/docs/x86/optable.xml|' \
  -e 's|\$\(top_srcdir\)/scripts/|$(top_srcdir)/udis86/scripts/|g' \
  -e 's|^lib_LTLIBRARIES|noinst_LTLIBRARIES|' \
  udis86/libudis86/Makefile.am
grep -q '^noinst_LTLIBRARIES = libudis86.la' udis86/libudis86/Makefile.am || fail "udis86/libudis86/Makefile.am changed shape"
# ud_opcode.py is Python 2: its table indices come from `/`, which is float division in Python 3.
sed -i -E -e 's|\(int\(v\) / 32\)|(int(v) // 32)|' -e 's|\+ 1\) / 2\)|+ 1) // 2)|' udis86/scripts/ud_opcode.py
[[ $(grep -c '//' udis86/scripts/ud_opcode.py) -ge 3 ]] || fail "udis86/scripts/ud_opcode.py changed shape"
# udint.h includes <config.h> under HAVE_CONFIG_H (defined for the plugin's own _config.h); udis86's configure,
# which never runs here, would have said these two headers exist (udis86.c needs string.h for memset).
printf '#define HAVE_STRING_H 1\n#define HAVE_ASSERT_H 1\n' >udis86/libudis86/config.h
