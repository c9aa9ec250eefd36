"""Step 2 of issue 37: a static embedding table distilled from all-MiniLM-L6-v2 by model2vec's method,
in numpy: every vocabulary token alone through the teacher ([CLS] token [SEP], mean-pooled output),
PCA to a reduced dimension, SIF/Zipf frequency weighting, int8 per row. A text's vector is the mean
of its tokens' rows. Measured like step 1 (alone and fused with today's order; weights fitted on
train, reported on dev) and written to results/static.json. Nothing is shipped.
Run after encode.py: OMP_NUM_THREADS=1 train/.venv/bin/python train/embed/distill.py [--reuse-variants]"""
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from minilm import MiniLM  # noqa: E402
from rank_eval import ORACLE, VIEWS, Goals, evaluate  # noqa: E402

CACHE = HERE / '.cache'
DIMS = (384, 256, 128)
SIF = 1e-4  # model2vec's default sif_coefficient
ALSO = '256d sif-count'  # also measured in int8: under the extension's 8 MB


def token_vectors(m):
    """Each distillable token's teacher vector (unnormalised mean pool, as model2vec), cached."""
    path = CACHE / 'minilm-tokens.npy'
    vocab = m.tokenizer.get_vocab()
    skip = {'[PAD]', '[CLS]', '[SEP]', '[MASK]'}
    ids = sorted(i for t, i in vocab.items() if t not in skip and not t.startswith('[unused'))
    if path.exists():
        return ids, np.load(path)
    cls, sep = vocab['[CLS]'], vocab['[SEP]']
    t0 = time.time()
    vecs = np.concatenate([m.forward_ids([[cls, i, sep] for i in ids[s:s + 1024]], normalize=False)
                           for s in range(0, len(ids), 1024)])
    print(f'{len(ids)} tokens through the teacher in {time.time() - t0:.0f} s', flush=True)
    np.save(path, vecs)
    return ids, vecs


def train_counts(m, dump):
    """Token counts over the train split's element texts and goals (web text; never dev or test)."""
    texts = [g['goal'] for g in dump['goals'] if g['split'] == 'train']
    for p in dump['pages'].values():
        if p['split'] == 'train':
            texts += [e[v] for e in p['elements'] for v in VIEWS if e[v]]
    c = Counter()
    for enc in m.tokenizer.encode_batch(texts, add_special_tokens=False):
        c.update(enc.ids)
    return c


def build(ids, vecs, vocab_size, dim, weighting, counts):
    """Full-vocabulary float table (rows by token id; 0 for tokens not distilled)."""
    x = vecs - vecs.mean(0)
    if dim < x.shape[1]:
        _, _, vt = np.linalg.svd(x, full_matrices=False)
        x = x @ vt[:dim].T
    if weighting == 'sif-rank':  # model2vec: Zipf probability from the token's rank (vocab id order)
        proba = 1 / np.arange(2, len(ids) + 2)
        proba /= proba.sum()
        x = x * (SIF / (SIF + proba))[:, None]
    elif weighting == 'sif-count':  # the same from real counts on the train split's pages
        n = np.array([counts.get(i, 0) for i in ids], dtype=np.float64) + 1
        proba = n / n.sum()
        x = x * (1e-3 / (1e-3 + proba))[:, None]
    table = np.zeros((vocab_size, x.shape[1]), dtype=np.float32)
    table[ids] = x
    return table


def quantise(table):
    """int8 rows with one float16 scale per row (symmetric): what a core would ship."""
    scale = np.abs(table).max(1) / 127
    scale[scale == 0] = 1
    q = np.round(table / scale[:, None]).astype(np.int8)
    scale = scale.astype(np.float16)
    return q, scale, q.astype(np.float32) * scale.astype(np.float32)[:, None]


def encoder(m, table):
    def enc(texts):
        out = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
        for i, e in enumerate(m.tokenizer.encode_batch(list(texts), add_special_tokens=False)):
            if e.ids:
                v = table[e.ids].mean(0)
                out[i] = v / max(np.linalg.norm(v), 1e-12)
        return out
    return enc


def score(goals, rows, enc, methods, fixed=None):
    mats = {v: enc(list(rows[v])) for v in VIEWS}
    gvec = dict(zip(rows['goal'], enc(list(rows['goal']))))
    goals.cosines(lambda g: gvec[g], mats)
    return evaluate(goals, methods, fixed)


def main():
    m = MiniLM()
    m.tokenizer.no_truncation()
    dump = json.loads((CACHE / 'dump.json').read_text())
    rows = {'goal': {g: i for i, g in enumerate(sorted({g['goal'] for g in dump['goals']}))}}
    for v in VIEWS:
        rows[v] = {t: i for i, t in enumerate(sorted({e[v] for p in dump['pages'].values() for e in p['elements']}))}
    goals = Goals(dump, rows)
    ids, vecs = token_vectors(m)
    counts = train_counts(m, dump)
    vocab_size = m.tokenizer.get_vocab_size()
    out = {'teacher': 'all-MiniLM-L6-v2', 'tokens_distilled': len(ids), 'variants': {}}
    old = HERE / 'results' / 'static.json'
    if '--reuse-variants' in sys.argv and old.exists():  # measure the chosen table again without the sweep
        out['variants'] = json.loads(old.read_text())['variants']
    # choose dimension and weighting on train (MRR of the fused score), report every variant
    for dim in DIMS if not out['variants'] else ():
        for weighting in ('none', 'sif-rank', 'sif-count'):
            table = build(ids, vecs, vocab_size, dim, weighting, counts)
            res = score(goals, rows, encoder(m, table), ['cos blend', 'today + w*cos blend'])
            name = f'{dim}d {weighting}'
            out['variants'][name] = {'float32': res}
            print(name, 'fused train', res['today + w*cos blend']['train']['all'], 'dev', res['today + w*cos blend']['dev']['all'], flush=True)
    # the table's own quality picks the variant: train MRR of the blend alone (fused MRRs barely differ)
    best = max(out['variants'], key=lambda n: out['variants'][n]['float32']['cos blend']['train']['all']['MRR'])

    def measure(variant):
        dim, weighting = int(variant.split('d ')[0]), variant.split('d ')[1]
        q, scale, deq = quantise(build(ids, vecs, vocab_size, dim, weighting, counts))
        res = score(goals, rows, encoder(m, deq), ['cos own', 'cos link', 'cos context', 'cos blend', 'today + w*cos blend',
                                                    'heuristic + w*cos blend', 'today + w*cos rank', 'today + gated w*cos blend', ORACLE])
        return q, scale, {'variant': variant, 'int8': res, 'bytes': int(q.nbytes + scale.nbytes), 'vocab': vocab_size, 'dim': dim,
                          'sha256_int8': __import__('hashlib').sha256(q.tobytes() + scale.tobytes()).hexdigest()}

    q, scale, out['chosen'] = measure(best)
    # the smaller table the extension's 8 MB budget allows, measured the same way
    if ALSO not in (best, None):
        out['also'] = measure(ALSO)[2]
    np.save(CACHE / 'static-int8.npy', q)
    np.save(CACHE / 'static-scale.npy', scale)
    print('chosen', best, 'int8 bytes', out['chosen']['bytes'], 'gated dev', out['chosen']['int8']['today + gated w*cos blend']['dev']['all'], flush=True)
    (HERE / 'results').mkdir(exist_ok=True)
    (HERE / 'results' / 'static.json').write_text(json.dumps(out, indent=1))


if __name__ == '__main__':
    main()
