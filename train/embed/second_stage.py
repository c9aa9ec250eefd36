"""Issue 37 item 3, step 1: what a precise second stage would give. The shipped ranking's first K
candidates per goal (K = 30 and 50) are rescored by the teacher itself (all-MiniLM-L6-v2 as a
bi-encoder: goal against each candidate's own words, link path and context, as teachers.py) and fused
with the shipped rerank's own score; every fusion is fitted on the train split and reported on dev.
Candidates beyond K keep today's place. Writes results/second-stage.json and results/second-stage.md.
Run after dump.ts and `encode.py minilm --top 50` (or `--source ort8`, from stage_timing.py --encode):
OMP_NUM_THREADS=1 train/.venv/bin/python train/embed/second_stage.py [--source minilm]"""
import argparse
import itertools
import json
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
CACHE = HERE / '.cache'
TOP = 50  # what encode.py --top encoded: K may be at most this
KS = (30, 50)
RECALL_AT = (1, 5, 10, 50)
VIEWS = ('own', 'link', 'context')
FEATURES = ('prior', 'ml', 'own', 'link', 'context', 'own_low', 'link_low', 'context_low', 'max_low', 'max_rank', 'max_rank_low')


def log_rank(score):
    """-log(1 + place) of each candidate under a score: the cosine's order among the candidates, not its scale."""
    r = np.empty(len(score))
    r[np.argsort(-score, kind='stable')] = np.arange(len(score))
    return -np.log1p(r)


def load(source):
    mats, rows = {}, {}
    for view in ('goal',) + VIEWS:
        if not (CACHE / f'{source}-top{TOP}-{view}.npy').exists():  # not encoded (yet): scores 0
            print('no', view, 'view for', source, flush=True)
            rows[view], mats[view] = {}, np.zeros((1, 384), dtype=np.float32)
            continue
        texts = json.loads((CACHE / f'{source}-top{TOP}-{view}.json').read_text())
        rows[view] = {t: i for i, t in enumerate(texts)}
        mats[view] = np.load(CACHE / f'{source}-top{TOP}-{view}.npy')
    return mats, rows


def items_of(dump, mats, rows, k):
    """Per goal: today's first k candidates with their features, the target mask, and today's position
    of the best target (its place when no candidate is a target)."""
    out = []
    for g in dump['goals']:
        els = {e['id']: e for e in dump['pages'][g['page']]['elements']}
        cands = g['today'][:k]
        targets = set(g['targets'])
        today_pos = next((n for n, i in enumerate(g['today']) if i in targets), math.inf)
        q = mats['goal'][rows['goal'][g['goal']]]
        cos = {v: np.array([mats[v][rows[v][els[i][v]]] @ q if els[i][v] in rows[v] and els[i][v] else 0.0 for i in cands]) for v in VIEWS}
        low = float(g['confidence'] < 0.5)  # the shipped rerank's own doubt, known at run time
        f = {
            'prior': -np.log1p(np.arange(len(cands), dtype=np.float64)),
            'ml': np.array(g['today_score'][:len(cands)], dtype=np.float64),
            **cos,
            **{f'{v}_low': cos[v] * low for v in VIEWS},
            'max_low': np.maximum(cos['own'], cos['link']) * low,
            'max_rank': log_rank(np.maximum(cos['own'], cos['link'])),
            'max_rank_low': log_rank(np.maximum(cos['own'], cos['link'])) * low,
        }
        out.append({'split': g['split'], 'style': g['style'], 'lang': g['lang'], 'conf': g['confidence'],
                    'x': np.stack([f[n] for n in FEATURES], 1), 'cos': cos,
                    'hit': np.array([i in targets for i in cands]), 'today_pos': today_pos})
    return out


def position(score, it):
    """0-based place of the best target after the second stage reorders the candidates by score
    (ties keep today's order); a target outside the candidates keeps today's place."""
    if not it['hit'].any():
        return it['today_pos']
    order = np.lexsort((np.arange(len(score)), -score))
    return int(np.nonzero(it['hit'][order])[0][0])


def blend(it, p):
    c = it['cos']
    return c['own'] + p['a'] * c['link'] + p['b'] * c['context']


METHODS = {
    'today (shipped)': lambda it, p: -np.arange(len(it['hit']), dtype=np.float64),
    'teacher alone': blend,
    'today + w*teacher': lambda it, p: it['x'][:, 0] + p['w'] * blend(it, p),
    'gated today + w*teacher': lambda it, p: it['x'][:, 0] + (p['w_lo'] if it['conf'] < p['t'] else p['w_hi']) * blend(it, p),
    'listwise linear (all features)': lambda it, p: it['x'] @ p['theta'],
    # not a method: what any second stage over these K could reach (a target among them put first)
    'ceiling': lambda it, p: it['hit'].astype(np.float64),
}


def positions(items, method, p):
    return np.array([position(METHODS[method](it, p), it) for it in items], dtype=np.float64)


def mrr(pos):
    return float(np.mean(1.0 / (1.0 + pos)))


