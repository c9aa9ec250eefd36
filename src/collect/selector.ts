// A CSS selector that finds an element again (observe's `element_shape: "dom"`). Inside its own
// document the selector is plain CSS (`document.querySelector` finds it). An element in a shadow tree
// gets its host's selector, a space, then its path inside the tree: Playwright's CSS engine pierces open
// shadow roots, querySelector does not. An element inside frames also gets `frames`: the selectors of
// the iframe elements leading to its document, outermost first.
import { isShadowRoot } from './dom.ts';

export interface ElementSelector { selector: string; frames: string[] }

const unique = (root: Document | ShadowRoot, selector: string) => {
  try { return root.querySelectorAll(selector).length === 1; } catch { return false; }
};

/** The path of `el` within its own tree (document or shadow root), anchored at a unique id if any. */
function pathInTree(el: Element): { path: string; root: Node } {
  const parts: string[] = [];
  let node: Element | null = el;
  const root = el.getRootNode() as Document | ShadowRoot;
  while (node) {
    if (node.id && unique(root, `#${CSS.escape(node.id)}`)) { parts.unshift(`#${CSS.escape(node.id)}`); break; }
    if (node.localName === 'body' && !node.parentElement?.parentElement) { parts.unshift('body'); break; }
    const tag = CSS.escape(node.localName);
    const parent: Element | null = node.parentElement;
    const siblings = parent ? parent.children : (root as ParentNode).children;
    let index = 0, count = 0;
    for (const s of siblings) {
      if (s.localName !== node.localName) continue;
      count++;
      if (s === node) index = count;
    }
    parts.unshift(count > 1 ? `${tag}:nth-of-type(${index})` : tag);
    node = parent;
  }
  return { path: parts.join(' > '), root };
}

/** Selector within the element's document, crossing shadow boundaries with a descendant space. */
function inDocument(el: Element): string {
  const { path, root } = pathInTree(el);
  return isShadowRoot(root) ? `${inDocument(root.host)} ${path}` : path;
}

export function selectorFor(el: Element): ElementSelector {
  const frames: string[] = [];
  // Same-origin frames up to this collector's document (a cross-origin parent reads as null).
  for (let doc = el.ownerDocument; doc !== document; ) {
    const frame = doc.defaultView?.frameElement;
    if (!frame) break;
    frames.unshift(inDocument(frame));
    doc = frame.ownerDocument;
  }
  return { selector: inDocument(el), frames };
}
