// Markdown from extracted HTML: turndown with GFM tables and strike-through, fenced code with its
// language, ATX headings. Turndown gets an HTML string (it parses it itself): linkedom nodes lack
// table `.rows`, which GFM table conversion needs.
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  service.use(gfm);
  // Fenced code keeps its language from class="language-x" / "lang-x" on <pre> or <code>.
  service.addRule('fencedWithLanguage', {
    filter: (node) => node.nodeName === 'PRE' && !!node.textContent?.trim(),
    replacement: (_content, node) => {
      const el = node as HTMLElement;
      const code = el.querySelector('code');
      const cls = `${el.getAttribute('class') ?? ''} ${code?.getAttribute('class') ?? ''}`;
      const lang = /(?:language|lang)-([\w+#-]+)/.exec(cls)?.[1] ?? '';
      const text = (code ?? el).textContent ?? '';
      const fence = text.includes('```') ? '````' : '```';
      return `\n\n${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}\n\n`;
    },
  });
  return service;
}

export function toMarkdown(html: string): string {
  return turndown().turndown(html).replace(/\n{3,}/g, '\n\n').trim();
}

/** Cuts at the last block boundary (blank line) before `limit` characters. */
export function cutAtBlock(content: string, limit: number): { content: string; truncated: boolean } {
  if (content.length <= limit) return { content, truncated: false };
  const cut = content.lastIndexOf('\n\n', limit);
  return { content: content.slice(0, cut > limit * 0.5 ? cut : limit).trimEnd(), truncated: true };
}
