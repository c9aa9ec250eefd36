// The standard stack read mode is compared with: jsdom + Mozilla Readability + turndown, as a peer
// project would run it. One place for the read benchmark and the regression gate.
import { JSDOM, VirtualConsole } from 'jsdom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
const quiet = new VirtualConsole();

/** The page's article as Markdown ('' when Readability finds none or throws). */
export function readabilityMarkdown(html: string, url: string): string {
  try {
    const dom = new JSDOM(html, { url, virtualConsole: quiet });
    const article = new Readability(dom.window.document).parse();
    dom.window.close();
    return article?.content ? turndown.turndown(article.content) : '';
  } catch {
    return '';
  }
}
