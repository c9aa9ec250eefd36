"""Writes results/RESULTS.md from results/teachers.json and results/static.json (dev tables by style,
train/dev overall, the fitted weights, what the static table keeps of the teacher's gain).
Run: train/.venv/bin/python train/embed/report.py"""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
RES = HERE / 'results'
K = (1, 5, 10, 50)
FUSED = ('today + w*cos blend', 'today + w*cos rank', 'today + gated w*cos blend')
ORACLE = 'oracle: best of today and cos blend'


def cell(r):
    return '/'.join(f"{r[f'R@{k}']:.2f}" for k in K)


def table(rows, split, groups):
    """rows: [(label, result-of-one-method)]; one column per row label."""
    lines = ['| goals (dev) | n | ' + ' | '.join(l for l, _ in rows) + ' |', '|---|---|' + '---|' * len(rows)]
    first = rows[0][1][split]
    for g in groups:
        lines.append(f"| {g} | {first[g]['n']} | " + ' | '.join(cell(r[split][g]) if g in r[split] else '' for _, r in rows) + ' |')
    return '\n'.join(lines)


def overall(rows):
    lines = ['| method | fitted on train | train R@1/5/10/50 | train MRR | dev R@1/5/10/50 | dev MRR |', '|---|---|---|---|---|---|']
    for label, r in rows:
        p = ', '.join(f'{k}={v}' for k, v in r['params'].items()) or '-'
        lines.append(f"| {label} | {p} | {cell(r['train']['all'])} | {r['train']['all']['MRR']:.3f} | {cell(r['dev']['all'])} | {r['dev']['all']['MRR']:.3f} |")
    return '\n'.join(lines)


def best_fused(r):
    return max((m for m in FUSED if m in r), key=lambda m: r[m]['train']['all']['MRR'])


def main():
    t = json.loads((RES / 'teachers.json').read_text())
    missing = t.pop('_views_not_encoded', {})
    s = json.loads((RES / 'static.json').read_text()) if (RES / 'static.json').exists() else None
    base = next(iter(t.values()))
    out = ['# Goal ranking with sentence embeddings: train/dev measurements (issue 37, steps 1 and 2)', '',
           'Each cell is R@1/R@5/R@10/R@50 of the best target, the page ranked whole. Weights fitted on train (MRR), reported on dev. '
           'The test split is never dumped nor scored. `today` is the shipped rerank as built (build/). '
           '`blend` = cos own + a * cos link + b * cos context. `today + w*cos` scores -log(1 + today\'s position) + w * blend; '
           '`cos rank` uses -log(1 + the blend\'s rank) instead of its value; `gated` uses w_lo when the shipped rerank\'s own '
           'top probability is below t, else w_hi. The oracle (best of today and the blend, per goal) is headroom, not a method.', '']
    rows = [('no goal', base['no goal (heuristic)']), ('today', base['today (shipped rerank)'])]
    for name, r in t.items():
        rows += [(f'{name} cos {v}', r[f'cos {v}']) for v in ('own', 'link', 'context') if v not in missing.get(name, [])]
        rows += [(f'{name} cos blend', r['cos blend'])]
        rows += [(f'{m.replace("cos", name)}', r[m]) for m in ('heuristic + w*cos blend', *FUSED) if m in r]
        if ORACLE in r:
            rows.append((f'oracle: best of today and {name} blend', r[ORACLE]))
    if s:
        c = s['chosen']['int8']
        rows += [('static int8 cos own', c['cos own']), ('static int8 cos blend', c['cos blend'])]
        rows += [(m.replace('cos', 'static'), c[m]) for m in ('heuristic + w*cos blend', *FUSED) if m in c]
        if ORACLE in c:
            rows.append(('oracle: best of today and static blend', c[ORACLE]))
    out += ['## Overall', '', overall(rows), '']
    for name, views in missing.items():
        if views:
            out += [f'{name}: views left out (scored 0; e5 for time, minilm:own to compare with it): {", ".join(views)}.', '']
    groups = list(base['today (shipped rerank)']['dev'])
    keep = [('no goal', base['no goal (heuristic)']), ('today', base['today (shipped rerank)'])]
    for name, r in t.items():
        keep += [(f'{name} blend', r['cos blend']), (f'today + gated w*{name}', r['today + gated w*cos blend'])]
    if s:
        keep += [('static blend', s['chosen']['int8']['cos blend']), ('today + gated w*static', s['chosen']['int8']['today + gated w*cos blend'])]
    out += ['## Dev by style', '', table(keep, 'dev', groups), '']
    if s:
        today = base['today (shipped rerank)']['dev']['all']
        teacher = 'minilm'
        m = best_fused(t[teacher])
        out += [f"## What the static table keeps of the teacher's gain (dev, `{m}`, the fusion with the best train MRR)", '',
                '| teacher / table | dev R@1 | gain over today | kept | dev R@10 | gain | kept | dev R@50 | gain | kept | dev MRR | gain | kept |',
                '|---|---|---|---|---|---|---|---|---|---|---|---|---|']
        tr, sr = t[teacher][m]['dev']['all'], s['chosen']['int8'][m]['dev']['all']
        pairs = [(f'teacher {teacher} (all-MiniLM-L6-v2)', tr), (f'static int8 {s["chosen"]["variant"]} (chosen)', sr)]
        if 'also' in s:
            pairs.append((f'static int8 {s["also"]["variant"]} ({s["also"]["bytes"] / 1e6:.2f} MB)', s['also']['int8'][m]['dev']['all']))
        for label, r in pairs:
            cells = []
            for key in ('R@1', 'R@10', 'R@50', 'MRR'):
                g, gt = r[key] - today[key], tr[key] - today[key]
                cells += [f'{r[key]:.3f}', f'{g:+.3f}', f'{g / gt:.0%}' if gt > 0 else '-']
            out.append(f'| {label} | ' + ' | '.join(cells) + ' |')
        out += ['', f"Static table: {s['chosen']['vocab']} rows x {s['chosen']['dim']} int8 + one float16 scale per row = "
                f"{s['chosen']['bytes'] / 1e6:.2f} MB (sha256 of int8+scales {s['chosen']['sha256_int8'][:16]}...).", '',
                '### Static variants (float32, each fitted on train; the chosen one has the best train MRR of the blend alone)', '',
                '| variant | blend train MRR | blend dev R@1/5/10/50 | today + w*static dev R@1/5/10/50 | train MRR fused | dev MRR fused |', '|---|---|---|---|---|---|']
        for n, v in s['variants'].items():
            f = v['float32']
            out.append(f"| {n} | {f['cos blend']['train']['all']['MRR']:.3f} | {cell(f['cos blend']['dev']['all'])} | {cell(f['today + w*cos blend']['dev']['all'])} | "
                       f"{f['today + w*cos blend']['train']['all']['MRR']:.3f} | {f['today + w*cos blend']['dev']['all']['MRR']:.3f} |")
    (RES / 'RESULTS.md').write_text('\n'.join(out) + '\n')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
