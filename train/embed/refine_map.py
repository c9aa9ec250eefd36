"""Refines the goal-embedding table by a learnt linear map instead of its rows (issue 37 item 2, route i):
the goal's summed rows g become M g before the cosines (the core multiplies once per goal); elements keep
the teacher's rows, so no token can forget its meaning. With --sides both an element map B is learnt too
(every text becomes B e and the goal M B g: B is written into the rows, B row, so the core's cost is the
same one mat-vec per goal).
Same data, loss and early stop as refine.py (its Data, held-out train sites, real goals x REAL_WEIGHT):
score = base model without EMB terms + w . cos(M g, e) per view; loss = in-page softmax cross-entropy
+ L2 * ||M - I||^2 (and ||B - I||^2). Full batch, Adam from the identity, early stop on held-out MRR.
Writes OUT/goal-embed.bin: the start table's bytes with the map appended (an SLGM trailer: u32 dim, dim x dim
f32, row-major) and OUT/goal-embed.json (the start record plus a `goal_map` block). Measured, not shipped
(results/refine-trust.md): the core and door that read the trailer are commit 834c67f, reverted after it;
cherry-pick it to measure a map table (measure-fixtures.sh).
Run: OMP_NUM_THREADS=1 train/.venv/bin/python train/embed/refine_map.py --out DIR [--l2 X] [--lr X] ...
Deterministic: no random draws; one thread."""
import argparse
import hashlib
import json
import struct
import time
from pathlib import Path

import numpy as np

from refine import HERE, Data, Fit, quantise, read_table, unit, unit_grad

MAP_MAGIC = b'SLGM'


def goal_rows(data):
    """Index of each page's goal texts among the distinct goal texts, and those texts' ids."""
    ids = np.unique(np.concatenate([p['goal_texts'] for p in data.pages]))
    pos = {int(t): i for i, t in enumerate(ids)}
    for p in data.pages:
        p['goal_rows'] = np.array([pos[int(t)] for t in p['goal_texts']])
    return ids


def step(data, U, gids, M, B, w, real_weight, train_w):
    """Loss and gradients (M, B or None, weights) over the fitted goals; held-out MRR/R@1/R@10."""
    X = U @ B.T if B is not None else U
    G = X[gids]  # with an element map, the goal's vector is M B g: both sides share B (exportable as rows)
    V = G @ M.T
    Vh, vn, vsafe = unit(V)
    Xh, xn, xsafe = unit(X)
    dVh, dXh = np.zeros_like(V), np.zeros_like(X)
    fit = Fit()
    for p in data.pages:
        S, Q = Xh[p['texts']], Vh[p['goal_rows']]
        dC = fit.page(S @ Q.T, p['goals'], w, real_weight, train_w)
        np.add.at(dVh, p['goal_rows'], dC.T @ S)
        if B is not None:
            dXh[p['texts']] += dC @ Q
    dV = unit_grad(dVh, Vh, vn, vsafe)
    dM = dV.T @ G
    dB = None
    if B is not None:
        dB = unit_grad(dXh, Xh, xn, xsafe).T @ U + (dV @ M).T @ U[gids]
    return fit.loss / fit.total, dM / fit.total, None if dB is None else dB / fit.total, fit.dw / fit.total, fit.held()


