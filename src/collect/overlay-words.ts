// The words of layers over the page: what says a layer is a consent banner, and what dismisses one. Read by
// the collector's overlay pass (overlays.ts: which control dismisses a layer) and by the rank core's encoder
// (src/rank/encode.ts: a control of a consent banner, a close / accept / reject control), so both read one list.
// Imports nothing: it is bundled into the in-page collector.

export const CONSENT = /\b(cookies?|consent|gdpr|privacy (?:settings|preferences)|we value your privacy|tracking technologies)\b/i;
/** Best first: close without choosing, refuse, then accept (a fresh context is discarded anyway). */
export const DISMISS = [/^(?:×|✕|✖|x|close|dismiss|not now|no,? thanks|skip)$/i, /\b(?:close|dismiss)\b/i,
  /\b(?:reject|decline|refuse|necessary only|only necessary|essential only)\b/i, /\b(?:accept|agree|allow|got it|ok|okay|i understand|continue)\b/i];
/** Any of DISMISS at once (the rank core's encoder asks only whether a label dismisses, once per control). */
export const DISMISS_ANY = new RegExp(DISMISS.map((p) => p.source).join('|'), 'i');
