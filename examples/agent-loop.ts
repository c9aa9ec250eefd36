// An agent loop over the client library, with no LLM: each step states a goal, the rank core (with its
// goal rerank) orders the page's elements for it, and the loop acts on the best element that fits the
// step. A model would read toPrompt's lines and choose; here the top match stands in for it.
//
//   npm run build && node --import tsx examples/agent-loop.ts [URL]
//
// Without a URL it serves the clone's fixture pages (test/fixtures/) on a free localhost port and signs
// in on login.html.
import { chromium } from 'playwright-core';
import { snapshot, find, type, click, expect, waitForStable, toPrompt } from 'sightline/client';
import { serveFixtures } from '../test/helpers/fixtures.ts';

const pages = process.argv[2] ? undefined : await serveFixtures();
const url = process.argv[2] ?? `${pages!.url}/login.html`;

interface Step { goal: string; role: string | string[]; text?: string }
const steps: Step[] = [
  { goal: 'email address field', role: ['textbox', 'searchbox'], text: 'ada@example.com' },
  { goal: 'password field', role: 'textbox', text: 'correct horse battery staple' },
  { goal: 'sign in button', role: ['button', 'link'] },
];

const browser = await chromium.launch({ executablePath: process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium', args: ['--disable-gpu', '--no-first-run'] });
try {
  const page = await browser.newPage();
  await page.goto(url);
  await waitForStable(page);
  for (const step of steps) {
    const result = await snapshot(page, { goal: step.goal, limit: 10 });
    // What a model would read: the page header and the ranked lines.
    console.log(`\n> ${step.goal}\n${toPrompt(result, { title: await page.title() })}`);
    // The "model": the highest-ranked element of a fitting role that is not covered or disabled.
    const candidates = result.elements.filter((e) => !e.is_occluded && !e.disabled);
    const choice = find({ elements: candidates }, { role: step.role });
    if (!choice) throw new Error(`no element for "${step.goal}"`);
    if (step.text !== undefined) await type(page, choice.id, step.text);
    else await click(page, choice.id);
    console.log(`= ${step.text !== undefined ? `typed into` : 'clicked'} ${choice.id} ${choice.role}: ${choice.text || choice.name}`);
  }
  await expect(page, { text: /Submitted|Welcome|Signed in/i }, { timeout: 5000 })
    .then(() => console.log('\ndone: signed in'), (err: Error) => console.log(`\nnot done: ${err.message}`));
} finally {
  await browser.close();
  await pages?.close();
}
