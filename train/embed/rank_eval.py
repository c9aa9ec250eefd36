"""Recall@k of goal rankings on the dumped train/dev goals (train/embed/.cache/dump.json; the test
split is never dumped): today's order, an embedding used as a bi-encoder (goal vs each element view),
and the two fused. Weights are fitted on train only; dev is reported with them."""
import itertools
import math

import numpy as np

K = (1, 5, 10, 50)
VIEWS = ('own', 'link', 'context')


class Goals:
    """Per goal: the page's element views as row indices into each view's matrix, today's position and
    the heuristic position of every element (same element order), and the target mask."""

    def __init__(self, dump, rows):
        """rows: view -> {text: row index} for the matrices scored later."""
        self.items = []
        for g in dump['goals']:
            els = dump['pages'][g['page']]['elements']
            ids = [e['id'] for e in els]
            today_at = {i: n for n, i in enumerate(g['today'])}
            self.items.append({
                'split': g['split'], 'style': g['style'], 'lang': g['lang'], 'goal': g['goal'], 'conf': g.get('confidence', 0.0),
                'targets': np.array([i in set(g['targets']) for i in ids]),
                'today': np.array([today_at.get(i, len(ids)) for i in ids], dtype=np.float64),
                'heuristic': np.array([e['heuristic'] for e in els], dtype=np.float64),
                'rows': {v: np.array([rows[v][e[v]] for e in els]) for v in VIEWS},
                'empty': {v: np.array([not e[v] for e in els]) for v in VIEWS},
            })

    def cosines(self, goal_vec, mats):
        """goal_vec(goal text) -> vector; mats: view -> matrix. Adds item['cos'][view] (0 for an empty view)."""
        for it in self.items:
            q = goal_vec(it['goal'])
            it['cos'] = {v: np.where(it['empty'][v], 0.0, mats[v][it['rows'][v]] @ q) for v in VIEWS}


def position(score, it):
    """0-based rank of the best target under a score (higher first); ties broken by today's order."""
    order = np.lexsort((it['today'], -score))
    hits = np.nonzero(it['targets'][order])[0]
    return hits[0] if len(hits) else math.inf


def blend(it, a, b):
    c = it['cos']
    return c['own'] + a * c['link'] + b * c['context']


def prior(it):
    """Today's order as a score: log-rank, so a weight on the cosine trades places near the top."""
    return -np.log1p(it['today'])


def log_rank(score):
    """-log(1 + rank) of each element under a score within its page: the cosine's order, not its scale."""
    r = np.empty(len(score))
    r[np.argsort(-score, kind='stable')] = np.arange(len(score))
    return -np.log1p(r)


METHODS = {
    'no goal (heuristic)': lambda it, p: -it['heuristic'],
    'today (shipped rerank)': lambda it, p: -it['today'],
    'cos own': lambda it, p: it['cos']['own'],
    'cos link': lambda it, p: it['cos']['link'],
    'cos context': lambda it, p: it['cos']['context'],
    'cos blend': lambda it, p: blend(it, p['a'], p['b']),
    'today + w*cos blend': lambda it, p: prior(it) + p['w'] * blend(it, p['a'], p['b']),
    'heuristic + w*cos blend': lambda it, p: -np.log1p(it['heuristic']) + p['w'] * blend(it, p['a'], p['b']),
    'today + w*cos rank': lambda it, p: prior(it) + p['w'] * log_rank(blend(it, p['a'], p['b'])),
    # the cosine's weight gated on the shipped rerank's own confidence (its top probability, known at run time)
    'today + gated w*cos blend': lambda it, p: prior(it) + (p['w_hi'] if it['conf'] >= p['t'] else p['w_lo']) * blend(it, p['a'], p['b']),
}
ORACLE = 'oracle: best of today and cos blend'  # not a method: the headroom a perfect arbiter of the two would have
GRID = {
    'cos blend': [{'a': a, 'b': b} for a, b in itertools.product((0, .25, .5, .75, 1), (0, .25, .5, .75, 1))],
    'today + w*cos blend': [{'a': a, 'b': b, 'w': w} for a, b, w in itertools.product((0, .25, .5, 1), (0, .25, .5), (1, 2, 3, 4, 6, 8, 12, 16, 24))],
}
GRID['heuristic + w*cos blend'] = GRID['today + w*cos blend']
GRID['today + w*cos rank'] = [{'a': a, 'b': b, 'w': w} for a, b, w in itertools.product((0, .25, .5, 1), (0, .25, .5), (.25, .5, .75, 1, 1.5, 2, 3))]


