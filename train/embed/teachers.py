"""Step 1 of issue 37, the upper bound: each cached teacher as a bi-encoder, alone and fused with
today's ranking, R@1/5/10/50 by style on train and dev (weights fitted on train). Writes
results/teachers.json. Run after encode.py: OMP_NUM_THREADS=1 train/.venv/bin/python train/embed/teachers.py [minilm e5 minilm:own]"""
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from rank_eval import VIEWS, Goals, evaluate  # noqa: E402

CACHE = HERE / '.cache'


def load(name):
    mats, rows = {}, {}
    for view in ('goal',) + VIEWS:
        if not (CACHE / f'{name}-{view}.npy').exists():  # a view not encoded (time) scores 0 everywhere
            rows[view], mats[view] = None, None
            continue
        texts = json.loads((CACHE / f'{name}-{view}.json').read_text())
        rows[view] = {t: i for i, t in enumerate(texts)}
        mats[view] = np.load(CACHE / f'{name}-{view}.npy')
    return mats, rows


def main():
    dump = json.loads((CACHE / 'dump.json').read_text())
    out = {}
    for spec in sys.argv[1:] or ['minilm', 'e5']:
        # "minilm:own" scores only the own view (to compare with a teacher encoded on fewer views)
        name, only = (spec.split(':') + [''])[:2]
        if not (CACHE / f'{name}-own.npy').exists():
            print('skipping', name, '(not encoded)')
            continue
        mats, rows = load(name)
        missing = [v for v in VIEWS if rows[v] is None or (only and v not in only.split(','))]
        for v in missing:
            rows[v], mats[v] = {'': 0}, np.zeros((1, 384), dtype=np.float32)
            for p in dump['pages'].values():
                for e in p['elements']:
                    e[v + '_orig'], e[v] = e[v], ''
        goals = Goals(dump, rows)
        for p in dump['pages'].values():
            for e in p['elements']:
                for v in missing:
                    e[v] = e.pop(v + '_orig')
        goals.cosines(lambda g: mats['goal'][rows['goal'][g]], mats)
        name = spec
        out[name] = evaluate(goals)
        out.setdefault('_views_not_encoded', {})[name] = missing
        for m, r in out[name].items():
            print(name, m, r['params'], 'train', r['train']['all'], 'dev', r['dev']['all'], flush=True)
    (HERE / 'results').mkdir(exist_ok=True)
    path = HERE / 'results' / 'teachers.json'
    old = json.loads(path.read_text()) if path.exists() else {}
    notes = {**old.get('_views_not_encoded', {}), **out.pop('_views_not_encoded', {})}
    path.write_text(dump({**old, **out, '_views_not_encoded': notes}))


def dump(value, depth=0):
    """JSON with each leaf row (a dict or list of plain values: one group's n, R@k and MRR) on one line: a third of
    the size of one value per line, and a diff still shows which rows moved."""
    plain = lambda v: not isinstance(v, (dict, list))
    if isinstance(value, dict) and value and not all(plain(v) for v in value.values()):
        pad = ' ' * (depth + 1)
        items = [f'{pad}{json.dumps(k)}: {dump(v, depth + 1)}' for k, v in value.items()]
        return '{\n' + ',\n'.join(items) + '\n' + ' ' * depth + '}'
    return json.dumps(value)


if __name__ == '__main__':
    main()
