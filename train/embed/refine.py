"""Refines the goal-embedding table's rows on the TRAIN split's goals (issue 37 item 2), in numpy.
Input: train/embed/.cache/tokens.json (dump-tokens.ts: every train goal's and element's token rows exactly
as the core reads them) and the start table (table.py's distilled one, dequantised: int8 x scale). Per
goal, the score of each element of its page is the pinned base model's score (refine-base.json) without
its EMB_* terms (fixed) plus sum_k w_k cos_k (own, link, section: the core's cosines of summed rows, the model's
EMB weights w to start with, learnt beside the rows); the loss is the in-page softmax cross-entropy with
the goal's targets as positives (real goals weigh REAL_WEIGHT, template goals 1, as train/train.ts), plus
L2 * ||row - start row||^2 summed over rows (rare tokens keep the teacher's meaning). Full batch, Adam,
early stop on MRR of a held-out slice of the TRAIN sites (never dev). The best rows are requantised int8
as table.py does (one f32 scale per row, max |x| / 127) and written with their record.
Run: OMP_NUM_THREADS=1 train/.venv/bin/python train/embed/refine.py --table START.bin --out DIR [--log F] [--l2 X] [--lr X] ...
(refine.sh runs the three steps; defaults: lr 0.05, L2 1e-4, held-out 20% of train sites, patience 10).
Deterministic: no randomness beyond the held-out slice (a hash of the site name) and float order."""
import argparse
import hashlib
import json
import struct
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def read_table(path):
    b = Path(path).read_bytes()
    magic, version, size, dim, vocab_bytes = struct.unpack('<4sIIII', b[:20])
    assert magic == b'SLGE' and version == 1, 'an SLGE v1 table'
    at = 20 + vocab_bytes + (-(20 + vocab_bytes)) % 4
    scales = np.frombuffer(b, '<f4', size, at)
    q = np.frombuffer(b, np.int8, size * dim, at + 4 * size).reshape(size, dim)
    return b[:at], q.astype(np.float64) * scales.astype(np.float64)[:, None]


def quantise(x):
    """table.py's int8: one scale per row, max |x| / 127 (float64, written as f32), rounded and clipped."""
    scale = np.abs(x).max(1) / 127
    scale[scale == 0] = 1
    return scale, np.clip(np.round(x / scale[:, None]), -127, 127).astype(np.int8)


def held_out(site, share):
    return int(hashlib.sha256(f'refine:{site}'.encode()).hexdigest()[:8], 16) % 1000 < share * 1000


class Data:
    def __init__(self, path, share, templates):
        d = json.loads(Path(path).read_text())
        texts = d['texts']
        self.w0 = np.array(d['emb_weights'], np.float64)
        lens = np.array([len(t) for t in texts])
        self.owner = np.repeat(np.arange(len(texts)), lens)
        self.tok = np.array([i for t in texts for i in t], np.int64)
        self.n_texts = len(texts)
        self.text_tokens = texts
        pages = {}
        for g in d['goals']:
            if g['source'] == 'template' and not templates:
                continue
            pages.setdefault(g['page'], []).append(g)
        self.pages = []
        real = [g for gs in pages.values() for g in gs if g['source'] == 'real']
        held = [g for g in real if held_out(g['site'], share)]
        self.n_held, self.n_held_sites = len(held), len({g['site'] for g in held})
        self.n_fit_real = len(real) - len(held)
        self.fitted_sites = sorted({g['site'] for g in real} - {g['site'] for g in held})
        self.n_fit_template = sum(len(gs) for gs in pages.values()) - len(real)
        for pid, goals in pages.items():
            views = [np.array(g['views'], np.int64).reshape(-1, 3) for g in goals]
            texts_p, inv = np.unique(np.concatenate([v.ravel() for v in views]), return_inverse=True)
            at, local = 0, []
            for v in views:
                local.append(inv[at:at + v.size].reshape(-1, 3))
                at += v.size
            self.pages.append({
                'texts': texts_p, 'goal_texts': np.array([g['goal'] for g in goals]),
                'goals': [{
                    'views': lv, 'base': np.array(g['base']), 'emb': np.array(g['emb']).reshape(-1, 3),
                    'targets': np.array(g['targets']), 'real': g['source'] == 'real',
                    'held': g['source'] == 'real' and held_out(g['site'], share), 'style': g['style'],
                } for g, lv in zip(goals, local)],
            })

    def sums(self, E):
        """Each text's summed rows (the core's vector; its length cancels in the cosine)."""
        U = np.zeros((self.n_texts, E.shape[1]))
        np.add.at(U, self.owner, E[self.tok])
        return U


