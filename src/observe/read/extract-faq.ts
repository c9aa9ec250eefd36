// A page's FAQ as its structured data states it (schema.org FAQPage: questions and their accepted
// answers). Category pages put their FAQ in accordions after the grid, often closed, so the strip removes
// the answers as hidden and no read reaches that far; the JSON-LD says the same questions and answers in
// the page's own words. General by design: schema.org vocabulary, no rule for a site.
import { type El, textOf } from './extract-dom.ts';
import { forEachJsonLd } from './page-type.ts';

export interface FaqEntry { question: string; answer: string }

/** The FAQPage questions and answers of the page's JSON-LD (@graph and mainEntity included), in order. */
export function faqOf(doc: Document): FaqEntry[] {
  const out: FaqEntry[] = [];
  const str = (v: unknown) => typeof v === 'string' ? v.trim() : '';
  forEachJsonLd(doc, (o, types, above) => {
    if (!types.includes('Question') || !above.includes('FAQPage')) return;
    const answer = [o.acceptedAnswer].flat()[0] as Record<string, unknown> | undefined;
    const q = str(o.name), a = answer && typeof answer === 'object' ? str(answer.text) : '';
    if (q && a) out.push({ question: q, answer: a });
    return false;
  });
  return out;
}

/** Whether the HTML may hold a FAQPage (a cheap test before parsing every JSON-LD block again). */
export const mayHoldFaq = (html: string) => html.includes('FAQPage');

/** The FAQ's questions and answers as plain text (tags and entities' markup left out; for word counts). */
export function faqText(faq: FaqEntry[]): string {
  return faq.map((f) => `${f.question}\n${f.answer.replace(/<[^>]*>/g, ' ')}`).join('\n');
}

const key = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** Characters of an answer's start that must appear in a read for the answer to count as held. */
const ANSWER_KEY = 60;

/**
 * Whether the text already holds the FAQ: half of its questions, or half of its answers (by their
 * start; questions set in buttons are dropped by the strip while their answers stay).
 */
export function holdsFaq(text: string, faq: FaqEntry[], doc: Document): boolean {
  const held = key(text);
  const questions = faq.filter((f) => held.includes(key(f.question))).length;
  const answers = faq.filter((f) => { const k = key(textOf(fragment(doc, f.answer))).slice(0, ANSWER_KEY); return !k || held.includes(k); }).length;
  return Math.max(questions, answers) * 2 >= faq.length;
}

/**
 * The FAQ as a block of `doc`: each question a heading, its answer after it (the answer's own markup
 * when it has some, scripts and frames removed; else its text as a paragraph).
 */
export function faqBlock(doc: Document, faq: FaqEntry[]): El {
  const out = doc.createElement('section') as unknown as El;
  for (const f of faq) {
    const h = doc.createElement('h3');
    h.textContent = textOf(fragment(doc, f.question)) || f.question;
    const a = doc.createElement('div');
    a.append(...fragment(doc, f.answer).childNodes);
    for (const el of [...a.querySelectorAll('script, style, iframe, object, embed, form, input, button, svg')]) el.remove();
    out.append(h, a);
  }
  return out;
}

/** HTML (or text with entities) parsed into a detached element of `doc`. */
function fragment(doc: Document, html: string): El {
  const d = doc.createElement('div') as unknown as El;
  d.innerHTML = /<[a-z]/i.test(html) ? html : `<p>${html}</p>`;
  return d;
}
