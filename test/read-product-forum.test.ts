// Read mode on product pages and forum threads: readPage on hand-written pages shaped like real ones
// (not copies of any site), and one of each through the real server's read mode.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { readPage } from '../src/observe/read/read.ts';
import { bogusCdata, extractRead } from '../src/observe/read/extract.ts';
import { isProductPage } from '../src/observe/read/extract-product.ts';
import { pageMeta, detectPageType } from '../src/observe/read/page-type.ts';
import { isForumThread, findPosts } from '../src/observe/read/extract-forum.ts';
import { sectionedRegion } from '../src/observe/read/extract-service.ts';
import { blockScores } from '../src/observe/read/extract-blocks.ts';
import { PRODUCT_BLOCK_MODEL } from '../src/observe/read/block-model.ts';
import { observe, serveSite, type ServedSite, type ServerProcess } from './helpers/server.ts';

/** A document with what it says about itself, as the detectors take them. */
const read = (d: Document): [ReturnType<typeof pageMeta>, Document] => [pageMeta(d), d];

const fixture = (name: string) => readFileSync(new URL(`./fixtures/read/${name}`, import.meta.url), 'utf8');
const PRODUCT = fixture('product.html');
const FORUM = fixture('forum.html');
const SERVICE = fixture('service.html');
const BLOCKS = fixture('product-blocks.html');
const SCRIPT_TEXT = fixture('product-script-text.html');
/** The rail of other products on product-blocks.html: no heading names it, the generic read keeps it. */
const RAIL = ['Pairs well with', 'Burr Hand Grinder', 'Gooseneck Kettle', 'Conical steel burrs', '$48.00', 'Stoneware Mug Pair'];
const DESCRIPTION = ['# Larkspur Ceramic Pour-Over Set', 'spiral ribs let air escape', 'The carafe holds 600 ml', 'like the sky it is named after'];
const doc = (html: string) => parseHTML(html).document;

