#!/usr/bin/env python3
"""CTest cli_io_errors: every path argument of every voxrig command, over the
hostile cases, must end with exit 3 and ONE stderr line that names the file and the reason,
within a few seconds (a FIFO must never hang the command).

Inputs:  a directory, a missing file, a FIFO with no writer, an unreadable file.
Outputs: a directory, a path in a missing folder, a FIFO with no reader, a full disk (/dev/full).

"Unreadable" for root: chmod 000 does not stop root, so the test uses /proc/self/mem, a regular
file whose read at offset 0 fails with EIO for every user; and, when setpriv(1) is installed and
the binary is reachable by uid 65534, also a chmod-000 file read as that user (EACCES).

Also: `validate` with several files reports each one and keeps going; stdout on a full disk
(`voxrig limits > /dev/full`) is an I/O error too.

Usage: io_errors_test.py VOXRIG SOURCE_DIR
"""
import os
import shutil
import stat
import subprocess
import sys
import tempfile

VOXRIG, SRC = sys.argv[1], sys.argv[2]
TIMEOUT = 10
failures = []
checked = 0


def run(argv, stdout=subprocess.PIPE, user=None):
    cmd = [VOXRIG] + argv
    if user:
        cmd = ["setpriv", "--reuid", str(user), "--regid", str(user), "--clear-groups"] + cmd
    try:
        p = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "", "TIMEOUT"
    out = p.stdout.decode(errors="replace") if p.stdout else ""
    return p.returncode, out, p.stderr.decode(errors="replace")


def expect_io(what, argv, path, user=None, stdout=subprocess.PIPE):
    """exit 3, exactly one stderr line, naming `path`."""
    global checked
    checked += 1
    rc, _, err = run(argv, stdout=stdout, user=user)
    # conform's progress lines ("[1/2] case profile") are not error lines.
    lines = [l for l in err.splitlines() if l.strip() and not l.startswith("[")]
    problems = []
    if rc is None:
        problems.append("hung (killed after %d s)" % TIMEOUT)
    elif rc != 3:
        problems.append("exit %s, expected 3" % rc)
    if rc is not None and len(lines) != 1:
        problems.append("%d stderr lines, expected 1" % len(lines))
    if rc is not None and lines and path not in lines[0]:
        problems.append("the line does not name %s" % path)
    if rc is not None and lines and ("cannot" not in lines[0] or ":" not in lines[0]):
        problems.append("the line gives no reason")
    if problems:
        failures.append("%s: voxrig %s: %s\n    stderr: %r" % (what, " ".join(argv),
                                                             "; ".join(problems), err[:400]))


