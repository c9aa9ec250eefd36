// What each distinct text of a request gives whatever the goal, kept across requests: its word and
// trigram hashes (all of them, each once), the hashes of its first words (for the goal's phrases), and
// its tokens in the goal-embedding table under a slot number by which the core keeps their sum. An agent
// sends a new goal nearly every call, with snapshot after snapshot of pages that share most of their
// texts (menus, "Read more", links to one page), so a new goal only filters these by its own hashes
// (encode-goal.ts) and the core only takes dot products (assembly/embed.ts). Bounded: MAX_TEXTS texts
// and about MAX_BYTES, then it starts over; a text longer than KEEP_CHARS (a paragraph, not a label) is
// read again in each request that holds it.
import { scanText, startText, counted, type Scan, type HashSink } from './goal.ts';
import { linkConcepts } from './concepts.ts';
import type { EmbedTable } from './embed-table.ts';

/** Texts kept (own texts, links, a link's contexts and section labels; all but contexts hold a slot). */
export const MAX_TEXTS = 16384;
/** About this many bytes of heap for the kept texts at most (as `bytesOf` counts them). */
export const MAX_BYTES = 16 * 1024 * 1024;
/** Longer texts are read each time, not kept: the memory stays small. */
const KEEP_CHARS = 256;
/** Slot numbers and request stamps stay below this (1 + a slot is an i32 in the core). */
const MAX_SLOT = 0x3fffffff, MAX_STAMP = 0x3fffffff;
/** A label names its concept in its first words ("Log in", not a paragraph's tenth word). */
const LABEL_WORDS = 10;
/** Path words of a link read for concepts ("/account/login"); the nearby text after them is not. */
const PATH_WORDS = 6;

/** A growable i32 buffer reused across calls (encoding is synchronous): no array per text. */
export class Hashes implements HashSink {
  data = new Int32Array(4096);
  length = 0;
  push(h: number): void {
    if (this.length === this.data.length) this.grow(1);
    this.data[this.length++] = h;
  }
  view(): Int32Array { return this.data.subarray(0, this.length); }
  append(hashes: Int32Array): void {
    if (this.length + hashes.length > this.data.length) this.grow(hashes.length);
    this.data.set(hashes, this.length);
    this.length += hashes.length;
  }
  /** Appends `count` zeros. */
  fill(count: number): void {
    if (this.length + count > this.data.length) this.grow(count);
    this.data.fill(0, this.length, this.length + count);
    this.length += count;
  }
  private grow(more: number): void {
    const grown = new Int32Array(Math.max(this.data.length * 2, this.length + more));
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
  }
}

/**
 * One text. `hashes`: its distinct word hashes [0, words), then (own text) its distinct trigram hashes
 * [words, trigrams), then the hashes of its first words [trigrams, sequence) (a Scan's `sequence`), then
 * (a link's context) its link's concepts [sequence, end). Where this request put what the goal keeps of
 * it is noted under `stamp` (a page repeats its texts: each is filtered once per request).
 */
export class Text {
  /** Kept across requests (else read again by the next request that holds it). */
  kept = false;
  /** Table rows of its tokens (null until a request with a table reads them) and, when kept, its slot
   *  (-1: none). */
  ids: Int32Array | null = null;
  slot = -1;
  /** The request that last filled the fields below (Memory.stamp). */
  stamp = 0;
  /** Kept hashes: start and length in the request's buffer; trigrams (own text) likewise. */
  at = 0;
  length = 0;
  triAt = 0;
  triLength = 0;
  /** Own text: distinct words and concepts; distinct trigrams when any is kept (else 0). */
  wordCount = 0;
  triCount = 0;
  /** A section label's id in this request (1 + its order of first appearance). */
  id = 0;
  /** What the goal numbered `keptFor` (encode-goal.ts) kept of a kept text, in the fields above and
   *  `keep` (the kept hashes, then the kept trigrams; null when none or not yet): not filtered again
   *  while that goal stays (0: no goal yet). */
  keptFor = 0;
  keep: Int32Array | null = null;
  /** Its token ids' start in this request's EMB_IDS (the length is ids.length). */
  embAt = 0;
  /** A link: its contexts, by nearby text. */
  near: Map<string, Text> | null = null;
  constructor(readonly hashes: Int32Array, readonly words: number, readonly trigrams: number, readonly sequence: number) {}
}

/** The kinds of text, each keyed by its own string. */
const OWN = 0, LINK = 1, SECTION = 2;

const words = new Hashes(), trigrams = new Hashes(), sequence = new Hashes(), concepts = new Hashes();
const noPhrases = new Map<number, number[]>(), noEnds = { has: () => false };
/** Every word and trigram, each once, and the first words' hashes; no filter, no concepts. */
const plainScan = (limit: number, withTrigrams: boolean): Scan => ({
  words, wordFilter: null, countWords: true, trigrams: withTrigrams ? trigrams : null, trigramFilter: null,
  concepts: false, conceptSink: words, seen: { has: () => false, add: () => true }, limit, phrases: noPhrases, ends: noEnds, sequence,
});
const ownScan = plainScan(LABEL_WORDS, true), contextScan = plainScan(PATH_WORDS, false), labelScan = plainScan(0, false);
const linkSeen = new Set<number>();

/** Words, trigrams, sequence and link concepts packed into one Text. */
function pack(): Text {
  const w = words.length, t = w + trigrams.length, s = t + sequence.length;
  const hashes = new Int32Array(s + concepts.length);
  hashes.set(words.view(), 0);
  hashes.set(trigrams.view(), w);
  hashes.set(sequence.view(), t);
  hashes.set(concepts.view(), s);
  return new Text(hashes, w, t, s);
}