describe('product pages', () => {
  test('detected from schema.org Product or og:type product, not from an article', () => {
    assert.equal(isProductPage(...read(doc(PRODUCT)), 'https://shop.example/p/trailmark-30'), true);
    const bare = PRODUCT.replace(/<script type="application\/ld\+json">.*?<\/script>/s, '').replace('content="product"', 'content="website"');
    assert.equal(isProductPage(...read(doc(bare)), 'https://shop.example/p/trailmark-30'), true, 'a product path and a cart control');
    assert.equal(isProductPage(...read(doc(bare)), 'https://shop.example/journal/packing-light'), false);
    assert.equal(isProductPage(...read(doc(fixture('article.html'))), 'https://example.com/blog/tuning'), false);
  });

  test('keeps title, price, description and specifications; drops cart controls, rails, reviews and footnotes', () => {
    const md = readPage(PRODUCT, 'https://shop.example/p/trailmark-30').content;
    assert.match(md, /^# Trailmark 30 L Daypack/m);
    assert.match(md, /\$89\.00/);
    assert.match(md, /ventilated back panel keeps air moving/);
    assert.match(md, /\| Weight \| 980 g \|/);
    assert.match(md, /Back length\n\n45 to 52 cm, adjustable/);
    for (const junk of ['Add to cart', 'Quantity', 'Only 3 left', 'Select a colour', 'You may also like', 'Summit 40 L', 'Reviews (12)', 'out of 5 stars', 'Weight measured without', 'Breadcrumb', 'Free returns', 'Customers also viewed']) {
      assert.ok(!md.includes(junk), `${junk} left out`);
    }
  });

  test('a marketing product page: its sections stay; the numbered footnotes of the footer and the disclaimer block go', () => {
    const md = readPage(fixture('product-small-print.html'), 'https://lumen.example/slate-11/').content;
    assert.match(md, /^# Lumen Slate 11/m);
    for (const kept of ['Light enough to forget', '## A screen for the outdoors', 'reaches 900 nits outdoors', 'Up to 14 hours of video playback', 'The magnetic pen clips to the side']) assert.ok(md.includes(kept), `${kept} kept`);
    for (const junk of ['Pen colours shown are for illustration', 'Battery life varies', 'Trade-in values', 'Network speeds depend', 'Copyright 2026']) assert.ok(!md.includes(junk), `${junk} left out`);
  });
  test('collapsed accordion panels and a "Product details" sheet are read; a reviews panel and a sign-up modal are not', () => {
    const md = readPage(fixture('product-panels.html'), 'https://northfold.example/products/harbor-wool-throw').content;
    assert.match(md, /^# Harbor Wool Throw/m);
    for (const kept of ['woven on a narrow loom', 'herringbone weave traps warm air', '100% undyed lambswool', '## Product details', 'tag signed by the weaver']) assert.ok(md.includes(kept), `${kept} kept`);
    for (const junk of ['the cat has claimed it', 'Ten percent off']) assert.ok(!md.includes(junk), `${junk} left out`);
  });

  test("the scripts' text goes: template slots, error and loading messages, internal field names with their values, JSON", () => {
    const md = readPage(SCRIPT_TEXT, 'https://kestrel.example/products/tidewater-tote').content;
    for (const kept of ['# Tidewater Canvas Tote', 'waxed cotton canvas that sheds a light rain', '## Specifications', 'Waxed cotton canvas, 18 oz', '42 x 36 x 14 cm', 'rewax once a year']) assert.ok(md.includes(kept), `${kept} kept`);
    for (const junk of ['${', 'maxQuantity', 'try again', 'Loading', 'there was a problem', 'Checking delivery', 'retail\\_price', '1-9 items', 'swatch', 'ochre-12', 'buybox', 'displayPrice']) assert.ok(!md.includes(junk), `${junk} left out`);
  });

  test('the block model (extract-blocks.ts) drops a rail of other products no heading names; the description stays', () => {
    const url = 'https://kitchen.example/p/larkspur';
    const { read, as } = extractRead(BLOCKS, url);
    assert.equal(as, 'product');
    // The generic read holds the rail, and the model scores each of its blocks below the threshold …
    const { document } = parseHTML(`<!doctype html><html><body>${extractRead(BLOCKS, url, 'page').read.html}</body></html>`);
    const scores = blockScores(document.body as Element, 'product');
    const rail = scores.filter((s) => RAIL.some((r) => (s.el.textContent ?? '').includes(r)));
    assert.ok(rail.length >= 6, 'the unpruned read holds the rail');
    assert.ok(rail.every((s) => s.p < PRODUCT_BLOCK_MODEL.threshold), `rail blocks score below the threshold: ${rail.map((s) => s.p.toFixed(2))}`);
    // … and the product read does not.
    const md = readPage(BLOCKS, url).content;
    for (const kept of DESCRIPTION) assert.ok(md.includes(kept), `${kept} kept`);
    for (const junk of RAIL) assert.ok(!md.includes(junk), `${junk} left out`);
    assert.ok(!read.text.includes('Gooseneck Kettle'));
    // The read as the block step gets it (the trainer's reads) still holds the rail.
    const unpruned = extractRead(BLOCKS, url, undefined, true);
    assert.equal(unpruned.as, 'product');
    assert.ok(unpruned.read.text.includes('Gooseneck Kettle') && DESCRIPTION.slice(1).every((d) => unpruned.read.text.includes(d)));
  });

  test('extractRead names the step a page took; a forced step (the oracle of wcxb-eval --oracle) reads it through that one', () => {
    const url = 'https://shop.example/p/trailmark-30';
    const detected = extractRead(PRODUCT, url);
    assert.equal(detected.as, 'product');
    assert.equal(detected.read.html.trim(), readPage(PRODUCT, url, { format: 'html', contentLimit: 500_000 }).content, 'the same read as readPage');
    for (const step of ['page', 'forum', 'listing'] as const) {
      const forced = extractRead(PRODUCT, url, step);
      assert.equal(forced.as, step);
      // Without the product step the review count and stock note stay.
      assert.ok(forced.read.text.includes('Reviews (12)') && forced.read.text.includes('Only 3 left'), `${step}: no product clean-up`);
    }
    assert.equal(extractRead(fixture('collection.html'), 'https://shop.example/collections/trail-shoes').as, 'collection');
    assert.equal(extractRead(fixture('collection.html'), 'https://shop.example/collections/trail-shoes', 'product').as, 'product');
  });

  test("a product photo stays without its alternative text", () => {
    const md = readPage(fixture('product-panels.html'), 'https://northfold.example/products/harbor-wool-throw').content;
    assert.ok(md.includes('![](https://northfold.example/img/throw-1.jpg)'), 'the picture stays');
    assert.ok(!md.includes('wooden bench'), 'its alt text goes');
  });

  test('a product streamed into a hidden segment under the body (the shell shows less) is read; a small hidden block and the menu are not', () => {
    const url = 'https://fernwick.example/products/alder-reading-chair';
    const md = readPage(fixture('product-streamed.html'), url).content;
    for (const kept of ['# Alder Reading Chair', 'mortise and tenon', 'pitched at a gentle angle', 'Solid alder, oiled', '78 x 72 x 84 cm']) assert.ok(md.includes(kept), `${kept} kept: ${md}`);
    for (const junk of ['ten percent off', 'Sectionals', 'Ottomans']) assert.ok(!md.includes(junk), `${junk} left out`);
  });

  test('one product in microdata is a product page despite a row of priced cards; a reviews heading carrying links is still a rail heading', () => {
    const url = 'https://quillstone.example/app/100/Lanternfall/';
    const html = fixture('product-microdata.html');
    const { document } = parseHTML(html);
    const type = detectPageType(pageMeta(document), url, 6, document);
    assert.equal(type.type, 'product', JSON.stringify(type));
    assert.ok(type.signals.includes('microdata:Product'));
    assert.equal(extractRead(html, url).as, 'product');
    const md = readPage(html, url).content;
    for (const kept of ['# Lanternfall', 'relight them one by one', 'redraws the shoreline', 'Twelve lighthouses']) assert.ok(md.includes(kept), `${kept} kept: ${md}`);
    // "Customer reviews for Lanternfall" is four words; the links it carries do not make it a long, own heading.
    for (const junk of ['Customer reviews', 'Very Positive', 'Filter reviews', 'Cinder Harbour']) assert.ok(!md.includes(junk), `${junk} left out`);
  });

  test("an FAQ's collapsed answers, right after their questions, are read; a hidden block after a plain label is not", () => {
    const md = readPage(fixture('product-faq.html'), 'https://cairnway.example/products/ridgeline-40').content;
    for (const kept of ['Q: Does it fit carry-on limits?', '55 x 35 x 22 cm', 'packs into the base pocket']) assert.ok(md.includes(kept), `${kept} kept: ${md}`);
    assert.ok(!md.includes('Leeds warehouse'), 'a hidden block after a label that asks nothing stays hidden');
  });

  test('on a page that is not a product, collapsed disclosure panels are read, overlays and rails are not', () => {
    const page = fixture('product-panels.html').replace(/<script type="application\/ld\+json">.*?<\/script>/s, '');
    const url = 'https://northfold.example/journal/harbor-wool-throw';
    assert.equal(extractRead(page, url).as, 'page');
    const md = readPage(page, url).content;
    for (const kept of ['herringbone weave traps warm air', 'undyed lambswool']) assert.ok(md.includes(kept), `${kept} kept: ${md}`);
    for (const junk of ['signed by the weaver', 'the cat has claimed it', 'Ten percent off']) assert.ok(!md.includes(junk), `${junk} left out: ${md}`);
  });
});

describe('forum threads', () => {
  const url = 'https://stargazers.example/t/which-first-telescope/42';

  test('a stray <![CDATA[ outside script ends at the next > (as in a browser) instead of hiding the page', () => {
    // The bogus comment ends at the first '>', even one closing a tag: what a browser shows.
    assert.equal(bogusCdata('<p>a</p>  <![CDATA[\n<div>b</div><p>c</p>'), '<p>a</p>b</div><p>c</p>');
    assert.equal(bogusCdata('<script>//<![CDATA[\nx > 1\n//]]></script>'), '<script>//<![CDATA[\nx > 1\n//]]></script>');
    assert.match(readPage(FORUM, url).content, /six inch Dobsonian/);
  });

  test('detected by thread URL or schema.org; the repeated post containers are found', () => {
    assert.equal(isForumThread(...read(doc(FORUM)), url), true);
    assert.equal(isForumThread(...read(doc(FORUM)), 'https://stargazers.example/about'), false);
    const marked = '<html><head><script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"x"}</script></head><body></body></html>';
    assert.equal(isForumThread(...read(doc(marked)), 'https://example.com/x'), true);
    assert.equal(findPosts(doc(bogusCdata(FORUM)).body as Element).length, 3);
  });

  test('keeps every post, in order, with its author and time; drops avatars, ranks, buttons and the sidebar', () => {
    const md = readPage(FORUM, url).content;
    const authors = ['orion\\_fan · Mar 2, 2026', 'dobson\\_dan · Mar 2, 2026', 'lunar\\_lee · Mar 3, 2026'].map((a) => md.indexOf(a));
    assert.ok(authors.every((i) => i >= 0), md);
    assert.deepEqual([...authors].sort((a, b) => a - b), authors, 'posts in order');
    assert.ok(md.indexOf('four hundred dollars') > authors[0] && md.indexOf('four hundred dollars') < authors[1]);
    assert.ok(md.indexOf('Barlow lens') > authors[2]);
    for (const junk of ['New member', 'Senior member', 'Moderator', 'Like', 'Reply', 'Share', 'Similar threads', 'Binoculars for beginners', 'Terms', '#2']) {
      assert.ok(!md.includes(junk), `${junk} left out`);
    }
  });

  test('schema.org posts (microdata) are found without post class names', () => {
    const post = (who: string, when: string, text: string) => `<div itemscope itemtype="https://schema.org/Comment"><span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">${who}</span></span> <span class="rank">Veteran</span> <time datetime="${when}">${when}</time><div itemprop="text"><p>${text}</p></div><span>Quote</span></div>`;
    const html = `<html><head><title>Thread</title></head><body><div class="wrap">${post('ann', '2026-01-01', 'The first post asks how long sourdough starter keeps in the fridge between bakes.')}${post('bob', '2026-01-02', 'About a week without feeding, longer if you feed it before it goes back in.')}</div></body></html>`;
    const md = readPage(html, 'https://bakers.example/threads/starter.9/').content;
    assert.match(md, /ann · 2026-01-01\n\nThe first post asks/);
    assert.match(md, /bob · 2026-01-02\n\nAbout a week/);
    assert.ok(!md.includes('Veteran') && !md.includes('Quote'), md);
  });
});

describe('service pages', () => {
  test('sibling headed sections with no main region: the best section widens to all of them', () => {
    const d = doc(SERVICE);
    const how = d.querySelector('section.how')!;
    assert.equal(sectionedRegion(how.querySelector('p')!, d.body as Element), d.body);
    // Two sections are not a sectioned page; a section among link lists is not either.
    const two = doc('<html><body><section><h2>A</h2><p>one</p></section><section><h2>B</h2><p>two</p></section></body></html>');
    assert.equal(sectionedRegion(two.querySelector('p')!, two.body as Element), null);
    const md = readPage(SERVICE, 'https://ledger.example/').content;
    for (const kept of ['# Bookkeeping that closes your month', '## Why shops switch to us', 'Bank feeds from over forty banks', '> We used to lose two weekends', 'Mira Kovacs']) assert.ok(md.includes(kept), kept);
    for (const junk of ['Log in', 'Pricing', '© 2026', 'Privacy', 'Terms']) assert.ok(!md.includes(junk), `${junk} left out`);
  });
});

describe('through the server read mode', () => {
  let served: ServedSite | undefined;
  let site: string;
  let server: ServerProcess;
  let key: string;
  before(async () => {
    served = await serveSite((req, res) => {
      const body = req.url === '/p/trailmark-30' ? PRODUCT : req.url === '/p/larkspur' ? BLOCKS : req.url === '/p/tidewater-tote' ? SCRIPT_TEXT : req.url === '/products/alder-reading-chair' ? fixture('product-streamed.html') : req.url === '/app/100/Lanternfall/' ? fixture('product-microdata.html') : req.url === '/t/which-first-telescope/42' ? FORUM : null;
      res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body ?? '');
    }, ['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000'], 100);
    ({ site, server, key } = served);
  });
  after(async () => {
    await served?.stop();
  });

  test('a product page and a forum thread read as the extraction above', async () => {
    const product = await observe(server, key, { url: `${site}/p/trailmark-30` });
    assert.equal(product.status, 200, JSON.stringify(product.body));
    assert.equal(product.body.content, readPage(PRODUCT, `${site}/p/trailmark-30`).content);
    assert.ok(!product.body.content.includes('Add to cart') && product.body.content.includes('| Volume | 30 litres |'));
    const blocks = await observe(server, key, { url: `${site}/p/larkspur` });
    assert.equal(blocks.status, 200);
    assert.ok(DESCRIPTION.every((d) => blocks.body.content.includes(d)) && !RAIL.some((r) => blocks.body.content.includes(r)), blocks.body.content);
    const tote = await observe(server, key, { url: `${site}/p/tidewater-tote` });
    assert.equal(tote.status, 200);
    assert.ok(tote.body.content.includes('riveted through the canvas') && !/try again|maxQuantity|retail\\_price|displayPrice/.test(tote.body.content), tote.body.content);
    // Streamed into a hidden segment under the body; one product in microdata with a reviews heading carrying links.
    const chair = await observe(server, key, { url: `${site}/products/alder-reading-chair` });
    assert.equal(chair.status, 200);
    assert.ok(chair.body.content.includes('mortise and tenon') && chair.body.content.includes('78 x 72 x 84 cm') && !chair.body.content.includes('Sectionals'), chair.body.content);
    const game = await observe(server, key, { url: `${site}/app/100/Lanternfall/` });
    assert.equal(game.status, 200);
    assert.ok(game.body.content.includes('redraws the shoreline') && !/Customer reviews|Filter reviews/.test(game.body.content), game.body.content);
    const thread = await observe(server, key, { url: `${site}/t/which-first-telescope/42` });
    assert.equal(thread.status, 200);
    assert.match(thread.body.content, /dobson\\_dan · Mar 2, 2026\n\nFor planets at that budget/);
  });
});
