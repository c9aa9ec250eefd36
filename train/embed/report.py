"""Writes results/RESULTS.md from results/teachers.json and results/static.json (dev tables by style,
train/dev overall, the fitted weights, what the static table keeps of the teacher's gain).
Run: train/.venv/bin/python train/embed/report.py"""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
RES = HERE / 'results'
K = (1, 5, 10, 50)


def cell(r):
    return '/'.join(f"{r[f'R@{k}']:.2f}" for k in K)


def table(rows, split, groups):
    """rows: [(label, result-of-one-method)]; one column per row label."""
    head = '| goals (dev) | n | ' + ' | '.join(l for l, _ in rows) + ' |'
    lines = [head, '|---|---|' + '---|' * len(rows)]
    first = rows[0][1][split]
    for g in groups:
        lines.append(f"| {g} | {first[g]['n']} | " + ' | '.join(cell(r[split][g]) if g in r[split] else '' for _, r in rows) + ' |')
    return '\n'.join(lines)


def overall(rows):
    lines = ['| method | fitted weights | train R@1/5/10/50 | train MRR | dev R@1/5/10/50 | dev MRR |', '|---|---|---|---|---|---|']
    for label, r in rows:
        p = ', '.join(f'{k}={v}' for k, v in r['params'].items()) or '-'
        lines.append(f"| {label} | {p} | {cell(r['train']['all'])} | {r['train']['all']['MRR']:.3f} | {cell(r['dev']['all'])} | {r['dev']['all']['MRR']:.3f} |")
    return '\n'.join(lines)


def main():
    t = json.loads((RES / 'teachers.json').read_text())
    missing = t.pop('_views_not_encoded', {})
    s = json.loads((RES / 'static.json').read_text()) if (RES / 'static.json').exists() else None
    base = next(iter(t.values()))
    out = ['# Goal ranking with sentence embeddings: train/dev measurements (issue 37, step 1 and 2)', '',
           'Each cell is R@1/R@5/R@10/R@50 of the best target. Weights fitted on train (MRR), reported on dev. '
           'The test split is never dumped nor scored. `today` is the shipped rerank as built (build/); '
           '`today + w*cos` scores -log(1 + today\'s position) + w * (cos own + a * cos link + b * cos context).', '']
    rows = [('no goal', base['no goal (heuristic)']), ('today', base['today (shipped rerank)'])]
    for name, r in t.items():
        rows += [(f'{name} cos own', r['cos own']), (f'{name} cos link', r['cos link']), (f'{name} cos context', r['cos context']),
                 (f'{name} cos blend', r['cos blend']), (f'today + w*{name}', r['today + w*cos blend']),
                 (f'heuristic + w*{name}', r['heuristic + w*cos blend'])]
    if s:
        c = s['chosen']['int8']
        rows += [(f'static int8 {s["chosen"]["variant"]} cos own', c['cos own']), (f'static int8 cos blend', c['cos blend']),
                 ('today + w*static int8', c['today + w*cos blend']), ('heuristic + w*static int8', c['heuristic + w*cos blend'])]
    out += ['## Overall', '', overall(rows), '']
    for name, views in missing.items():
        if views:
            out += [f'{name}: views not encoded (scored 0, for time): {", ".join(views)}.', '']
    groups = list(base['today (shipped rerank)']['dev'])
    keep = [r for r in rows if r[0] in ('no goal', 'today') or r[0].startswith('today +') or r[0].endswith('cos blend')]
    out += ['## Dev by style', '', table(keep, 'dev', groups), '']
    if s:
        today = base['today (shipped rerank)']['dev']['all']
        out += ['## What the static table keeps of the teacher\'s gain (dev, fused with today)', '',
                '| teacher / table | dev R@1 | gain over today | kept | dev R@10 | gain | kept | dev MRR | gain | kept |', '|---|---|---|---|---|---|---|---|---|---|']
        best_t = max(t, key=lambda n: t[n]['today + w*cos blend']['train']['all']['MRR'])
        tr = t[best_t]['today + w*cos blend']['dev']['all']
        sr = s['chosen']['int8']['today + w*cos blend']['dev']['all']
        for label, r in ((f'teacher {best_t}', tr), (f'static int8 {s["chosen"]["variant"]}', sr)):
            cells = []
            for key in ('R@1', 'R@10', 'MRR'):
                g, gt = r[key] - today[key], tr[key] - today[key]
                cells += [f'{r[key]:.3f}', f'{g:+.3f}', f'{g / gt:.0%}' if gt > 0 else '-']
            out.append(f'| {label} | ' + ' | '.join(cells) + ' |')
        out += ['', f"Static table: {s['chosen']['vocab']} rows x {s['chosen']['dim']} int8 + one float16 scale per row = "
                f"{s['chosen']['bytes'] / 1e6:.1f} MB, sha256 {s['chosen']['sha256_int8'][:16]}...", '',
                '### Static variants (float32, fitted on train; chosen by train MRR of the fused score)', '',
                '| variant | cos blend dev R@1/5/10/50 | today + w*static dev R@1/5/10/50 | train MRR fused | dev MRR fused |', '|---|---|---|---|---|']
        for n, v in s['variants'].items():
            f = v['float32']
            out.append(f"| {n} | {cell(f['cos blend']['dev']['all'])} | {cell(f['today + w*cos blend']['dev']['all'])} | "
                       f"{f['today + w*cos blend']['train']['all']['MRR']:.3f} | {f['today + w*cos blend']['dev']['all']['MRR']:.3f} |")
    (RES / 'RESULTS.md').write_text('\n'.join(out) + '\n')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