function clearScratch(): void {
  words.length = trigrams.length = sequence.length = concepts.length = 0;
}

/** The path and query of a link: "https://shop.example/cart?step=2" -> "/cart?step=2" (the tokenisers
 *  split on the punctuation). The host names the site, not the link. */
export function hrefWords(href: string): string {
  const scheme = href.indexOf('://');
  const path = scheme >= 0 ? href.indexOf('/', scheme + 3) : 0;
  if (path < 0) return '';
  const rest = href.slice(path);
  if (!rest.includes('%')) return rest;
  try { return decodeURIComponent(rest); } catch { return rest; }
}

/** A reader of one kind of text: an element's own text (its words, its trigrams of its first words and its
 *  first LABEL_WORDS words) or a section label's words. */
const reader = (scan: typeof ownScan) => (text: string): Text => {
  clearScratch();
  startText();
  scanText(text, scan);
  return pack();
};
const readOwn = reader(ownScan), readLabel = reader(labelScan);

/** A link's context: its path's words and then its nearby text's, read as one text (the first
 *  PATH_WORDS of them for phrases), and the concepts of the site it points to. */
function readContext(href: string, nearby: string): Text {
  clearScratch();
  startText();
  if (href) scanText(hrefWords(href), contextScan);
  if (nearby) scanText(nearby, contextScan);
  if (href) { linkSeen.clear(); linkConcepts(href, concepts, linkSeen); }
  return pack();
}

/** Estimated bytes a kept text holds: its key (UTF-16), its arrays and the objects and map entries
 *  around them (measured: about 800 bytes a label-sized text in all, heap and array buffers). */
const bytesOf = (key: string, t: Text) => 2 * key.length + 4 * t.hashes.length + PER_TEXT;
const PER_TEXT = 600;

/** The process's memory of texts (one: encoding is synchronous). */
class Memory {
  private readonly kinds = [new Map<string, Text>(), new Map<string, Text>(), new Map<string, Text>()];
  /** This request's texts that are not kept (too long, or past the bounds): read once per request. */
  private readonly passing = [new Map<string, Text>(), new Map<string, Text>(), new Map<string, Text>()];
  private size = 0;
  private bytes = 0;
  private table: EmbedTable | null = null;
  /** The request being encoded: a text whose `stamp` is this one was filtered in it. */
  stamp = 0;
  /** The next slot number. Slots are never given twice (what a core keeps under one is that text's)
   *  until they run out; then they start over with the texts, in a new `era` (cores forget theirs). */
  private nextSlot = 0;
  era = 0;

  /** Starts a request: starts over when the bounds were reached, the embedding table changed or
   *  `forget` says so (numbers the texts hold start over). */
  begin(table: EmbedTable | null, forget = false): void {
    // (Stamps start over with the texts: a kept text's stamp is never a later request's.)
    const slotsOut = this.nextSlot > MAX_SLOT - MAX_TEXTS;
    if (forget || this.size >= MAX_TEXTS || this.bytes >= MAX_BYTES || table !== this.table || this.stamp === MAX_STAMP || slotsOut) {
      for (const m of this.kinds) m.clear();
      this.size = this.bytes = this.stamp = 0;
      this.table = table;
      if (slotsOut) { this.nextSlot = 0; this.era++; }
    }
    for (const m of this.passing) if (m.size) m.clear();
    this.stamp++;
  }

  /** What is kept now: texts and their estimated bytes (tests check the bounds). */
  kept(): { texts: number; bytes: number } { return { texts: this.size, bytes: this.bytes }; }

  own(text: string): Text { return this.get(OWN, text, readOwn); }
  label(label: string): Text { return this.get(SECTION, label, readLabel); }
  /** A link (its token ids are its path's), by href. */
  link(href: string): Text { return this.get(LINK, href, emptyText); }

  /** A link's context with one nearby text (href '' for nearby text alone). */
  context(link: Text, href: string, nearby: string): Text {
    let t = link.near?.get(nearby);
    if (t) return t;
    t = readContext(href, nearby);
    // A link read for this request only holds its contexts for this request only.
    if (!link.kept || (href.length + nearby.length <= KEEP_CHARS && this.keeps(nearby, t))) (link.near ??= new Map()).set(nearby, t);
    return t;
  }

  private get(kind: number, key: string, read: (key: string) => Text): Text {
    const found = this.kinds[kind].get(key) ?? this.passing[kind].get(key);
    if (found) return found;
    const t = read(key);
    if (key.length <= KEEP_CHARS && this.keeps(key, t)) this.kinds[kind].set(key, t);
    else this.passing[kind].set(key, t);
    return t;
  }

  /** Whether there is room for one more text (counting it in when there is). */
  private keeps(key: string, t: Text): boolean {
    if (this.size >= MAX_TEXTS || this.bytes >= MAX_BYTES) return false;
    this.size++;
    this.bytes += bytesOf(key, t);
    return t.kept = true;
  }

  /** Room in a kept text's `keep` for `count` hashes (counted towards its bytes): one array per text,
   *  for every goal; null when it is not kept. */
  room(t: Text, count: number): Int32Array | null {
    if (!t.kept) return null;
    if (t.keep && t.keep.length >= count) return t.keep;
    t.keep = new Int32Array(Math.max(count, t.hashes.length));
    this.bytes += 4 * t.keep.length;
    return t.keep;
  }

  /** A kept text given its token ids: its slot (they count towards its bytes). At most MAX_TEXTS per
   *  request (begin leaves room for them). */
  number(t: Text): void {
    if (!t.kept) return;
    t.slot = this.nextSlot++;
    this.bytes += 4 * t.ids!.length;
  }
}

const emptyText = () => new Text(new Int32Array(0), 0, 0, 0);

export const memory = new Memory();