def unit(U):
    n = np.linalg.norm(U, axis=1)
    safe = np.where(n > 0, n, 1)
    return U / safe[:, None], n, safe


def goal_use(data, size):
    """How many fitted goals use each token, in the goal's words or a target's three views (--rare-pull)."""
    c = np.zeros(size)
    for p in data.pages:
        for j, g in enumerate(p['goals']):
            if g['held']:
                continue
            texts = {int(p['goal_texts'][j])} | {int(t) for t in p['texts'][g['views'][g['targets']].ravel()]}
            for t in {i for x in texts for i in data.text_tokens[x]}:
                c[t] += 1
    return c


class Fit:
    """One step's running sums over the fitted goals (loss, weight total, the EMB_* weights' gradient) and the
    held-out goals' target ranks: the in-page softmax both refine.py and refine_map.py train with."""

    def __init__(self):
        self.loss = self.total = 0.0
        self.dw = np.zeros(3)
        self.ranks = []

    def page(self, C, goals, w, real_weight, train_w):
        """One page: C holds the cosine of each page text with each of its goals; returns dLoss/dC."""
        dC = np.zeros_like(C)
        for j, g in enumerate(goals):
            cos = C[g['views'], j]
            s = g['base'] + cos @ w
            if g['held']:
                best = s[g['targets']].max()
                self.ranks.append(1 + int((s > best).sum()))
                continue
            weight = real_weight if g['real'] else 1.0
            e = np.exp(s - s.max())
            P = e / e.sum()
            on = P[g['targets']].sum()
            self.loss -= weight * np.log(on)
            self.total += weight
            ds = P.copy()
            ds[g['targets']] -= P[g['targets']] / on
            ds *= weight
            if train_w:
                self.dw += ds @ cos
            np.add.at(dC[:, j], g['views'].ravel(), (ds[:, None] * w[None, :]).ravel())
        return dC

    def held(self):
        ranks = np.array(self.ranks)
        return {'mrr': float((1 / ranks).mean()), 'r1': float((ranks == 1).mean()), 'r10': float((ranks <= 10).mean()), 'n': len(ranks)}


def unit_grad(dXh, Xh, n, safe):
    """The gradient through unit(): from the unit vectors' to the raw vectors' (0 for an empty one)."""
    dX = (dXh - Xh * (Xh * dXh).sum(1, keepdims=True)) / safe[:, None]
    dX[n == 0] = 0
    return dX


def step(data, E, w, real_weight, train_w):
    """Loss and gradients (rows, weights) over the fitted goals; MRR and R@1 of the held-out goals."""
    U = data.sums(E)
    Uh, n, safe = unit(U)
    dUh = np.zeros_like(U)
    fit = Fit()
    for p in data.pages:
        S, Q = Uh[p['texts']], Uh[p['goal_texts']]
        dC = fit.page(S @ Q.T, p['goals'], w, real_weight, train_w)  # cosines: 0 for an empty text or goal
        dUh[p['texts']] += dC @ Q
        dUh[p['goal_texts']] += dC.T @ S
    dU = unit_grad(dUh, Uh, n, safe)
    dE = np.zeros_like(E)
    np.add.at(dE, data.tok, dU[data.owner])
    return fit.loss / fit.total, dE / fit.total, fit.dw / fit.total, fit.held()


