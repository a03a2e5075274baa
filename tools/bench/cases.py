"""cases.py -- the performance record (make bench): every case of the
corpus at several digit counts, the engine's phase shares from
summary.json, python3-mpmath's odefun on the pure-ODE cases, and how the
cost grows with the digits.

  /usr/bin/python3 tools/bench/cases.py [--hdo build/hdo] [--digits 30 60 100]
      [--timeout 120] [--mpmath-timeout 900] [--csv build/bench/bench.csv]
      [--work build/bench/runs] [CASE.hdae ...]     (default cases/*.hdae)

Per case and digit count D: `hdo run CASE -d D` under a time limit
(--timeout seconds, the process killed after it); a run that fails shows
its status and the first line of its message, a run that times out shows
"timeout", and the higher digit counts of a case that timed out are not
tried (status "skipped", with the reason) -- nothing is left out of the
table.  Columns:

  wall_s     hdo_run's wall time (summary.json timing.total_s)
  cpu_s      hdo_run's CPU time (timing.cpu_s): the figure the fit and the
             ratio use, since on a loaded machine wall time measures the
             neighbours
  proc_s     CPU time of the whole `hdo run` process (start, parsing and
             writing the outputs included; also for failed runs)
  steps, order, events   summary.json's steps, average_order, events
  integ% events% reduce% reinit%   the phase shares of timing.total_s
             (decisions.md D-050: what each phase covers); the rest is setup
  mp_cpu_s   mpmath.odefun on the same ODE and interval at D digits (CPU)
  ratio      mp_cpu_s / cpu_s
  note       why a run failed (hdo's first message line), was killed or
             skipped; "pending.txt;" marks a case listed there as known to
             fail
  agree      significant digits on which hdo's final row and mpmath's
             values at t_end agree (a check that both solved the same
             problem; "all" when they agree to the last digit)

Then per case the exponent b of cpu_s ~ a D^b: the least-squares slope of
log(cpu_s) against log(D) over the successful digit counts (at least
two), for hdo and for mpmath.

Timing differs from run to run and machine to machine: the table is a
record of one run, not a test.
"""
import argparse
import csv
import glob
import json
import math
import os
import resource
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


# The pure-ODE cases whose whole run is one ODE on a single arc (mode
# changes, if any, do not change the right-hand side): the same problem
# for mpmath.odefun.  Each entry: the model variables compared, in the
# order of y, and a function of mpmath giving (f(t, y), y0, t0, t_end).
# The agree column checks that these stay the problem of the case file.
def _pendulum_angle(mp):
    g, L = mp.mpf('9.8'), mp.mpf(1)
    return (lambda t, y: [y[1], -g / L * mp.sin(y[0])],
            [mp.pi / 2, mp.mpf(0)], 0, 3)


def _km_energy(mp):
    m, g, L = mp.mpf(1), mp.mpf('9.81'), mp.mpf(1)
    return (lambda t, y: [-m * g * L * mp.sin(y[1]), y[0] / m],
            [mp.mpf(0), mp.mpf(1)], 0, 10)


MPMATH_CASES = {
    'pendulum_angle': (['th', 'om'], _pendulum_angle),
    'km_energy': (['p', 'q'], _km_energy),
}


def mpmath_child(name, digits):
    """Runs in a child process: prints CPU seconds and the values."""
    import mpmath
    mpmath.mp.dps = digits
    _, problem = MPMATH_CASES[name]
    f, y0, t0, t1 = problem(mpmath)
    start = time.process_time()
    sol = mpmath.odefun(f, t0, y0)
    y = sol(t1)
    secs = time.process_time() - start
    print(json.dumps({'cpu_s': secs,
                      'values': [mpmath.nstr(v, digits + 5) for v in y]}))


