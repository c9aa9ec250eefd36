// Role resolution: the one table of roles and their bands, and how a raw element gets its role.
// Order of evidence: a known explicit ARIA `role` attribute, then the native semantics of the tag
// (and input type), then a role the collector inferred, then `generic`. docs/ranking.md mirrors this
// table; a test keeps the two in step.
import { Band, Kind } from '../../assembly/layout.ts';

/** Every role the core knows, with its band (the importance tier) and kind (what a goal's verb asks
 *  for: type into, press, open, choose). The index is the role code. */
export const ROLES = [
  // form inputs
  { role: 'textbox', band: Band.INPUT, kind: Kind.TEXT_INPUT },
  { role: 'searchbox', band: Band.INPUT, kind: Kind.TEXT_INPUT },
  { role: 'combobox', band: Band.INPUT, kind: Kind.TEXT_INPUT },
  { role: 'listbox', band: Band.INPUT, kind: Kind.CHOICE },
  { role: 'checkbox', band: Band.INPUT, kind: Kind.CHOICE },
  { role: 'radio', band: Band.INPUT, kind: Kind.CHOICE },
  { role: 'switch', band: Band.INPUT, kind: Kind.CHOICE },
  { role: 'slider', band: Band.INPUT, kind: Kind.OTHER },
  { role: 'spinbutton', band: Band.INPUT, kind: Kind.OTHER },
  // interactive controls
  { role: 'button', band: Band.CONTROL, kind: Kind.BUTTON },
  { role: 'tab', band: Band.CONTROL, kind: Kind.LINK },
  { role: 'menuitem', band: Band.CONTROL, kind: Kind.BUTTON },
  { role: 'menuitemcheckbox', band: Band.CONTROL, kind: Kind.CHOICE },
  { role: 'menuitemradio', band: Band.CONTROL, kind: Kind.CHOICE },
  { role: 'option', band: Band.CONTROL, kind: Kind.CHOICE },
  { role: 'treeitem', band: Band.CONTROL, kind: Kind.LINK },
  { role: 'gridcell', band: Band.CONTROL, kind: Kind.OTHER },
  // content navigation links
  { role: 'link', band: Band.LINK, kind: Kind.LINK },
  // static informational content
  { role: 'heading', band: Band.STATIC, kind: Kind.STATIC },
  { role: 'img', band: Band.STATIC, kind: Kind.STATIC },
  { role: 'group', band: Band.STATIC, kind: Kind.STATIC },
  { role: 'dialog', band: Band.STATIC, kind: Kind.STATIC },
  { role: 'navigation', band: Band.STATIC, kind: Kind.STATIC },
  { role: 'form', band: Band.STATIC, kind: Kind.STATIC },
  { role: 'listitem', band: Band.STATIC, kind: Kind.STATIC },
  { role: 'label', band: Band.STATIC, kind: Kind.STATIC },
  { role: 'paragraph', band: Band.STATIC, kind: Kind.STATIC },
  { role: 'iframe', band: Band.STATIC, kind: Kind.STATIC },
  { role: 'generic', band: Band.STATIC, kind: Kind.STATIC },
] as const;

export type RoleName = (typeof ROLES)[number]['role'];

const CODE = new Map<string, number>(ROLES.map((r, i) => [r.role, i]));
export const GENERIC = CODE.get('generic')!;

/** Role code of a role name, or -1 when the core does not know it. */
export function roleCode(role: string): number {
  return CODE.get(role) ?? -1;
}

/** Native role of an <input> by its type. */
const INPUT_ROLES = new Map<string, RoleName>(Object.entries({
  button: 'button', submit: 'button', reset: 'button', image: 'button', file: 'button', color: 'button',
  checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox',
} as Record<string, RoleName>));

/** Native role of a tag (inputs and anchors are resolved separately). */
const TAG_ROLES = new Map<string, RoleName>(Object.entries({
  button: 'button', summary: 'button', textarea: 'textbox', select: 'combobox', option: 'option',
  img: 'img', svg: 'img', canvas: 'img', picture: 'img', video: 'img',
  h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading',
  details: 'group', fieldset: 'group', dialog: 'dialog', nav: 'navigation', form: 'form',
  li: 'listitem', label: 'label', p: 'paragraph', iframe: 'iframe', frame: 'iframe',
} as Record<string, RoleName>));

// The same tables as role codes: one map lookup per element instead of two.
const codesOf = (roles: Map<string, RoleName>) => new Map([...roles].map(([k, role]) => [k, CODE.get(role)!]));
const INPUT_CODES = codesOf(INPUT_ROLES), TAG_CODES = codesOf(TAG_ROLES);
const TEXTBOX = CODE.get('textbox')!, LINK = CODE.get('link')!;

/**
 * Role code of an element.
 * @param tag lower-case tag name
 * @param inputType the input's `type` (for <input>)
 * @param explicitRole the element's `role` attribute
 * @param inferredRole a role the collector inferred (used only when the tag has no native role)
 * @param hasHref whether the element has an href (an <a> without one is not a link)
 */
export function resolveRole(tag: string, inputType: string, explicitRole: string, inferredRole: string, hasHref: boolean): number {
  if (explicitRole) {
    // role="button link" lists fallbacks: the first known token wins
    for (const token of explicitRole.toLowerCase().split(/\s+/)) {
      const code = CODE.get(token);
      if (code !== undefined) return code;
    }
  }
  let native: number | undefined;
  if (tag === 'input') {
    const type = inputType.toLowerCase();
    native = INPUT_CODES.get(type) ?? (type === 'hidden' ? GENERIC : TEXTBOX);
  } else if (tag === 'a' || tag === 'area') native = hasHref ? LINK : undefined;
  else native = TAG_CODES.get(tag);
  if (native !== undefined) return native;
  if (inferredRole) {
    const code = CODE.get(inferredRole.toLowerCase());
    if (code !== undefined) return code;
  }
  return GENERIC;
}
