// The truth both observation benches count coverage against (bench:peers, bench/name-coverage.ts): the visible
// named controls of a loaded page in Chromium's accessibility tree: a control role with a name, its box inside
// the 1280x800 viewport at scroll 0. `drawn` says whether Chromium also draws it (`checkVisibility` with
// opacity and visibility: the tree keeps a hover menu at opacity 0).
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

const CONTROL_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'switch',
  'slider', 'spinbutton', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem']);
/** How a control's name and the LLM-ready text are compared: lower case, spaces collapsed, icon-font glyphs
 *  (Unicode's private use area: an icon font's `::before` content, which the tree puts in names) left out. */
export const norm = (s: string) => s.toLowerCase().replace(/[\uE000-\uF8FF]/g, '').replace(/\s+/g, ' ').trim();
type AXNode = { ignored: boolean; role?: { value: string }; name?: { value: string }; backendDOMNodeId?: number };
/** A control: its name (normalised, first 40 characters), role, DOM node and whether it is drawn. */
export interface VisibleControl { name: string; role: string; node: number; drawn: boolean }

/** The page's visible named controls; `withDrawn` also asks Chromium whether each is drawn; `use` runs with the
 *  session before it is detached (for more questions about the nodes). */
export async function visibleNamedControls(ctx: BrowserContext, page: Page, withDrawn = false,
  use?: (cdp: CDPSession, controls: VisibleControl[]) => Promise<void>): Promise<VisibleControl[]> {
  const cdp = await ctx.newCDPSession(page);
  try {
    await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodes } = await cdp.send('Accessibility.getFullAXTree') as { nodes: AXNode[] };
    const named = nodes.filter((n) => !n.ignored && CONTROL_ROLES.has(n.role?.value ?? '') && norm(String(n.name?.value ?? '')) && n.backendDOMNodeId !== undefined);
    const boxes = await Promise.all(named.map((n) => cdp.send('DOM.getBoxModel', { backendNodeId: n.backendDOMNodeId }).catch(() => null)));
    const out: VisibleControl[] = [];
    for (const [i, n] of named.entries()) {
      const q = boxes[i]?.model.border;
      if (!q) continue;
      const xs = [q[0], q[2], q[4], q[6]], ys = [q[1], q[3], q[5], q[7]];
      const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
      if (!(x1 - x0 > 1 && y1 - y0 > 1 && x0 < 1280 && x1 > 0 && y0 < 800 && y1 > 0)) continue;
      let drawn = true;
      if (withDrawn) {
        const object = (await cdp.send('DOM.resolveNode', { backendNodeId: n.backendDOMNodeId }).catch(() => null))?.object;
        if (object?.objectId) {
          const r = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, returnByValue: true,
            functionDeclaration: 'function () { return this.checkVisibility ? this.checkVisibility({ opacityProperty: true, visibilityProperty: true }) : true; }' }).catch(() => null);
          drawn = r?.result.value !== false;
        }
      }
      out.push({ name: norm(String(n.name!.value)).slice(0, 40), role: n.role!.value, node: n.backendDOMNodeId!, drawn });
    }
    await use?.(cdp, out);
    return out;
  } finally { await cdp.detach(); }
}