def run_child(cmd, timeout):
    """Runs cmd with a time limit.  Returns (status, rc, cpu seconds,
    stdout, stderr); status is 'ok', 'failed' or 'timeout'."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        status = 'ok' if proc.returncode == 0 else 'failed'
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        status = 'timeout'
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                before.ru_stime)
    return status, proc.returncode, cpu, out, err


def fit_exponent(points):
    """Least-squares slope of log(y) against log(x); None if < 2 points."""
    pts = [(math.log(x), math.log(y)) for x, y in points if y > 0]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in pts)
    return sxy / sxx if sxx > 0 else None


def final_values(traj, names):
    """The last row's values of the named variables (trajectory.csv)."""
    with open(traj) as f:
        rows = list(csv.reader(f))
    head, last = rows[0], rows[-1]
    return [last[head.index(n)] for n in names]


def agreement(a, b, digits):
    """Significant digits on which two lists of decimal strings agree,
    relative to max(1, |b|) per entry (the smallest over entries)."""
    import mpmath
    mpmath.mp.dps = digits + 20
    worst = None
    for x, y in zip(a, b):
        x, y = mpmath.mpf(x), mpmath.mpf(y)
        d = abs(x - y) / max(1, abs(y))
        dig = digits if d == 0 else min(digits, int(-mpmath.log10(d)))
        worst = dig if worst is None else min(worst, dig)
    return worst


def bench_case(path, digits, args, work):
    name = os.path.splitext(os.path.basename(path))[0]
    rows = []
    timed_out_at = None
    for d in digits:
        row = {'case': name, 'digits': d}
        rows.append(row)
        if timed_out_at is not None:
            row['status'] = 'skipped'
            row['note'] = 'timed out at %d digits' % timed_out_at
            print_row(row)
            continue
        out = os.path.join(work, '%s_d%d' % (name, d))
        cmd = [args.hdo, 'run', path, '-d', str(d), '-o', out]
        status, rc, cpu, _, err = run_child(cmd, args.timeout)
        row['status'] = status
        row['proc_s'] = cpu
        if status == 'timeout':
            timed_out_at = d
            row['note'] = 'killed after %g s' % args.timeout
        elif status == 'failed':
            msg = (err.strip().splitlines() or ['?'])[0]
            row['note'] = 'exit %d: %s' % (rc, msg[:100])
        else:
            with open(os.path.join(out, 'summary.json')) as f:
                s = json.load(f)
            tm = s['timing']
            total = tm['total_s']
            row.update(wall_s=total, cpu_s=tm['cpu_s'], steps=s['steps'],
                       events=s['events'], order=s['average_order'])
            for key in ('integration', 'events', 'reduction', 'reinit'):
                row[key + '_pct'] = (100 * tm[key + '_s'] / total
                                     if total > 0 else 0.0)
        if name in args.pending_names and status != 'ok':
            row['note'] = 'pending.txt; ' + row.get('note', '')
        if name in MPMATH_CASES and not args.no_mpmath:
            mcmd = [sys.executable, os.path.abspath(__file__),
                    '--mpmath-child', name, str(d)]
            mst, _, _, mout, merr = run_child(mcmd, args.mpmath_timeout)
            if mst == 'ok':
                m = json.loads(mout)
                row['mp_cpu_s'] = m['cpu_s']
                if row['status'] == 'ok' and row['cpu_s'] > 0:
                    row['ratio'] = m['cpu_s'] / row['cpu_s']
                    hv = final_values(os.path.join(out, 'trajectory.csv'),
                                      MPMATH_CASES[name][0])
                    a = agreement(hv, m['values'], d)
                    row['agree'] = 'all' if a >= d else str(a)
            else:
                row['mp_cpu_s'] = mst  # 'timeout' or 'failed'
        print_row(row)
    return rows


COLUMNS = [  # key, header, width, format
    ('case', 'case', 22, '%s'), ('digits', 'D', 4, '%d'),
    ('status', 'status', 8, '%s'), ('wall_s', 'wall_s', 9, '%.3f'),
    ('cpu_s', 'cpu_s', 9, '%.3f'), ('proc_s', 'proc_s', 8, '%.3f'),
    ('steps', 'steps', 7, '%d'),
    ('order', 'order', 6, '%.1f'), ('events', 'events', 7, '%d'),
    ('integration_pct', 'integ%', 7, '%.1f'),
    ('events_pct', 'event%', 7, '%.1f'),
    ('reduction_pct', 'reduce%', 8, '%.1f'),
    ('reinit_pct', 'reinit%', 8, '%.1f'),
    ('mp_cpu_s', 'mp_cpu_s', 9, '%.2f'), ('ratio', 'ratio', 7, '%.0f'),
    ('agree', 'agree', 6, '%s'), ('note', 'note', 0, '%s'),
]


