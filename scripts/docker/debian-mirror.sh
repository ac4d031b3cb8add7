# Sourced by build-images.sh: finds the Debian mirror this machine's apt uses.
# AUDITBENCH_DEBIAN_MIRROR overrides it.

# The first Debian mirror in the machine's apt sources (one-line .list files
# and deb822 .sources files) that serves the machine's own release.
debian_mirror() {
  if [[ -n ${AUDITBENCH_DEBIAN_MIRROR:-} ]]; then
    echo "${AUDITBENCH_DEBIAN_MIRROR%/}"
    return 0
  fi
  local codename files=()
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  [[ -f /etc/apt/sources.list ]] && files+=(/etc/apt/sources.list)
  files+=(/etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources)
  local file uri
  for file in "${files[@]}"; do
    [[ -f $file ]] || continue
    if [[ $file == *.sources ]]; then
      uri=$(deb822_mirror "$codename" <"$file")
    else
      uri=$(one_line_mirror "$codename" <"$file")
    fi
    if [[ -n $uri ]]; then
      echo "${uri%/}"
      return 0
    fi
  done
  return 1
}

# Suites that mark a source as the main Debian archive (not security, updates
# or a third-party repository).
readonly archive_suites_re='^(stable|testing|unstable|sid|oldstable|oldoldstable)$'

one_line_mirror() {
  awk -v want="$1" -v re="$archive_suites_re" '
    $1 != "deb" { next }
    { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ } }
    $(i + 1) == want || $(i + 1) ~ re { print $i; exit }'
}

deb822_mirror() {
  awk -v want="$1" -v re="$archive_suites_re" '
    function check(  n, s, k) {
      if (f["types"] ~ /(^| )deb( |$)/ && tolower(f["enabled"]) != "no") {
        n = split(f["suites"], s, " ")
        for (k = 1; k <= n; k++)
          if (s[k] == want || s[k] ~ re) { split(f["uris"], u, " "); print u[1]; done = 1; exit }
      }
      delete f
    }
    /^#/ { next }
    /^[ \t]*$/ { check(); next }
    /^[ \t]/ { f[key] = f[key] " " $0 }
    /^[^ \t]/ { key = tolower(substr($0, 1, index($0, ":") - 1)); f[key] = substr($0, index($0, ":") + 1) }
    { gsub(/^[ \t]+|[ \t]+$/, "", f[key]) }
    END { if (!done) check() }'
}