def main():
    tmp = tempfile.mkdtemp(prefix="voxrig-io-")
    try:
        golden = os.path.join(SRC, "golden")
        rig = os.path.join(golden, "files", "vfp", "rig", "base.vfp")  # rig with clip "idle"
        rkc = os.path.join(golden, "files", "rkc", "golem.rkc")
        json_in = os.path.join(golden, "files", "compile", "name_missing_is_empty.json")
        for f in (rig, rkc, json_in):
            assert os.path.isfile(f), f
        d = os.path.join(tmp, "a_dir")
        os.mkdir(d)
        fifo = os.path.join(tmp, "fifo")
        os.mkfifo(fifo)
        missing = os.path.join(tmp, "missing.vfp")
        no_folder = os.path.join(tmp, "no", "such", "out.bin")
        eio = "/proc/self/mem"
        bad_inputs = [("a directory", d), ("a missing file", missing),
                      ("a FIFO with no writer", fifo), ("an unreadable file (EIO)", eio)]
        bad_outputs = [("a directory", d), ("a missing folder", no_folder),
                       ("a FIFO with no reader", fifo), ("a full disk", "/dev/full")]

        # Every command that reads a file: (argv with IN for the input, a valid input).
        readers = {
            "dump": (["dump", "IN"], rig),
            "validate": (["validate", "IN"], rig),
            "info": (["info", "IN"], rig),
            "roundtrip": (["roundtrip", "IN", os.path.join(tmp, "rt.out")], rig),
            "canonicalize": (["canonicalize", "IN", os.path.join(tmp, "c.out")], rig),
            "compile": (["compile", "IN", "-o", os.path.join(tmp, "c.vfp")], json_in),
            "mesh": (["mesh", "IN", "--format", "obj", "-o", os.path.join(tmp, "m.obj")], rig),
            "pose": (["pose", "IN", "--clip", "idle", "--t", "0", "-o",
                      os.path.join(tmp, "p.obj")], rig),
            "export-gltf": (["export-gltf", "IN", "-o", os.path.join(tmp, "e.glb")], rig),
            "golden fields": (["golden", "fields", "IN"], rig),
            "conform --expected-failures": (["conform", "--golden", golden, "--filter",
                                             "kfa/seed/export", "--expected-failures", "IN"],
                                            None),
        }
        for name, (argv, _) in readers.items():
            for what, path in bad_inputs:
                if name.startswith("conform") and path == missing:
                    continue  # a missing list is reported too, with the hint to create it
                expect_io("%s input %s" % (name, what), [path if a == "IN" else a for a in argv],
                          path)
        # Every command that writes a file.
        writers = {
            "roundtrip": ["roundtrip", rig, "OUT"],
            "canonicalize": ["canonicalize", rig, "OUT"],
            "compile": ["compile", json_in, "-o", "OUT"],
            "mesh": ["mesh", rig, "--format", "obj", "-o", "OUT"],
            "pose": ["pose", rig, "--clip", "idle", "--t", "0", "-o", "OUT"],
            "export-gltf": ["export-gltf", rig, "-o", "OUT"],
            "conform --report": ["conform", "--golden", golden, "--filter", "kfa/seed/export",
                                 "--report", "OUT"],
            "conform --junit": ["conform", "--golden", golden, "--filter", "kfa/seed/export",
                                "--junit", "OUT"],
        }
        for name, argv in writers.items():
            for what, path in bad_outputs:
                expect_io("%s output %s" % (name, what), [path if a == "OUT" else a for a in argv],
                          path)
        # gen --out: a file or a FIFO where a directory is wanted; one line, not one per case.
        plain = os.path.join(tmp, "plain_file")
        open(plain, "w").close()
        for what, path in (("a regular file", plain), ("a FIFO", fifo)):
            expect_io("gen --out %s" % what, ["gen", "--out", path, "--count", "20"], path)
        # Directory arguments that do not exist.
        for argv in (["conform", "--golden", missing], ["golden", "check", "--golden", missing]):
            expect_io("%s missing directory" % argv[0], argv, missing)
        # stdout on a full disk.
        with open("/dev/full", "w") as full:
            for argv in (["limits"], ["errors"], ["dump", rig]):
                expect_io("%s > /dev/full" % argv[0], argv, "stdout", stdout=full)

        # Unreadable for a non-root user, when we can drop to one.
        locked = os.path.join(tmp, "locked.vfp")
        shutil.copy(rig, locked)
        os.chmod(locked, 0)
        os.chmod(tmp, 0o755)
        probe = subprocess.run(["setpriv", "--reuid", "65534", "--regid", "65534",
                                "--clear-groups", VOXRIG, "--version"], capture_output=True) \
            if shutil.which("setpriv") else None
        if probe is not None and probe.returncode == 0:
            for argv in (["dump", locked], ["validate", locked], ["info", locked]):
                expect_io("%s input chmod 000 as uid 65534" % argv[0], argv, locked, user=65534)
        else:
            print("note: setpriv or a binary reachable by uid 65534 is missing; chmod-000 as a "
                  "non-root user not checked (/proc/self/mem covers an unreadable file)")

        # validate with several files reports each and continues; exit 3 (an I/O error wins).
        global checked
        checked += 1
        rc, out, err = run(["validate", d, rig, missing, rkc])
        ok_lines = [l for l in out.splitlines() if l.endswith("warning(s))")]
        err_lines = [l for l in err.splitlines() if l.strip()]
        if rc != 3 or len(ok_lines) != 2 or len(err_lines) != 2 or d not in err_lines[0] or \
                missing not in err_lines[1]:
            failures.append("validate DIR OK MISSING OK: rc %s, stdout %r, stderr %r"
                            % (rc, out, err))
    finally:
        for root, dirs, _ in os.walk(tmp):
            for x in dirs:
                os.chmod(os.path.join(root, x), 0o755)
        shutil.rmtree(tmp, ignore_errors=True)

    for f in failures:
        print("FAIL: " + f)
    print("cli_io_errors: %d case(s), %d failure(s)" % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
