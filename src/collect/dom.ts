// Type tests that hold across realms: elements of a same-origin frame are walked from the top window,
// where `el instanceof HTMLInputElement` is false for them (each window has its own constructors).

interface Tags { INPUT: HTMLInputElement; TEXTAREA: HTMLTextAreaElement; SELECT: HTMLSelectElement; BUTTON: HTMLButtonElement; A: HTMLAnchorElement; DETAILS: HTMLDetailsElement; SUMMARY: HTMLElement }

export function isTag<T extends keyof Tags>(el: Element, tag: T): el is Element & Tags[T] {
  return el.tagName === tag;
}

export function isShadowRoot(node: Node): node is ShadowRoot {
  return node.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in node;
}