class Adam:
    def __init__(self, shape, lr):
        self.m, self.v, self.lr = np.zeros(shape), np.zeros(shape), lr

    def __call__(self, x, g, t):
        self.m = 0.9 * self.m + 0.1 * g
        self.v = 0.999 * self.v + 0.001 * g * g
        x -= self.lr * (self.m / (1 - 0.9 ** t)) / (np.sqrt(self.v / (1 - 0.999 ** t)) + 1e-8)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tokens', default=str(HERE / '.cache' / 'tokens.json'))
    ap.add_argument('--table', default=str(HERE / '.cache' / 'distilled' / 'goal-embed.bin'), help='the start table (table.py --out)')
    ap.add_argument('--out', required=True)
    ap.add_argument('--log', default=None)
    ap.add_argument('--sides', choices=['goal', 'both'], default='goal')
    ap.add_argument('--l2', type=float, default=1e-2, help='pull toward the identity (squared Frobenius)')
    ap.add_argument('--lr', type=float, default=0.005)
    ap.add_argument('--epochs', type=int, default=80)
    ap.add_argument('--patience', type=int, default=10)
    ap.add_argument('--held', type=float, default=0.2)
    ap.add_argument('--real-weight', type=float, default=2.0)
    ap.add_argument('--no-templates', action='store_true')
    ap.add_argument('--fixed-weights', action='store_true')
    opts = ap.parse_args()
    t0 = time.time()
    data = Data(opts.tokens, opts.held, not opts.no_templates)
    header, E0 = read_table(opts.table)
    U = data.sums(E0)
    gids = goal_rows(data)
    dim = E0.shape[1]
    M = np.eye(dim)
    B = np.eye(dim) if opts.sides == 'both' else None
    w = data.w0.copy()
    om, ob, ow = Adam(M.shape, opts.lr), Adam((dim, dim), opts.lr), Adam(3, opts.lr)
    best, history = None, []
    for epoch in range(opts.epochs + 1):
        loss, dM, dB, dw, held = step(data, U, gids, M, B, w, opts.real_weight, not opts.fixed_weights)
        reg = opts.l2 * (((M - np.eye(dim)) ** 2).sum() + (0 if B is None else ((B - np.eye(dim)) ** 2).sum()))
        history.append({'epoch': epoch, 'loss': round(loss, 5), 'reg': round(reg, 5), **{k: round(x, 4) for k, x in held.items()},
                        'w': [round(x, 4) for x in w], 'moved': round(float(np.abs(M - np.eye(dim)).sum()), 3)})
        print(json.dumps(history[-1]), f'{time.time() - t0:.0f} s', flush=True)
        if best is None or held['mrr'] > best['mrr']:
            best = {'epoch': epoch, 'mrr': held['mrr'], 'r1': held['r1'], 'r10': held['r10'], 'M': M.copy(), 'B': None if B is None else B.copy(), 'w': w.copy()}
        elif epoch - best['epoch'] >= opts.patience:
            break
        if epoch == opts.epochs:
            break
        t = epoch + 1
        om(M, dM + 2 * opts.l2 * (M - np.eye(dim)), t)
        if B is not None:
            ob(B, dB + 2 * opts.l2 * (B - np.eye(dim)), t)
        if not opts.fixed_weights:
            ow(w, dw, t)
    out_dir = Path(opts.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    np.save(out_dir / 'goal-map.npy', best['M'])
    if best['B'] is not None:
        np.save(out_dir / 'element-map.npy', best['B'])
    out = out_dir / 'goal-embed.bin'
    table_bytes, goal_map_m = Path(opts.table).read_bytes(), best['M']
    if best['B'] is not None:
        # cos(M B g, B e) at the goal-only cost: every row becomes B row (requantised as table.py), so an
        # element's sum is B e and the goal's B g, which the goal map M takes to M B g.
        scale, q = quantise(E0 @ best['B'].T)
        q[np.abs(E0).sum(1) == 0] = 0
        table_bytes = header + scale.astype('<f4').tobytes() + q.tobytes()
    out.write_bytes(table_bytes + MAP_MAGIC + struct.pack('<I', dim) + goal_map_m.astype('<f4').tobytes())
    sha = lambda p: hashlib.sha256(Path(p).read_bytes()).hexdigest()  # noqa: E731
    goal_map = {
        'recipe': 'train/embed/refine_map.py: a 128x128 map M on the goal\'s summed rows (cos(M g, e)), from the identity, and the '
                  'three EMB weights, fitted by full-batch Adam on the in-page softmax cross-entropy of each goal\'s targets '
                  '(score = base model without EMB terms, train/embed/refine-base.json, + w . cosines), real goals x REAL_WEIGHT, '
                  'template goals x 1, + L2 x ||M - I||^2; early stop on held-out MRR; written as f32 after the rows (SLGM trailer)',
        'data': f'real goal set TRAIN split ({data.n_fit_real} goals fitted, {data.n_held} held out on {data.n_held_sites} train '
                f'sites chosen by sha256("refine:" + site)) and {data.n_fit_template} template goals; no dev or test goal is read',
        'options': {k: x for k, x in vars(opts).items() if k not in ('out', 'log', 'tokens', 'table')},
        'start_table_sha256': sha(opts.table), 'tokens_json_sha256': sha(opts.tokens), 'base_model_sha256': sha(HERE / 'refine-base.json'),
        'best_epoch': best['epoch'],
        'held_out_mrr_r1_r10': [round(history[0][k], 4) for k in ('mrr', 'r1', 'r10')] + ['->'] + [round(best[k], 4) for k in ('mrr', 'r1', 'r10')],
        'emb_weights': [round(x, 4) for x in data.w0] + ['->'] + [round(x, 4) for x in best['w']],
        'distance_from_identity': round(float(np.linalg.norm(best['M'] - np.eye(dim))), 4),
        'seeds': 'none: no random draws (full batch, Adam from the identity, held-out sites by hash)',
    }
    start_record = Path(opts.table).with_name('goal-embed.json')
    record = json.loads(start_record.read_text()) if start_record.exists() else {}
    record.update({'file': out.name, 'sha256': sha(out), 'bytes': out.stat().st_size, 'goal_map': goal_map})
    (out_dir / 'goal-embed.json').write_text(json.dumps(record, indent=1) + '\n')
    (out_dir / 'fitted-sites.json').write_text(json.dumps(data.fitted_sites) + '\n')
    if opts.log:
        Path(opts.log).write_text(json.dumps({'goal_map': goal_map, 'seconds': round(time.time() - t0), 'history': history}, indent=1) + '\n')
    print(f'{out}: best epoch {best["epoch"]}, held-out MRR {history[0]["mrr"]:.4f} -> {best["mrr"]:.4f}, '
          f'R@1 {history[0]["r1"]:.4f} -> {best["r1"]:.4f}; |M - I| {goal_map["distance_from_identity"]}; {time.time() - t0:.0f} s')


if __name__ == '__main__':
    main()
