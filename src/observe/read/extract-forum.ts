// Forum threads and Q&A pages: the posts are the content. Find the repeated post containers
// (schema.org DiscussionForumPosting, Comment, Question, Answer; else siblings whose class names a
// post, message or reply), and keep each post's author, time and body, in order, without the chrome
// around them (avatars, badges, vote counts, reply and share buttons, signatures). General rules only.
import { type El, textOf, linkDensity } from './extract-dom.ts';
import type { PageMeta } from './page-type.ts';

/** Structured-data types of a thread or of its posts. */
const THREAD_TYPE = /^(?:DiscussionForumPosting|QAPage|Question|Answer|UserComments|SocialMediaPosting)$/;
/** Thread URLs of the common forum engines and Q&A sites. */
const THREAD_URL = /\/(?:t|thread|threads|topic|topics|discussion|discussions|questions|comments|d)\/[^/]|viewtopic|showthread|showtopic|[?&]topic=|\/thread-\d/i;
/** A class or id naming one post. */
const POST_CLASS = /(?:^|[\s_-])(?:post|message|comment|reply|answer|question|entry|topic-post|postcontainer)(?:$|[\s_-]|\d)/i;
/** A class or itemprop naming a post's text. */
const BODY = /(?:^|[\s_-])(?:(?:post|message|comment|answer|question|reply|entry|topic)[-_]?(?:body|content|text|message)|postbody|body|content|text|prose|cooked)(?:$|[\s_-])/i;
const AUTHOR = /(?:^|[\s_-])(?:author|username|user-?name|poster|postauthor|user-?link|byline|creator)(?:$|[\s_-])/i;
/** Microdata types of one post. */
const POST_ITEM = /(?:DiscussionForumPosting|Comment|Answer|Question|SocialMediaPosting)$/;

/** Fewest posts that make a thread. */
const MIN_POSTS = 2;
/** Shortest post body kept (characters): shorter ones are chrome that looked like a post. */
const MIN_BODY = 2;
/** Longest author name. */
const MAX_AUTHOR = 60;

/** A thread page: its structured data says so, or its URL is a thread's. */
export function isForumThread(said: PageMeta, doc: Document, url: string): boolean {
  if (said.jsonLd.some((t) => THREAD_TYPE.test(t))) return true;
  if (said.microdata.some((t) => /^(?:DiscussionForumPosting|QAPage|Question|UserComments)$/.test(t))) return true;
  const og = doc.querySelector('meta[property="og:type"]')?.getAttribute('content')?.toLowerCase() ?? '';
  if (og === 'forum' || og.includes('discussion')) return true;
  let path = '';
  try { const u = new URL(url); path = u.pathname + u.search; } catch { /* no URL signal */ }
  return THREAD_URL.test(path);
}

const hint = (el: El) => `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;

/** The posts of the thread, outermost containers in document order, or [] when there are not enough. */
export function findPosts(root: El): El[] {
  // Microdata posts: outermost ones (a comment under an answer belongs to the answer).
  const items = [...root.querySelectorAll('[itemtype]')].filter((e) => POST_ITEM.test(e.getAttribute('itemtype') ?? ''));
  const outer = items.filter((e) => !items.some((o) => o !== e && o.contains(e)));
  if (outer.length >= MIN_POSTS) return outer;
  // Repeated siblings named as posts: the largest group with the same tag and first class word.
  const groups = new Map<string, El[]>();
  const parents = new Map<El, number>();
  for (const el of root.querySelectorAll('[class], [id]')) {
    if (!POST_CLASS.test(hint(el)) || textOf(el).length < 20) continue;
    const parent = el.parentElement;
    if (!parent) continue;
    if (!parents.has(parent)) parents.set(parent, parents.size);
    const k = `${parents.get(parent)}|${el.tagName}.${(el.getAttribute('class') ?? '').trim().split(/\s+/)[0]}`;
    (groups.get(k) ?? groups.set(k, []).get(k)!).push(el);
  }
  let best: El[] = [];
  let bestText = 0;
  for (const group of groups.values()) {
    if (group.length < MIN_POSTS) continue;
    const text = group.reduce((s, e) => s + textOf(e).length, 0);
    if (text > bestText) { best = group; bestText = text; }
  }
  return best;
}

/** The text of one post: a block named as its body, else the post itself. */
function postBody(post: El): El {
  const named = [...post.querySelectorAll('[itemprop="text"], [itemprop="articleBody"], [itemprop="commentText"], [class]')]
    .filter((e) => e.hasAttribute('itemprop') || BODY.test(e.getAttribute('class') ?? ''))
    .filter((e) => textOf(e).length >= MIN_BODY && linkDensity(e, textOf(e).length) < 0.5);
  // The outermost named block that is not the whole post's chrome: the one holding most text, first wins ties.
  let best: El | null = null;
  for (const e of named) if (!best || textOf(e).length > textOf(best).length) best = e;
  return best ?? post;
}

function postAuthor(post: El, body: El): string {
  const el = post.querySelector('[itemprop="author"] [itemprop="name"], [itemprop="author"]')
    ?? [...post.querySelectorAll('[class]')].find((e) => AUTHOR.test(e.getAttribute('class') ?? '') && !body.contains(e) && textOf(e).length > 0);
  const name = el ? (el.getAttribute('content') ?? textOf(el)) : '';
  return name.length <= MAX_AUTHOR ? name : '';
}

function postTime(post: El, body: El): string {
  const el = [...post.querySelectorAll('time, [itemprop="datePublished"], [itemprop="dateCreated"]')].find((e) => !body.contains(e));
  if (!el) return '';
  return textOf(el) || el.getAttribute('datetime') || el.getAttribute('content') || '';
}

/**
 * The thread rebuilt from its posts: per post a line with author and time, then its body. Null when
 * the page has too few posts or they hold too little of the region's text to be its content.
 */
export function threadOf(root: El): El | null {
  const posts = findPosts(root);
  if (posts.length < MIN_POSTS) return null;
  const doc = root.ownerDocument;
  const out = doc.createElement('div');
  let kept = 0;
  for (const post of posts) {
    const body = postBody(post);
    if (textOf(body).length < MIN_BODY) continue;
    const byline = [postAuthor(post, body), postTime(post, body)].filter(Boolean).join(' · ');
    const wrap = doc.createElement('div');
    if (byline) { const p = doc.createElement('p'); p.textContent = byline; wrap.append(p); }
    wrap.append(body);
    out.append(wrap);
    kept++;
  }
  return kept >= MIN_POSTS ? out : null;
}