def positions(items, method, params):
    if method == ORACLE:
        return np.minimum(positions(items, 'today (shipped rerank)', {}), positions(items, 'cos blend', params))
    return np.array([position(METHODS[method](it, params), it) for it in items])


def objective(pos):
    """What the fit maximises on train: mean reciprocal rank of the best target."""
    return float(np.mean(1.0 / (1.0 + pos)))


def fit(items, method, fitted=None):
    train = [it for it in items if it['split'] == 'train']
    if method == ORACLE:
        return fitted['cos blend']
    if method == 'today + gated w*cos blend':  # a, b from the ungated fit; the gate and two weights fitted here
        ab = {k: fitted['today + w*cos blend'][k] for k in ('a', 'b')}
        grid = [{**ab, 't': t, 'w_lo': lo, 'w_hi': hi} for t, lo, hi in itertools.product((.3, .5, .7, .8, .9), (2, 4, 8, 16, 32), (0, .5, 1, 2))]
        return max(grid, key=lambda p: objective(positions(train, method, p)))
    best = max(GRID.get(method, [{}]), key=lambda p: objective(positions(train, method, p)))
    return best


def recalls(pos):
    return {f'R@{k}': round(float(np.mean(pos < k)), 3) for k in K} | {'MRR': round(objective(pos), 3)}


def evaluate(goals, methods=None, fixed=None):
    """method -> {params, split -> group -> recalls}. Groups: 'all' and each style (and non-en)."""
    out = {}
    fitted = {}
    for method in methods or [*METHODS, ORACLE]:
        params = (fixed or {}).get(method) or fit(goals.items, method, fitted)
        fitted[method] = params
        res = {'params': params}
        for split in ('train', 'dev'):
            items = [it for it in goals.items if it['split'] == split]
            pos = positions(items, method, params)
            # "worse": the goal puts the best target lower than no goal does (as npm run eval:goals counts it)
            worse = pos > positions(items, 'no goal (heuristic)', {})
            groups = {'all': np.ones(len(items), dtype=bool)}
            for style in sorted({it['style'] for it in items}):
                groups[style] = np.array([it['style'] == style for it in items])
            nonen = np.array([it['lang'] != 'en' for it in items])
            if nonen.any():
                groups['(non-English pages)'] = nonen
            res[split] = {name: {'n': int(sel.sum()), **recalls(pos[sel]), 'worse': round(float(worse[sel].mean()), 3)}
                          for name, sel in groups.items()}
        out[method] = res
    return out


def markdown(results, split='dev', groups=None):
    """One table: rows = groups (styles), columns = methods' R@1/5/10/50."""
    methods = list(results)
    first = results[methods[0]][split]
    groups = groups or list(first)
    lines = ['| group | n | ' + ' | '.join(f'{m} R@1/5/10/50' for m in methods) + ' |',
             '|---|---|' + '---|' * len(methods)]
    for g in groups:
        cells = []
        for m in methods:
            r = results[m][split].get(g)
            cells.append('/'.join(f"{r[f'R@{k}']:.2f}" for k in K) if r else '')
        lines.append(f"| {g} | {first[g]['n']} | " + ' | '.join(cells) + ' |')
    return '\n'.join(lines)
