"""Checks the numpy all-MiniLM-L6-v2 (minilm.py) against known behaviour of the real model:
1. "hello world" against the reference vector that fastembed's test suite holds for
   sentence-transformers/all-MiniLM-L6-v2 (qdrant/fastembed tests/test_text_onnx_embeddings.py,
   first 5 dims, produced by the ONNX export of the model, atol 1e-3 there);
2. paraphrases score well above unrelated sentences;
3. batching and padding do not change a vector (the attention mask is honoured).
Exits non-zero on failure. Run: OMP_NUM_THREADS=1 train/.venv/bin/python train/embed/verify_minilm.py"""
import sys

import numpy as np

from minilm import MiniLM

REFERENCE_HELLO_WORLD = np.array([-0.034478, 0.03102, 0.00673, 0.02611, -0.039362])

m = MiniLM()
fails = []
hello = m.encode(['hello world', 'flag embedding'])
diff = np.abs(hello[0, :5] - REFERENCE_HELLO_WORLD).max()
print('hello world[:5]', np.round(hello[0, :5], 6), 'max |diff| vs reference', f'{diff:.2e}')
if diff > 1e-4:
    fails.append(f'hello world differs from the reference by {diff}')

pairs = [
    ('A man is eating food.', 'A man is eating a piece of bread.', 'A man is riding a horse.'),
    ('How do I reset my password?', 'I forgot my login credentials', 'The weather is sunny today'),
    ('share this article on LinkedIn', 'post to my professional network', 'read the latest football scores'),
    ('sign in to your account', 'log in', 'chocolate cake recipe'),
]
for a, para, other in pairs:
    v = m.encode([a, para, other])
    p, u = float(v[0] @ v[1]), float(v[0] @ v[2])
    print(f'{a!r}: paraphrase {p:.3f}, unrelated {u:.3f}')
    if p < u + 0.15:
        fails.append(f'paraphrase not clearly above unrelated for {a!r}')

texts = ['x', 'a much longer sentence with many more tokens in it than the others', 'sign in', 'hello world']
together = m.encode(texts)
alone = np.stack([m.encode([t])[0] for t in texts])
pad = np.abs(together - alone).max()
print(f'batched vs alone max |diff| {pad:.2e}')
if pad > 1e-5:
    fails.append(f'padding changes vectors by {pad}')

print('FAIL: ' + '; '.join(fails) if fails else 'ok')
sys.exit(1 if fails else 0)
