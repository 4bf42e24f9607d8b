#!/usr/bin/env python3
"""Out-of-memory sweep of whole CLI commands (docs/robustness.md "Out-of-memory testing").

Runs every file-taking command (and the ones without files) through voxrig_oom_cli, the CLI
linked with the counting allocator: once to count the main thread's allocations (A), then again
with allocation N failing. Every failed run must end like the unfailed one (same exit, stdout
and output file: the failure was absorbed, e.g. by OpenSSL) or with exit 1 and
internal.out_of_memory on stdout; a signal (an abort is exit 134), a timeout, another exit code
or a different output is a FINDING.

  oom_cli_sweep.py VOXRIG_OOM_CLI SOURCE_DIR [--full] [--filter TEXT]

Default (CTest oom_sweep_cli_sampled): N = 1, 2, A/8, A/4, A/2, 3A/4, A-2, A-1, A and A+1 per
run (under a minute).
--full: every N from 1 to A+1 (scripts/oom-sweep.sh --cli; minutes). --filter runs only the
command lines containing TEXT. Exit 0 clean, 1 findings, 2 usage.
"""
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT = 60
OOM = b'internal.out_of_memory'


def runs(src, bombs_dir):
    g = lambda p: os.path.join(src, 'golden', 'files', p)
    b = lambda p: os.path.join(bombs_dir, p)
    vfp, rkc, kv6 = g('vfp/realistic/character.vfp'), g('rkc/golem.rkc'), g('kv6/cube.kv6')
    files = [vfp, rkc, g('rkc/embedded/rvc_v1.rkc'), kv6, g('rvc/frames/delta_twice.rvc'),
             g('kfa/minimal.kfa'), g('rvc/deflate/cut_stream.rvc'), g('kfa/parent_range.kfa'),
             g('unknown/empty.bin') if os.path.exists(g('unknown/empty.bin')) else None,
             b('rkc_zero_bones_clip.rkc')]
    R = []
    for f in filter(None, files):
        for argv in (['dump', f], ['validate', f], ['validate', '--json', f], ['info', f],
                     ['info', '--json', f], ['roundtrip', f, '@OUT'],
                     ['canonicalize', f, '@OUT']):
            R.append((argv, None))
    for fmt in ('json', 'obj', 'glb', 'gltf'):
        R.append((['mesh', '--format', fmt, '-o', '@OUT', vfp], None))
    for f in (rkc, kv6):
        for fmt in ('json', 'obj'):
            R.append((['mesh', '--format', fmt, '-o', '@OUT', f], None))
    R.append((['mesh', '--format', 'obj', '--max-output', '2000', '-o', '@OUT', vfp], None))
    R += [(['pose', '--clip', '0', '--t', '250', vfp], None),
          (['pose', '--clip', '0', '--t', '250', '--format', 'obj', '-o', '@OUT', vfp], None),
          (['pose', '--clip', '0', '--t', '250', rkc], None),
          (['export-gltf', '-o', '@OUT', vfp], None),
          (['export-gltf', '--format', 'gltf', '-o', '@OUT', vfp], None),
          (['compile', g('compile/model_character.json'), '@OUT'], None),
          (['compile', g('compile/duplicate_key.json'), '@OUT'], None),
          (['compile', b('compile_nul.json'), '@OUT'], None),
          (['compile', '-', '@OUT'], g('compile/model_character.json')),
          (['dump', '-'], rkc),
          (['golden', 'fields', rkc], None),
          (['limits'], None), (['errors'], None), (['errors', 'rvc.limit.inflated_total'], None)]
    return R


