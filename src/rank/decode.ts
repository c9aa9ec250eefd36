// The decoder: builds SPEC snapshot elements from the core's outputs, only for the selected elements
// (plus REMOVED ones from the previous snapshot). Strings come from the request, numbers from the core.
import { Buf, F64In, I32In, F64Out, I32Out, Param, OutFlag, Diff, ModalField } from '../../assembly/layout.ts';
import type { SnapshotElement, ModalGrid, DiffStatus, RawElement } from '../schema/snapshot.ts';
import { ROLES } from './roles.ts';
import { normalizeText, accessibleName, isTrue, isDisabled } from './text.ts';
import type { CoreBackend } from './backend.ts';
import type { Encoded } from './encode.ts';

const DIFF_NAMES: (DiffStatus | undefined)[] = [undefined, 'ADDED', 'REMOVED', 'MODIFIED', 'MOVED'];

export interface Decoded {
  viewport: { width: number; height: number };
  elements: SnapshotElement[];
  dominant_group_key: string | null;
  modal_detected: boolean;
  modal_grids: ModalGrid[] | null;
  /** Elements that passed the filters, before the limit. */
  matched: number;
  /** The goal rerank's outcome (goal given). */
  rerank: { applied: boolean; topProbability: number } | null;
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

const round3 = (v: number) => Math.round(v * 1000) / 1000;
const str = (v: unknown) => (v == null ? undefined : String(v));

export function decode(core: CoreBackend, enc: Encoded, selected: number): Decoded {
  const n = enc.elements.length;
  const f = core.f64(Buf.IN_F64);
  const c = core.i32(Buf.IN_I32);
  const fo = core.f64(Buf.OUT_F64);
  const co = core.i32(Buf.OUT_I32);
  const order = core.i32(Buf.ORDER);
  const params = core.f64(Buf.PARAMS);
  const diffing = enc.previous.length > 0;
  const goal = params[Param.HAS_GOAL] !== 0;

  const groupKey = (i: number): string => {
    const e = enc.elements[i];
    return e.group_key ? e.group_key : `x${co[I32Out.GROUP_A * n + i]}-h${co[I32Out.GROUP_B * n + i]}`;
  };

  const elements: SnapshotElement[] = [];
  for (let k = 0; k < selected; k++) {
    const i = order[k];
    const e: RawElement = enc.elements[i];
    const a = e.attributes;
    const out = co[I32Out.FLAGS * n + i];
    const el: SnapshotElement = {
      id: e.id,
      role: ROLES[enc.roles[i]].role,
      text: normalizeText(e.text),
      importance: co[I32Out.IMPORTANCE * n + i],
      bbox: { x: f[F64In.X * n + i], y: f[F64In.Y * n + i], width: f[F64In.W * n + i], height: f[F64In.H * n + i] },
      visual_cues: {
        is_primary: (out & OutFlag.PRIMARY) !== 0,
        is_clickable: (out & OutFlag.CLICKABLE) !== 0,
        background_color_name: core.colorNames[co[I32Out.COLOR * n + i]],
      },
      in_viewport: (out & OutFlag.IN_VIEWPORT) !== 0,
      is_occluded: (out & OutFlag.OCCLUDED) !== 0,
      z_index: c[I32In.Z * n + i],
      center_x: round6(fo[F64Out.CENTER_X * n + i]),
      center_y: round6(fo[F64Out.CENTER_Y * n + i]),
      doc_y: round6(fo[F64Out.DOC_Y * n + i]),
      group_key: groupKey(i),
      group_index: co[I32Out.GROUP_INDEX * n + i],
      in_dominant_group: (out & OutFlag.IN_DOMINANT) !== 0,
    };
    const name = normalizeText(accessibleName(a));
    if (name) el.name = name;
    if (a) {
      const redacted = a.value_redacted != null && isTrue(a.value_redacted);
      // A value the caller's collector marked redacted is never echoed back: it would reach logs and prompts.
      if (a.value != null && !redacted) el.value = a.value;
      const inputType = a.input_type ?? a.type_;
      if (inputType) el.input_type = inputType;
      if (a.value_redacted != null) el.value_redacted = redacted;
      // The state a person sees: the native one, else an ARIA widget's (a role=checkbox or switch has
      // only aria-checked; "mixed" is not checked, and aria_checked keeps the tri-state).
      const checked = a.checked ?? a.aria_checked;
      if (checked != null) el.checked = isTrue(checked);
      if (a.disabled != null || a.aria_disabled != null) el.disabled = isDisabled(a);
      if (a.aria_expanded != null) el.expanded = isTrue(a.aria_expanded);
      if (a.aria_checked != null) el.aria_checked = String(a.aria_checked);
      if (a.aria_disabled != null) el.aria_disabled = String(a.aria_disabled);
      if (a.aria_expanded != null) el.aria_expanded = String(a.aria_expanded);
      if (a.href) el.href = a.href;
      const nearby = normalizeText(a.nearby_text);
      if (nearby) el.nearby_text = nearby;
    }
    if (goal) {
      el.ml_score = round6(fo[F64Out.ML_SCORE * n + i]);
      el.ml_probability = round6(fo[F64Out.ML_PROB * n + i]);
      el.heuristic_index = co[I32Out.HEURISTIC_INDEX * n + i];
      el.fused_rank_index = co[I32Out.FUSED_INDEX * n + i];
    }
    if (diffing) {
      const status = DIFF_NAMES[co[I32Out.DIFF * n + i]];
      if (status) el.diff_status = status;
    }
    elements.push(el);
  }

  if (diffing) appendRemoved(core, enc, elements);

  const dominant = params[Param.OUT_DOMINANT];
  const modalCount = params[Param.OUT_MODALS];
  const modals = core.f64(Buf.MODALS);
  const grids: ModalGrid[] = [];
  for (let m = 0; m < modalCount; m++) {
    const at = (field: ModalField) => modals[m * ModalField.COUNT + field];
    grids.push({
      bounds: { x: at(ModalField.X), y: at(ModalField.Y), width: at(ModalField.W), height: at(ModalField.H) },
      z_index: at(ModalField.Z),
      viewport_coverage: round3(at(ModalField.COVERAGE)),
      blocks_interaction: at(ModalField.BLOCKS) !== 0,
    });
  }
  return {
    viewport: { width: params[Param.OUT_VIEWPORT_W], height: params[Param.OUT_VIEWPORT_H] },
    elements,
    dominant_group_key: dominant >= 0 ? groupKey(dominant) : null,
    modal_detected: grids.length > 0,
    modal_grids: grids.length > 0 ? grids : null,
    matched: params[Param.OUT_MATCHED],
    rerank: goal ? { applied: params[Param.OUT_RERANK_APPLIED] !== 0, topProbability: params[Param.OUT_TOP_PROB] } : null,
  };
}

/** Previous elements nobody matched, as REMOVED entries after the ranked ones (at most `limit`). */
function appendRemoved(core: CoreBackend, enc: Encoded, elements: SnapshotElement[]): void {
  const matched = core.i32(Buf.PREV_OUT);
  let added = 0;
  for (let p = 0; p < enc.previous.length && added < enc.limit; p++) {
    if (matched[p] !== 0) continue;
    const e = enc.previous[p];
    const r = e.rect ?? e.bbox ?? { x: 0, y: 0, width: 0, height: 0 };
    elements.push({
      id: e.id,
      role: ROLES[enc.prevRoles[p]].role,
      text: normalizeText(e.text),
      importance: 0,
      bbox: { x: r.x, y: r.y, width: r.width, height: r.height },
      visual_cues: { is_primary: false, is_clickable: false, background_color_name: core.colorNames[0] },
      in_viewport: false,
      is_occluded: false,
      z_index: 0,
      diff_status: DIFF_NAMES[Diff.REMOVED],
    });
    added++;
  }
}