def fit_listwise(items, l2=1e-3, steps=400, lr=0.5):
    """Softmax over a goal's candidates, maximising the log-probability of its targets (train goals with a
    target among the candidates), features standardised, plain gradient ascent with an L2 penalty."""
    use = [it for it in items if it['hit'].any()]
    allx = np.concatenate([it['x'] for it in use])
    mu, sd = allx.mean(0), allx.std(0) + 1e-9
    xs = [(it['x'] - mu) / sd for it in use]
    theta = np.zeros(len(FEATURES))
    for _ in range(steps):
        grad = -l2 * theta
        for x, it in zip(xs, use):
            s = x @ theta
            p = np.exp(s - s.max())
            p /= p.sum()
            t = it['hit'] / it['hit'].sum()
            grad += (t - p) @ x / len(use)
        theta += lr * grad
    return {'theta': theta / sd}  # on the raw features (the mean shift is the same for every candidate)


def fit(train, method, fitted):
    if method in ('today (shipped)', 'ceiling'):
        return {}
    if method == 'listwise linear (all features)':
        return fit_listwise(train)
    ab = [{'a': a, 'b': b} for a, b in itertools.product((0, .25, .5, .75, 1), (0, .25, .5))]
    if method == 'teacher alone':
        grid = ab
    elif method == 'today + w*teacher':
        grid = [{**x, 'w': w} for x in ab for w in (.5, 1, 2, 3, 4, 6, 8, 12, 16, 24)]
    else:  # the views' mix a, b from the ungated fit (done first); the gate and its two weights fitted here
        x = {k: fitted['today + w*teacher'][k] for k in ('a', 'b')}
        grid = [{**x, 't': t, 'w_lo': lo, 'w_hi': hi} for t in (.3, .5, .7)
                for lo, hi in itertools.product((2, 4, 8, 16, 32), (0, .5, 1, 2))]
    return max(grid, key=lambda p: mrr(positions(train, method, p)))


def recalls(pos):
    return {f'R@{k}': round(float(np.mean(pos < k)), 3) for k in RECALL_AT} | {'MRR': round(mrr(pos), 3)}


def evaluate(items):
    train = [it for it in items if it['split'] == 'train']
    res, fitted = {}, {}
    for method in METHODS:
        p = fitted[method] = fit(train, method, fitted)
        out = {'params': {k: (v.round(4).tolist() if isinstance(v, np.ndarray) else v) for k, v in p.items()}}
        for split in ('train', 'dev'):
            its = [it for it in items if it['split'] == split]
            pos = positions(its, method, p)
            groups = {'all': pos} | {s: pos[[it['style'] == s for it in its]] for s in sorted({it['style'] for it in its})}
            groups['(non-English pages)'] = pos[[it['lang'] != 'en' for it in its]]
            out[split] = {g: {'n': int(len(v)), **recalls(v)} for g, v in groups.items() if len(v)}
        res[method] = out
    return res


def table(res, split='dev'):
    methods = list(res)
    groups = list(res[methods[0]][split])
    lines = ['| group | n | ' + ' | '.join(methods) + ' |', '|---|---|' + '---|' * len(methods)]
    for g in groups:
        cells = ['/'.join(f"{res[m][split][g][f'R@{k}']:.3f}" for k in RECALL_AT) for m in methods]
        lines.append(f"| {g} | {res[methods[0]][split][g]['n']} | " + ' | '.join(cells) + ' |')
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source', default='minilm', help='encodings: minilm (numpy, float32) or ort8 (int8 ONNX)')
    ap.add_argument('--report', action='store_true', help='only rewrite second-stage.md from the json')
    opts = ap.parse_args()
    if opts.report:
        return report()
    dump = json.loads((CACHE / 'dump.json').read_text())
    mats, rows = load(opts.source)
    results = {}
    for k in KS:
        items = items_of(dump, mats, rows, k)
        results[f'K={k}'] = evaluate(items)
        for m, r in results[f'K={k}'].items():
            print(opts.source, k, m, 'train', r['train']['all'], 'dev', r['dev']['all'], flush=True)
    path = HERE / 'results' / 'second-stage.json'
    old = json.loads(path.read_text()) if path.exists() else {}
    old[opts.source] = results
    path.write_text(json.dumps(old, separators=(',', ':')) + '\n')  # aggregates only; compact
    report()


def report():
    """results/second-stage.md from results/second-stage.json (every source measured so far)."""
    runs = json.loads((HERE / 'results' / 'second-stage.json').read_text())
    md = ['# Second stage over the shipped ranking\'s first K candidates',
          '',
          'Dev split (317 goals), R@1/5/10/50 of the best target; every fusion fitted on the train split (1,027 goals).',
          'Written by `second_stage.py` (train/embed/README.md); the numbers with more digits and the fitted',
          'parameters are in `second-stage.json`. `minilm`: the numpy teacher (float32); `ort8`: the int8 ONNX export.', '']
    for source, by_k in runs.items():
        for k, res in by_k.items():
            md += [f'## {source}, {k}', '', table(res), '']
    (HERE / 'results' / 'second-stage.md').write_text('\n'.join(md))


if __name__ == '__main__':
    sys.path.insert(0, str(HERE))
    main()