def cell(row, key, fmt):
    v = row.get(key)
    if v is None:
        return '-' if key != 'note' else ''
    if isinstance(v, str):
        return v
    return fmt % v


def print_header():
    print(' '.join(h.rjust(w) if i else h.ljust(w)
                   for i, (_, h, w, _) in enumerate(COLUMNS)).rstrip())
    sys.stdout.flush()


def print_row(row):
    print(' '.join(cell(row, k, f).rjust(w) if i else cell(row, k, f).ljust(w)
                   for i, (k, _, w, f) in enumerate(COLUMNS)).rstrip())
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--hdo', default='build/hdo')
    ap.add_argument('--digits', type=int, nargs='+', default=[30, 60, 100])
    ap.add_argument('--timeout', type=float, default=120)
    ap.add_argument('--mpmath-timeout', type=float, default=900)
    ap.add_argument('--no-mpmath', action='store_true')
    ap.add_argument('--csv', default='build/bench/bench.csv')
    ap.add_argument('--work', default='build/bench/runs')
    ap.add_argument('--pending', default='tests/corpus/pending.txt',
                    help='cases known to fail (their failures are marked)')
    ap.add_argument('--mpmath-child', nargs=2, help=argparse.SUPPRESS)
    ap.add_argument('cases', nargs='*')
    args = ap.parse_args()
    if args.mpmath_child:
        mpmath_child(args.mpmath_child[0], int(args.mpmath_child[1]))
        return 0
    cases = args.cases or sorted(glob.glob('cases/*.hdae'))
    args.pending_names = set()
    if os.path.exists(args.pending):
        with open(args.pending) as f:
            args.pending_names = {ln.split(':')[0].strip() for ln in f
                                  if ':' in ln}
    os.makedirs(args.work, exist_ok=True)
    os.makedirs(os.path.dirname(args.csv) or '.', exist_ok=True)
    print('# hdo performance record: %s, digits %s, timeout %g s per run'
          % (time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
             ' '.join(map(str, args.digits)), args.timeout))
    print_header()
    rows = []
    for path in cases:
        rows += bench_case(path, args.digits, args, args.work)
    with open(args.csv, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow([k for k, _, _, _ in COLUMNS])
        for r in rows:
            w.writerow(['' if r.get(k) is None else
                        (r[k] if isinstance(r[k], str) else
                         (f % r[k]).strip()) for k, _, _, f in COLUMNS])
    print()
    print('# cost growth with the digits: cpu_s ~ D^b, b fitted by least '
          'squares on log(cpu_s) against log(D)')
    fits = []
    for name in dict.fromkeys(r['case'] for r in rows):
        mine = [r for r in rows if r['case'] == name]
        b = fit_exponent([(r['digits'], r['cpu_s']) for r in mine
                          if r['status'] == 'ok'])
        mb = fit_exponent([(r['digits'], r['mp_cpu_s']) for r in mine
                           if isinstance(r.get('mp_cpu_s'), float)])
        line = '%-22s hdo b = %s' % (name, '%.2f' % b if b is not None else
                                     '- (fewer than two successful runs)')
        if mb is not None:
            line += ', mpmath b = %.2f' % mb
        print(line)
        fits.append([name, '' if b is None else '%.3f' % b,
                     '' if mb is None else '%.3f' % mb])
    fit_csv = os.path.splitext(args.csv)[0] + '_exponents.csv'
    with open(fit_csv, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['case', 'hdo_exponent', 'mpmath_exponent'])
        w.writerows(fits)
    print('# table written to %s, exponents to %s' % (args.csv, fit_csv))
    return 0


if __name__ == '__main__':
    sys.exit(main())