def check(data, E):
    """The cosines here against the core's EMB_* features for every dumped element (max abs difference)."""
    Uh, _, _ = unit(data.sums(E))
    worst = 0.0
    for p in data.pages:
        C = Uh[p['texts']] @ Uh[p['goal_texts']].T
        for j, g in enumerate(p['goals']):
            worst = max(worst, float(np.abs(C[g['views'], j] - g['emb']).max()))
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tokens', default=str(HERE / '.cache' / 'tokens.json'))
    ap.add_argument('--table', default=str(HERE / '.cache' / 'distilled' / 'goal-embed.bin'), help='the start table (table.py --out)')
    ap.add_argument('--out', required=True, help='directory for goal-embed.bin and its record goal-embed.json')
    ap.add_argument('--log', default=None, help='a JSON file for the recipe and every epoch\'s numbers')
    ap.add_argument('--l2', type=float, default=1e-4, help='pull toward the start rows (per row, summed)')
    ap.add_argument('--lr', type=float, default=0.05)
    ap.add_argument('--epochs', type=int, default=60)
    ap.add_argument('--patience', type=int, default=10)
    ap.add_argument('--held', type=float, default=0.2, help='share of train sites held out for early stopping')
    ap.add_argument('--real-weight', type=float, default=2.0)
    ap.add_argument('--no-templates', action='store_true')
    ap.add_argument('--fixed-weights', action='store_true', help='keep the model\'s EMB weights (learn rows only)')
    ap.add_argument('--rare-pull', type=float, default=0.0,
                    help='after each step a row keeps 1 - min(1, RARE x K / (K + uses)) of its move from the start row '
                         '(decoupled, as AdamW\'s decay): a token few fitted goals use stays near the teacher')
    ap.add_argument('--rare-k', type=float, default=5.0, help='K of --rare-pull (uses at which the extra pull halves)')
    ap.add_argument('--fitted-sites', default=None, help='where to list the fitted train sites (default: OUT/fitted-sites.json)')
    opts = ap.parse_args()
    t0 = time.time()
    data = Data(opts.tokens, opts.held, not opts.no_templates)
    header, E0 = read_table(opts.table)
    worst = check(data, E0)
    print(f'loaded in {time.time() - t0:.0f} s; cosines vs the core\'s EMB_* features: max |diff| {worst:.2e}', flush=True)
    assert worst < 1e-6, 'the cosines here are not the core\'s'
    E, w = E0.copy(), data.w0.copy()
    uses = goal_use(data, E0.shape[0])
    pull = np.minimum(1, opts.rare_pull * opts.rare_k / (opts.rare_k + uses))[:, None]
    m, v = np.zeros_like(E), np.zeros_like(E)
    mw, vw = np.zeros(3), np.zeros(3)
    best = None
    history = []
    for epoch in range(opts.epochs + 1):
        loss, dE, dw, held = step(data, E, w, opts.real_weight, not opts.fixed_weights)
        reg = opts.l2 * ((E - E0) ** 2).sum()
        history.append({'epoch': epoch, 'loss': round(loss, 5), 'reg': round(reg, 5), **{k: round(x, 4) for k, x in held.items()}, 'w': [round(x, 4) for x in w]})
        print(json.dumps(history[-1]), f'{time.time() - t0:.0f} s', flush=True)
        if best is None or held['mrr'] > best['mrr']:
            best = {'epoch': epoch, 'mrr': held['mrr'], 'r1': held['r1'], 'r10': held['r10'], 'E': E.copy(), 'w': w.copy()}
        elif epoch - best['epoch'] >= opts.patience:
            break
        if epoch == opts.epochs:
            break
        dE += 2 * opts.l2 * (E - E0)
        t = epoch + 1
        m = 0.9 * m + 0.1 * dE
        v = 0.999 * v + 0.001 * dE * dE
        E -= opts.lr * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
        if opts.rare_pull:
            E -= pull * (E - E0)
        if not opts.fixed_weights:
            mw = 0.9 * mw + 0.1 * dw
            vw = 0.999 * vw + 0.001 * dw * dw
            w -= opts.lr * (mw / (1 - 0.9 ** t)) / (np.sqrt(vw / (1 - 0.999 ** t)) + 1e-8)
    E = best['E']
    E[np.abs(E0).sum(1) == 0] = 0  # special and [unused] tokens keep zero rows
    scale, q = quantise(E)
    out_dir = Path(opts.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / 'goal-embed.bin'
    with open(out, 'wb') as f:
        f.write(header)
        f.write(scale.astype('<f4').tobytes())
        f.write(q.tobytes())
    moved = np.linalg.norm(E - E0, axis=1)
    sha = lambda p: hashlib.sha256(Path(p).read_bytes()).hexdigest()  # noqa: E731
    refined = {
        'recipe': 'train/embed/refine.py: the rows (start: the distilled table, dequantised) and the three EMB '
                  'weights fitted by full-batch Adam on the in-page softmax cross-entropy of each goal\'s targets, '
                  'score = base model without EMB terms (train/embed/refine-base.json) + w . cosines (own, link, '
                  'section; summed rows as the core), real goals x REAL_WEIGHT, template goals x 1, + L2 x '
                  '||row - start row||^2; with RARE_PULL, after each step a row\'s move from the start shrinks by min(1, RARE_PULL x '
                  'RARE_K / (RARE_K + fitted goals using the token in their words or a target\'s views)); early stop on '
                  'held-out MRR; requantised int8 as table.py',
        'data': f'real goal set TRAIN split ({data.n_fit_real} goals fitted, {data.n_held} held out on '
                f'{data.n_held_sites} train sites chosen by sha256("refine:" + site)) and {data.n_fit_template} '
                'template goals (train/data); no dev or test goal is read',
        'options': {k: x for k, x in vars(opts).items() if k not in ('out', 'log', 'tokens', 'table', 'fitted_sites')},
        'start_table_sha256': sha(opts.table), 'tokens_json_sha256': sha(opts.tokens),
        'base_model_sha256': sha(HERE / 'refine-base.json'),
        'best_epoch': best['epoch'],
        'held_out_mrr_r1_r10': [round(history[0][k], 4) for k in ('mrr', 'r1', 'r10')] + ['->'] + [round(best[k], 4) for k in ('mrr', 'r1', 'r10')],
        'emb_weights': [round(x, 4) for x in data.w0] + ['->'] + [round(x, 4) for x in best['w']],
        'rows_moved': int((moved > 1e-9).sum()),
        'seeds': 'none: no random draws (full batch, zero-initialised Adam, held-out sites by hash)',
        'deterministic': 'numpy 2.4.6 with one thread (OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1)',
    }
    start_record = Path(opts.table).with_name('goal-embed.json')
    record = json.loads(start_record.read_text()) if start_record.exists() else {}
    record.update({'file': out.name, 'sha256': sha(out), 'bytes': out.stat().st_size})
    if record.get('method'):
        record['method'] += '; then the rows refined on the train split\'s goals (refined, below)'
    record['refined'] = refined
    (out_dir / 'goal-embed.json').write_text(json.dumps(record, indent=1) + '\n')
    # the real train sites the rows were fitted on: train.ts can leave them out of the weights' fit
    # (TRAIN_SKIP_SITES), so the weights see only cosines the rows were not fitted to
    Path(opts.fitted_sites or out_dir / 'fitted-sites.json').write_text(json.dumps(data.fitted_sites) + '\n')
    if opts.log:
        Path(opts.log).write_text(json.dumps({'refined': refined, 'seconds': round(time.time() - t0), 'history': history}, indent=1) + '\n')
    print(f'{out}: best epoch {best["epoch"]}, held-out MRR {history[0]["mrr"]:.4f} -> {best["mrr"]:.4f}, '
          f'R@1 {history[0]["r1"]:.4f} -> {best["r1"]:.4f}; sha256 {record["sha256"]}; {time.time() - t0:.0f} s')


if __name__ == '__main__':
    main()
