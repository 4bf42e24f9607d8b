#!/usr/bin/env python3
"""A serve reader that misbehaves on one case: the Python example reader, except that in serve
mode the request for a file whose path contains TRIGGER gets MODE's fault. The serve CTest
(golden/tests/serve_faults.sh) checks that conform reports exactly that case and goes on.

usage: serve_faulty.py MODE TRIGGER serve     (MODE: hang | crash | garbage | exit)
       serve_faulty.py MODE TRIGGER dump ...  (one-shot: the plain Python reader)
"""
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import voxrig_reader  # noqa: E402


def fault(mode):
    if mode == "hang":
        time.sleep(3600)
    elif mode == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "exit":
        sys.stdout.flush()
        os._exit(0)
    elif mode == "garbage":
        sys.stdout.write("this is not a JSON object\n")
        sys.stdout.flush()


def serve(mode, trigger):
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "hello":
            reply = {"id": req["id"], "protocol": "voxrig-serve/1", "ops": ["dump"],
                     "profiles": ["vfp-static", "vfp-rig"]}
        elif any(trigger in a for a in req.get("args", [])):
            fault(mode)
            continue
        else:
            code, out, err = voxrig_reader.answer([req["op"]] + req.get("args", []))
            reply = {"id": req["id"], "exit": code, "stdout": out}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    mode, trigger, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    if rest == ["serve"]:
        sys.exit(serve(mode, trigger))
    sys.argv = [sys.argv[0]] + rest
    sys.exit(voxrig_reader.main())
