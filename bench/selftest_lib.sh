# bench/selftest_lib.sh — sourced by the Python-backed bench self-tests (plot_selftest.sh,
# report_selftest.sh, unit_faces_selftest.sh): one home for their scratch folder, failure message and interpreter
# choice. POSIX sh.
#
# selftest_init NAME: sets `tmp` (a fresh folder, removed on exit) and defines fail(), which
# prints "NAME: message" to stderr and exits 1.
selftest_init() {
  selftest_name=$1
  tmp=$(mktemp -d) || exit 1
  trap 'rm -rf "$tmp"' EXIT
}
fail() { echo "$selftest_name: $*" >&2; exit 1; }
# python_with MODULE PACKAGE: sets `py` to a python3 that imports MODULE, or fails naming the
# Debian PACKAGE. A pyenv python3 first on PATH may lack Debian's modules; /usr/bin/python3 has
# them.
python_with() {
  py=
  for c in python3 /usr/bin/python3; do
    if "$c" -c "import $1" 2>/dev/null; then py=$c; return 0; fi
  done
  fail "no python3 with $1 (apt-get install $2)"
}
