// Diagnostics: how far an agent can trust this snapshot, and whether it should look at pixels instead.
// confidence starts at 1 and loses a fixed amount per reason; each reason is named in `reasons`.
import type { Diagnostics } from '../schema/snapshot.ts';
import type { Encoded } from './encode.ts';
import type { Decoded } from './decode.ts';

/** Below this many ms without DOM mutations the page is still changing. */
export const MIN_QUIET_MS = 300;
/** Canvas-like content covering this share of the viewport, with few controls, needs vision. */
export const CANVAS_SHARE = 0.4;
const FEW_CONTROLS = 5;

const PENALTIES = {
  page_not_ready: 0.25,
  dom_unstable: 0.15,
  no_elements: 0.6,
  no_interactive_elements: 0.3,
  captcha_detected: 0.5,
  modal_blocking: 0.1,
  canvas_heavy: 0.3,
} as const;

export function diagnose(enc: Encoded, dec: Decoded): Diagnostics {
  const { request } = enc;
  const metrics = request.client_metrics;
  const captcha = request.client_diagnostics?.captcha ?? null;
  const reasons: (keyof typeof PENALTIES)[] = [];
  if (metrics?.ready_state && metrics.ready_state !== 'complete') reasons.push('page_not_ready');
  if (metrics?.quiet_ms != null && metrics.quiet_ms < MIN_QUIET_MS) reasons.push('dom_unstable');
  if (enc.elements.length === 0) reasons.push('no_elements');
  else if (enc.interactiveCount === 0) reasons.push('no_interactive_elements');
  if (captcha?.detected) reasons.push('captcha_detected');
  if (dec.modal_grids?.some((m) => m.blocks_interaction)) reasons.push('modal_blocking');
  const viewportArea = dec.viewport.width * dec.viewport.height;
  const canvasHeavy = enc.canvasArea >= CANVAS_SHARE * viewportArea && enc.interactiveCount < FEW_CONTROLS;
  if (canvasHeavy) reasons.push('canvas_heavy');

  const confidence = reasons.reduce((c, r) => c - PENALTIES[r], 1);
  const requiresVision = canvasHeavy || !!captcha?.detected;
  return {
    confidence: Math.max(0, Math.round(confidence * 100) / 100),
    reasons,
    metrics: {
      ready_state: metrics?.ready_state ?? null,
      quiet_ms: metrics?.quiet_ms ?? null,
      node_count: metrics?.node_count ?? null,
      interactive_count: enc.interactiveCount,
      raw_elements_count: enc.elements.length,
    },
    captcha,
    requires_vision: requiresVision,
    requires_vision_reason: canvasHeavy ? 'canvas_heavy' : captcha?.detected ? 'captcha_detected' : null,
  };
}
