// A generated page with about `n` interactive elements in a realistic mix, for the collector's benchmark
// and its before/after test: nested navigation lists, forms with labels, clickable cards (cursor:pointer),
// table rows with controls, ARIA widgets, open shadow roots (declarative), a scrolling box that clips,
// and in every block some hidden, offscreen and occluded controls. Deterministic: the same n gives the
// same page.

import { rng } from '../../train/templates.ts';

const WORDS = ['orders', 'account', 'settings', 'billing', 'reports', 'search', 'profile', 'help', 'export', 'archive',
  'invoice', 'shipping', 'returns', 'team', 'projects', 'calendar', 'messages', 'files', 'analytics', 'security'];

/** One block: about 40 interactive elements, a few of them hidden, offscreen or occluded. */
function block(b: number, r: () => number): { html: string; interactive: number } {
  const w = () => WORDS[Math.floor(r() * WORDS.length)];
  const parts: string[] = [];
  let n = 0;
  const add = (html: string, count: number) => { parts.push(html); n += count; };
  parts.push(`<section class="block" aria-label="Block ${b}"><h2>Section ${b}: ${w()}</h2>`);
  // Nested navigation list: 3 groups of 3 links under a top link.
  const nav: string[] = [];
  for (let g = 0; g < 3; g++) {
    nav.push(`<li><a href="/b${b}/g${g}">${w()} ${g}</a><ul>`);
    for (let k = 0; k < 3; k++) nav.push(`<li><a href="/b${b}/g${g}/${k}" class="sub">${w()} ${w()}</a></li>`);
    nav.push('</ul></li>');
  }
  add(`<nav aria-label="Menu ${b}"><ul class="menu">${nav.join('')}</ul></nav>`, 12);
  // A form: labelled inputs, a select, a textarea, a wrapped checkbox, a password, a submit button.
  add(`<form class="f"><label for="q${b}">Query ${b}</label><input id="q${b}" type="text" placeholder="${w()}">` +
    `<select aria-label="Sort ${b}"><option>newest</option><option>oldest</option></select>` +
    `<textarea name="note${b}" title="Note ${b}"></textarea>` +
    `<label><input type="checkbox" name="c${b}"> Remember ${w()}</label>` +
    `<input type="password" name="pw${b}" aria-label="Password ${b}">` +
    `<button type="submit">Save ${w()}</button></form>`, 7);
  // Clickable cards: a div with cursor:pointer holding a heading, a link and a button.
  for (let c = 0; c < 3; c++) {
    add(`<div class="card" onclick=""><h3>${w()} card ${c}</h3><p>Some ${w()} text about ${w()} and ${w()}.</p>` +
      `<a href="/b${b}/card/${c}">Open ${w()}</a> <button class="ghost">Share</button></div>`, 3);
  }
  // Table rows with a checkbox, a link and a button each.
  const rows: string[] = [];
  for (let t = 0; t < 3; t++) {
    rows.push(`<tr><td><input type="checkbox" aria-label="Select ${b}.${t}"></td><td><a href="/b${b}/row/${t}">Row ${b}.${t} ${w()}</a></td><td><button>Refund</button></td></tr>`);
  }
  add(`<table><tbody>${rows.join('')}</tbody></table>`, 9);
  // ARIA widgets: a tab list and a focusable div.
  add(`<div role="tablist"><span role="tab" tabindex="0" aria-selected="true">${w()}</span><span role="tab" tabindex="-1">${w()}</span></div>` +
    `<div tabindex="0" aria-labelledby="h${b}"><span id="h${b}">Focusable ${w()}</span></div>`, 3);
  // An open shadow root (declarative) with two buttons and a link.
  add(`<x-widget><template shadowrootmode="open"><style>:host{display:block}</style><button part="a">${w()} in shadow</button>` +
    `<button>Close</button><a href="/b${b}/shadow">More ${w()}</a></template></x-widget>`, 3);
  // A scrolling box: its later links are clipped away by overflow.
  add(`<div class="scroller">${[0, 1, 2, 3].map((k) => `<a href="/b${b}/scroll/${k}">${w()} ${k}</a>`).join('')}</div>`, 4);
  // Hidden (display:none, visibility:hidden, a closed details), offscreen and occluded controls.
  add(`<button style="display:none">Hidden ${w()}</button><a href="/b${b}/invisible" style="visibility:hidden">Invisible</a>` +
    `<details><summary>More ${w()}</summary><button>Inside closed details</button></details>` +
    `<a class="offscreen" href="/b${b}/skip">Skip to ${w()}</a>` +
    `<div class="stack"><button class="under">Covered ${w()}</button><div class="cover">cover</div></div>`, 6);
  parts.push('</section>');
  return { html: parts.join(''), interactive: n };
}

/** The page's HTML, with about `n` interactive elements (a multiple of one block's count, at least n). */
export function bigPageHtml(n: number, seed = 1): string {
  const r = rng(seed);
  const blocks: string[] = [];
  let count = 0;
  for (let b = 0; count < n; b++) {
    const { html, interactive } = block(b, r);
    blocks.push(html);
    count += interactive;
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Generated page, ${count} interactive elements</title><style>
body{font-family:sans-serif;margin:0;padding-top:48px}
header.top{position:fixed;top:0;left:0;right:0;height:48px;background:#fff;z-index:10;border-bottom:1px solid #ccc}
.block{padding:8px;border-bottom:1px solid #eee}
.menu{display:flex;gap:12px;list-style:none;margin:0;padding:0} .menu ul{padding-left:8px}
.card{cursor:pointer;display:inline-block;width:260px;margin:4px;padding:6px;border:1px solid #ddd;vertical-align:top}
.scroller{height:40px;overflow:auto;width:300px} .scroller a{display:block;height:20px}
.offscreen{position:absolute;left:-9999px}
.stack{position:relative;width:200px;height:30px} .cover{position:absolute;inset:0;background:#eee;z-index:2}
</style></head><body>
<header class="top"><a href="/">Home</a> <input type="search" aria-label="Search everything"> <button>Sign in</button></header>
<main>${blocks.join('\n')}</main>
<footer><a href="/about">About</a> <a href="/privacy">Privacy</a></footer>
</body></html>`;
}
