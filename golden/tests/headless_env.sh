# Sourced by the headless-Chromium CTests (html_report.sh, spec_html.sh): sets $chromium, or exits
# 77 (CTest's SKIP_RETURN_CODE) when Chromium or node is not installed.
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
  echo "SKIP: Chromium is not installed (Debian package chromium; scripts/install-deps.sh installs it)"
  exit 77
fi
if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
