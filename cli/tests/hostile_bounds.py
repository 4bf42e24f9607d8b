#!/usr/bin/env python3
"""The measured bounds of docs/robustness.md ("Bounds per command"): runs voxrig commands over
the hostile files of scripts/make-bombs.py and checks, per run, the exit code, the CPU time, the
peak RSS (the child's ru_maxrss from wait4, so no /usr/bin/time is needed) and the output size.

Goals checked on every run: exit 0-4 (never a signal, never a timeout); CPU <= 10 s; peak RSS
<= 512 MiB for inputs of at most 8 MiB (default limits); mesh / pose / export-gltf / compile
output <= 256 MiB, every other output <= 1 MiB + 64 x input. Under `ulimit -v 400000`
(RLIMIT_AS) a run may be refused (exit 1 internal.out_of_memory) but never aborts.

  hostile_bounds.py VOXRIG SOURCE_DIR [--set NAME] [--table] [--no-check] [--timeout S]

--timeout S: a run that uses more than S seconds of CPU (default 30) is stopped (RLIMIT_CPU)
    and fails as a timeout; so is one that runs 20 x S seconds of wall time (a run that blocks).
    Time is judged by CPU, never by wall time, so a loaded machine cannot fail a run.

--set quick (default; CTest hostile_bounds_*): one run per class and command that the classes
    concern; about a minute of CPU. `--set inflate|abort|info|output` runs one class of it.
--set full: every file-taking command over every bomb, and every bomb under `ulimit -v 400000`
    (about 600 runs; docs/robustness.md).
--table prints a Markdown table of the measurements; --no-check only measures (for a "before"
    run of an older binary). Exit: 0 every check held, 1 a check failed, 2 usage.
"""
import importlib.util
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time

MIB = 1 << 20
RSS_GOAL = 512 * MIB
CPU_GOAL = 10.0
CAPPED_OUTPUT = 256 * MIB  # mesh / pose / export-gltf / compile, default --max-output
AS_LIMIT_KIB = 400000      # `ulimit -v 400000`
STDIN_RSS = 1280 * MIB     # an endless stdin: the 1 GiB input limit, held once, plus the process


def dump_bound(n):
    return MIB + 64 * n


class Run:
    """One command over one input: what to run and what it must satisfy."""

    def __init__(self, cls, name, argv, stdin=None, exits=(0, 1, 2, 3, 4), capped=False,
                 address_limit=False, rss=RSS_GOAL, cpu=CPU_GOAL, stdout_err=None, like=None,
                 same_error=False):
        self.cls, self.name, self.argv, self.stdin = cls, name, argv, stdin
        self.exits, self.capped = exits, capped
        self.address_limit, self.rss, self.cpu = address_limit, rss, cpu
        self.stdout_err = stdout_err  # the error code the stdout line must name, if any
        # The run (of the list) whose cost this one must stay near: at most 2x its peak RSS
        # + 32 MiB and 2x its CPU + 1 s (`info` against `dump` of the same file).
        self.like = like
        self.same_error = same_error  # and its stdout names the same error (code, offset, path)


