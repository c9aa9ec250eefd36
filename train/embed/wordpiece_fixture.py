"""Token ids of sample texts (many scripts, punctuation, controls) from the teacher's own tokenizer, for
test/embed.test.ts: src/rank/wordpiece.ts must give the same. Run: train/.venv/bin/python train/embed/wordpiece_fixture.py"""
import json, sys
sys.path.insert(0, str(__import__('pathlib').Path(__file__).resolve().parent))
from minilm import MiniLM
m = MiniLM(); m.tokenizer.no_truncation()
texts = [
 "Sign in to your account", "Add to cart", "Café crème brûlée — €4.50", "Ünïcödé Straße ÄÖÜ", "日本語のテキスト 東京", "Войти в личный кабинет",
 "¿Dónde está la biblioteca?", "e-mail: support@example.com", "/account/login?next=%2Fhome", "Read more »", "C++ & C# (2024) [beta]",
 "Nächste Seite ›", "Zaloguj się", "Giriş yap", "登录 注册", "Se connecter à mon compte", "Iscriviti alla newsletter", "Inloggen",
 "Přihlásit se", "Logga in", "supercalifragilisticexpialidocious", "x" * 120, "tab\there\nnew line", "emoji 😀 test", "ﬁ ligature",
 "İstanbul", "ß", "don't stop", "1,234.56 USD", "“quoted” ‘text’", "mixed123abc", "under_score-dash", "arabic مرحبا", "hindi नमस्ते", "thai สวัสดี", "korean 안녕하세요", "Hello\u00a0World", "it\u2019s \u201cfine\u201d", "a\u0001b c", "naïve café", "Ｆｕｌｌ width", "Read\u2009more\u2026", "1st–2nd", "x\u200by", "Ⅻ ² ½", "ǅ Ǆ",
]
out = [{"text": t, "ids": e.ids} for t, e in zip(texts, m.tokenizer.encode_batch(texts, add_special_tokens=False))]
json.dump({"tokenizer": "all-MiniLM-L6-v2 tokenizer.json (tokenizers 0.23.3), add_special_tokens=False", "cases": out}, open(__import__('pathlib').Path(__file__).resolve().parents[2] / 'test' / 'fixtures' / 'wordpiece-ids.json', 'w'), ensure_ascii=False, indent=0)