def run(tool, argv, stdin, work, env_extra):
    for f in os.listdir(work):
        os.unlink(os.path.join(work, f))
    out = os.path.join(work, 'out')
    cmd = [tool] + [out if a == '@OUT' else a for a in argv]
    env = dict(os.environ, VOXRIG_COUNT_ALLOCATIONS='1', **env_extra)
    # Leak checking is the asan sweep's business; here a failed run only has to end cleanly.
    env.setdefault('ASAN_OPTIONS', 'detect_leaks=0')
    with open(stdin, 'rb') if stdin else open(os.devnull, 'rb') as i:
        try:
            p = subprocess.run(cmd, stdin=i, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return None
    m = re.search(rb'voxrig-oom: allocations (\d+) injected (\d)', p.stderr)
    output = open(out, 'rb').read() if os.path.exists(out) else None
    return {'rc': p.returncode, 'stdout': p.stdout, 'stderr': p.stderr, 'output': output,
            'allocations': int(m.group(1)) if m else None,
            'injected': m is not None and m.group(2) == b'1'}


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    tool, src = args[0], args[1]
    full = '--full' in args
    only = args[args.index('--filter') + 1] if '--filter' in args else None
    spec = importlib.util.spec_from_file_location(
        'make_bombs', os.path.join(src, 'scripts', 'make-bombs.py'))
    bombs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bombs)
    findings, total_runs, injected_runs = [], 0, 0
    with tempfile.TemporaryDirectory(prefix='voxrig-oom-cli-') as tmp:
        bombs_dir = os.path.join(tmp, 'bombs')
        os.makedirs(bombs_dir)
        for name in ('rkc_zero_bones_clip.rkc', 'compile_nul.json'):
            with open(os.path.join(bombs_dir, name), 'wb') as f:
                f.write(bombs.BOMBS[name][1]())
        work = os.path.join(tmp, 'work')
        os.makedirs(work)
        first = True
        for argv, stdin in runs(src, bombs_dir):
            line = ' '.join(os.path.relpath(a, src) if a.startswith(src) else
                            os.path.basename(a) if a.startswith(tmp) else a for a in argv)
            if stdin:
                line += ' < ' + os.path.relpath(stdin, src)
            if only and only not in line:
                continue
            base = run(tool, argv, stdin, work, {})
            if base is None or base['allocations'] is None or base['rc'] > 4:
                findings.append('%s: the unfailed run did not finish cleanly' % line)
                print('FINDING', findings[-1], flush=True)
                continue
            a = base['allocations']
            # Sampled: both ends (a command's own first and last allocations: reading, writing)
            # and a spread between (OpenSSL's first digest makes thousands of allocations, most
            # of whose failures it absorbs).
            # The first command also fails each of its first 64 allocations: a process's
            # one-time set-up (OpenSSL builds its default context in the first digest, and a
            # failure there once left a half-built context that crashed the next digest).
            start_up = set(range(1, min(a, 64) + 1)) if first else set()
            ns = range(1, a + 2) if full else sorted(
                {max(1, n) for n in (1, 2, a // 8, a // 4, a // 2, 3 * a // 4, a - 2, a - 1, a,
                                     a + 1)} | start_up)
            first = False
            counts = {'oom': 0, 'same': 0}
            for n in ns:
                r = run(tool, argv, stdin, work, {'VOXRIG_FAIL_ALLOCATION': str(n)})
                total_runs += 1
                problem = None
                if r is None:
                    problem = 'timed out'
                elif r['rc'] < 0 or r['rc'] > 4:
                    problem = 'exit %d (signal or abort)' % r['rc']
                elif r['injected'] and r['rc'] == 1 and OOM in r['stdout']:
                    counts['oom'] += 1
                elif (r['rc'], r['stdout'], r['output']) == (base['rc'], base['stdout'],
                                                             base['output']):
                    counts['same'] += 1
                else:
                    problem = 'exit %d, %s, stdout %r' % (
                        r['rc'], 'failure injected' if r['injected'] else 'no failure injected',
                        r['stdout'][-160:])
                if r is not None and r['injected']:
                    injected_runs += 1
                if problem:
                    findings.append('%s with allocation %d of %d failing: %s' % (line, n, a,
                                                                                problem))
                    print('FINDING', findings[-1], flush=True)
            print('ok   %-70s %6d allocations: %d runs, %d out_of_memory, %d unaffected' % (
                line[:70], a, len(ns), counts['oom'], counts['same']), flush=True)
    print('%d failed runs (%d with the failure injected), %d findings' % (
        total_runs, injected_runs, len(findings)))
    return 1 if findings else 0


if __name__ == '__main__':
    sys.exit(main())
