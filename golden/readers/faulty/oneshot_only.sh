#!/bin/sh
# The Python example reader without the persistent protocol: `serve` is an unknown command
# (exit 2), as in a reader written before it existed. conform must detect that and run it one
# process per request (golden/tests/serve_faults.sh).
if [ "$1" = serve ]; then
  echo "oneshot_only.sh: unknown command 'serve'" >&2
  exit 2
fi
exec python3 "$(dirname "$0")/../python/voxrig_reader.py" "$@"