def load_bombs(src):
    spec = importlib.util.spec_from_file_location('make_bombs',
                                                  os.path.join(src, 'scripts', 'make-bombs.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


WALL_FACTOR = 20  # wall-time limit, in multiples of the CPU limit: only for a run that blocks


def measure(voxrig, run, work, timeout):
    """Runs `run`; returns dict(exit, signal, timeout, cpu, wall, rss, output, tail of stdout)."""
    out_path = os.path.join(work, 'stdout')
    argv = [voxrig] + [a.replace('@OUT', os.path.join(work, 'out')) for a in run.argv]
    for f in os.listdir(work):
        os.unlink(os.path.join(work, f))

    def limits():
        os.setpgrp()
        resource.setrlimit(resource.RLIMIT_CPU, (int(timeout) + 1, int(timeout) + 2))
        if run.address_limit:
            resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT_KIB * 1024,) * 2)

    stdin = open(run.stdin, 'rb') if run.stdin else subprocess.DEVNULL
    with open(out_path, 'wb') as out:
        start = time.monotonic()
        p = subprocess.Popen(argv, stdin=stdin, stdout=out, stderr=subprocess.DEVNULL,
                             preexec_fn=limits)
        timed_out = False
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > WALL_FACTOR * timeout:
                timed_out = True
                os.killpg(p.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(p.pid, 0)
                break
            time.sleep(0.005)
        wall = time.monotonic() - start
    if run.stdin:
        stdin.close()
    # RLIMIT_CPU's soft limit ends the run with SIGXCPU (or SIGKILL at the hard limit).
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        timed_out = True
    output = os.path.getsize(out_path)
    if os.path.exists(os.path.join(work, 'out')):
        output += os.path.getsize(os.path.join(work, 'out'))
    with open(out_path, 'rb') as f:
        f.seek(max(0, os.path.getsize(out_path) - 300))
        tail = f.read()
    return {
        'exit': os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        'signal': os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        'timeout': timed_out, 'wall': wall, 'cpu': usage.ru_utime + usage.ru_stime,
        'rss': usage.ru_maxrss * 1024, 'output': output, 'tail': tail,
    }


def error_of(m):
    """(code, offset, path) of the last error JSON on stdout, or None."""
    found = re.findall(rb'"error": "([^"]+)", "offset": (\d+), "path": "([^"]*)"', m['tail'])
    return found[-1] if found else None


def check(run, m, input_size):
    problems = []
    if m['timeout']:
        problems.append('timed out')
    elif m['signal'] is not None:
        problems.append('killed by signal %d' % m['signal'])
    elif m['exit'] not in run.exits:
        problems.append('exit %s, expected one of %s' % (m['exit'], list(run.exits)))
    if m['cpu'] > run.cpu:
        problems.append('CPU %.1f s > %.1f s' % (m['cpu'], run.cpu))
    if (input_size <= 8 * MIB or run.rss != RSS_GOAL) and m['rss'] > run.rss and \
            not run.address_limit:
        problems.append('peak RSS %.0f MiB > %.0f MiB' % (m['rss'] / MIB, run.rss / MIB))
    bound = CAPPED_OUTPUT if run.capped else dump_bound(input_size)
    if m['output'] > bound:
        problems.append('output %d bytes > %d' % (m['output'], bound))
    if run.stdout_err and m['exit'] == 1:
        if ('"error": "%s"' % run.stdout_err).encode() not in m['tail']:
            problems.append('stdout does not end with the error %s: %r' % (run.stdout_err,
                                                                            m['tail'][-120:]))
    return problems


def quick_runs(d):
    """The default CTest set: each class of hostile input on the commands it concerns."""
    b = lambda n: os.path.join(d, n)
    R = []
    for name in ('rkc_zero_clips_8.rkc', 'rkc_zero_clips_32.rkc', 'rkc_late_reject.rkc',
                 'rkc_frame_clips_64.rkc', 'rkc_key_clips_4.rkc'):
        R.append(Run('inflate', name, ['dump', b(name)], exits=(1,)))
        # validate reports the very error dump does: code, offset and path (the same clip).
        R.append(Run('inflate', name, ['validate', '--json', b(name)], exits=(1,), like=R[-1],
                     same_error=True))
    # An endless stdin stops at the 1 GiB input limit (exit 3), holding it once.
    R.append(Run('abort', '/dev/zero', ['dump', '-'], stdin='/dev/zero', exits=(3,),
                 rss=STDIN_RSS))
    R.append(Run('abort', '/dev/zero', ['compile', '-', '@OUT'], stdin='/dev/zero',
                 exits=(3,), capped=True, rss=STDIN_RSS))
    R.append(Run('abort', '/dev/zero', ['dump', '-'], stdin='/dev/zero', exits=(1, 3),
                 address_limit=True))
    R.append(Run('abort', 'vfp_checker_128.vfp', ['mesh', '--format', 'obj', '-o', '@OUT',
                                                  b('vfp_checker_128.vfp')],
                 capped=True, address_limit=True, exits=(0, 1)))
    R.append(Run('abort', 'rkc_bones_65536.rkc', ['info', b('rkc_bones_65536.rkc')],
                 address_limit=True, exits=(0,)))
    for name in ('rkc_zero_bones_clip.rkc', 'rkc_zero_bones_8clips.rkc', 'rkc_bones_65536.rkc',
                 'rkc_dup_chunks_1m.rkc', 'kv6_217k.kv6'):
        R.append(Run('info', name, ['dump', b(name)]))
        R.append(Run('info', name, ['info', b(name)], exits=(0,), like=R[-1]))
    ck, rig = b('vfp_checker_128.vfp'), b('vfp_checker_rig_128.vfp')
    for fmt in ('obj', 'json', 'glb', 'gltf'):
        R.append(Run('output', 'vfp_checker_128.vfp',
                     ['mesh', '--format', fmt, '-o', '@OUT', ck], capped=True, exits=(0, 1)))
    R.append(Run('output', 'vfp_checker_128.vfp', ['mesh', '--format', 'obj', '--max-output',
                                                   '1000000', '-o', '@OUT', ck],
                 capped=True, exits=(1,), stdout_err='limit.output'))
    R.append(Run('output', 'vfp_checker_rig_128.vfp',
                 ['pose', '--clip', '1', '--t', '500', '--format', 'obj', '-o', '@OUT', rig],
                 capped=True, exits=(0, 1)))
    R.append(Run('output', 'vfp_checker_rig_128.vfp', ['export-gltf', '-o', '@OUT', rig],
                 capped=True, exits=(0, 1)))
    # Outputs under the cap are written as a stream: memory stays near the quads (22 MB here),
    # not the text (177 MB of OBJ, 149 MB of .gltf).
    ck64 = b('vfp_checker_64.vfp')
    R.append(Run('output', 'vfp_checker_64.vfp', ['mesh', '--format', 'obj', '-o', '@OUT', ck64],
                 capped=True, exits=(0,), rss=96 * MIB))
    R.append(Run('output', 'vfp_checker_64.vfp', ['mesh', '--format', 'gltf', '-o', '@OUT', ck64],
                 capped=True, exits=(0,), rss=192 * MIB))
    R.append(Run('output', 'rkc_mesh_names.rkc', ['mesh', '--format', 'obj', '-o', '@OUT',
                                                  b('rkc_mesh_names.rkc')],
                 capped=True, exits=(0,), cpu=2.0))
    R.append(Run('output', 'vfp_joint_confetti.vfp', ['mesh', '--format', 'json', '-o', '@OUT',
                                                      b('vfp_joint_confetti.vfp')],
                 capped=True, exits=(0, 1)))
    R.append(Run('output', 'compile_4096.json', ['compile', b('compile_4096.json'), '@OUT'],
                 capped=True, exits=(1,), stdout_err='limit.output'))
    R.append(Run('output', 'compile_flat_8m.json',
                 ['compile', b('compile_flat_8m.json'), '@OUT'], capped=True, exits=(1,)))
    R.append(Run('output', 'compile_flat_20m.json',
                 ['compile', b('compile_flat_20m.json'), '@OUT'], capped=True, exits=(1,),
                 stdout_err='json.limit'))
    R.append(Run('output', 'compile_nul.json', ['compile', b('compile_nul.json'), '@OUT'],
                 capped=True, exits=(1,), stdout_err='json.syntax'))
    return R


FILE_COMMANDS = [
    ['dump', '@IN'], ['validate', '@IN'], ['info', '@IN'], ['info', '--json', '@IN'],
    ['roundtrip', '@IN', '@OUT'], ['canonicalize', '@IN', '@OUT'],
    ['mesh', '--format', 'obj', '-o', '@OUT', '@IN'], ['mesh', '--format', 'json', '@IN'],
    ['mesh', '--format', 'gltf', '-o', '@OUT', '@IN'],
    ['pose', '--clip', '1', '--t', '500', '@IN'],
    ['pose', '--clip', '1', '--t', '500', '--format', 'obj', '@IN'],
    ['export-gltf', '-o', '@OUT', '@IN'], ['compile', '@IN', '@OUT'],
]
CAPPED = ('mesh', 'pose', 'export-gltf', 'compile')


def full_runs(d, bombs):
    R = []
    for name in bombs.BOMBS:
        for argv in FILE_COMMANDS:
            a = [os.path.join(d, name) if x == '@IN' else x for x in argv]
            for limited in (False, True):
                R.append(Run(bombs.BOMBS[name][0], name, a, capped=argv[0] in CAPPED,
                             address_limit=limited))
    for src in ('/dev/zero', '/dev/urandom'):
        for argv in (['dump', '-'], ['validate', '-'], ['info', '-'], ['compile', '-', '@OUT']):
            for limited in (False, True):
                R.append(Run('stdin', src, argv, stdin=src, exits=(1, 3), capped=True,
                             address_limit=limited, rss=STDIN_RSS))
    return R


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    voxrig, src = args[0], args[1]
    opts = args[2:]
    which = opts[opts.index('--set') + 1] if '--set' in opts else 'quick'
    timeout = float(opts[opts.index('--timeout') + 1]) if '--timeout' in opts else 30.0
    do_check = '--no-check' not in opts
    bombs = load_bombs(src)
    with tempfile.TemporaryDirectory(prefix='voxrig-hostile-') as tmp:
        d = os.path.join(tmp, 'bombs')
        os.makedirs(d)
        if which == 'full':
            runs = full_runs(d, bombs)
        else:
            runs = [r for r in quick_runs(d) if which == 'quick' or r.cls == which]
        # Written by a child process: the bombs' bytes must not sit in this process, whose
        # pages a forked child carries until it execs (they would count in its peak RSS).
        needed = sorted({r.name for r in runs if not r.name.startswith('/dev/')})
        subprocess.run([sys.executable, os.path.join(src, 'scripts', 'make-bombs.py'), d] + needed,
                       check=True, stdout=subprocess.DEVNULL)
        work = os.path.join(tmp, 'work')
        os.makedirs(work)
        failures, rows, measured = [], [], {}
        for r in runs:
            m = measure(voxrig, r, work, timeout)
            measured[id(r)] = m
            size = 0 if r.name.startswith('/dev/') else os.path.getsize(os.path.join(d, r.name))
            problems = check(r, m, size) if do_check else []
            if do_check and r.like is not None:
                ref = measured[id(r.like)]
                if m['rss'] > 2 * ref['rss'] + 32 * MIB:
                    problems.append('peak RSS %.0f MiB > 2 x %.0f MiB + 32 MiB' % (
                        m['rss'] / MIB, ref['rss'] / MIB))
                if m['cpu'] > 2 * ref['cpu'] + 1.0:
                    problems.append('CPU %.2f s > 2 x %.2f s + 1 s' % (m['cpu'], ref['cpu']))
                if r.same_error and error_of(m) != error_of(ref):
                    problems.append('error %s, but %s' % (error_of(m), error_of(ref)))
            cmd = ' '.join(a if not a.startswith(d) else os.path.basename(a) for a in r.argv)
            cmd = cmd.replace('@OUT', 'OUT')
            if r.stdin:
                cmd += ' < ' + r.stdin
            if r.address_limit:
                cmd = '(ulimit -v 400000) ' + cmd
            status = ('timeout' if m['timeout'] else 'signal %d' % m['signal']
                      if m['signal'] is not None else 'exit %d' % m['exit'])
            rows.append((r.cls, cmd, size, status, m['cpu'], m['wall'], m['rss'], m['output']))
            line = '%-8s %-70s %s cpu %.2f s rss %.0f MiB out %d' % (
                r.cls, cmd[:70], status, m['cpu'], m['rss'] / MIB, m['output'])
            print(('FAIL ' if problems else 'ok   ') + line + (
                ': ' + '; '.join(problems) if problems else ''), flush=True)
            if problems:
                failures.append(cmd)
        if '--table' in opts:
            print('\n| class | run | input bytes | result | CPU s | wall s | peak RSS MiB | '
                  'output bytes |\n|---|---|---|---|---|---|---|---|')
            for c, cmd, size, status, cpu, wall, rss, out in rows:
                print('| %s | `%s` | %d | %s | %.2f | %.2f | %.0f | %d |' % (
                    c, cmd, size, status, cpu, wall, rss / MIB, out))
        print('%d run(s), %d failed' % (len(runs), len(failures)))
        return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
