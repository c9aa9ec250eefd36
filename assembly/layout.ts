// The contract between the rank core and its JS door (src/rank): buffer ids, column indices, flag
// bits and codes. Plain enums only, so the same file compiles as AssemblyScript and as TypeScript.
// Each per-element buffer holds its columns back to back: column c of n elements starts at c * n.

/** Buffers the core allocates in `prepare`; the JS side reads/writes them through views. */
export enum Buf {
  IN_F64,      // F64In columns, written by the encoder
  IN_I32,      // I32In columns, written by the encoder
  OUT_F64,     // F64Out columns, written by the core
  OUT_I32,     // I32Out columns, written by the core
  ORDER,       // indices of the selected elements, best first (length n; `run` returns how many)
  PREV_F64,    // F64Prev columns of the previous snapshot (diff)
  PREV_I32,    // I32Prev columns of the previous snapshot (diff)
  PREV_OUT,    // 1 where a previous element was matched, 0 where it is REMOVED
  PARAMS,      // Param values
  ROLE_ALLOW,  // 1/0 per role code: options.filter.allowed_roles
  TAG_ALLOW,   // 1/0 per interned tag: options.filter.allowed_tags
  MODALS,      // MAX_MODALS records of ModalField values
  TOKENS,      // i32 word and trigram hashes of every element that the goal holds, spans given by I32In.*_START/*_LEN
  GOAL,        // i32 goal word hashes, then goal trigram hashes (Param.GOAL_WORDS, GOAL_TRIGRAMS)
  WEIGHTS,     // f64 rerank model weights, one per Feature
  FEATURES,    // f64 n x Feature.COUNT rerank features, written only when Param.EMIT_FEATURES = 1
  EMB_IDS,     // i32 table rows of the goal's tokens (Param.EMB_GOAL_LEN) then the elements' spans (I32In.EMB_*)
  EMB_TABLE,   // i8 the goal-embedding table, row after row (held across requests: loadTable, not prepare)
  EMB_TABLE_SCALES, // f64 one scale per row of EMB_TABLE (held across requests)
  EMB_SLOTS,   // i32 beside EMB_IDS: at a span's start, 1 + the door's slot of its text (0: none), whose cosine the core keeps across requests (Param.EMB_EPOCH)
  COUNT,
}

export enum F64In {
  X, Y, W, H,            // rect in viewport coordinates (sanitised: finite, sizes >= 0)
  CENTER_X, CENTER_Y,    // as sent when Flag.CENTER_SENT
  DOC_Y,                 // as sent when Flag.DOC_Y_SENT
  SCROLL_Y,
  COUNT,
}

export enum I32In {
  ROLE,       // role code (src/rank/roles.ts)
  BAND,       // Band of the role
  TAG,        // interned tag id (for allowed_tags)
  FLAGS,      // Flag bits
  Z,          // CSS z-index ("auto" = 0)
  BG,         // background colour, packed r | g << 8 | b << 16 | a << 24 (alpha 0..255)
  TEXT_LEN,   // length of the visible text or accessible name
  GROUP_A,    // client group key: x bucket, or interned key id when Flag.GROUP_OPAQUE
  GROUP_B,    // client group key: height bucket
  KEY_ID,     // interned element id (diff only)
  KEY_IDENT,  // interned identity: role + text + name (diff only)
  KEY_STATE,  // interned state: value, checked, disabled, expanded... (diff only)
  KIND,       // Kind of control, for the goal's intent
  OWN_START, OWN_LEN,   // the element's own word hashes in TOKENS (text, name, aria label, placeholder, value): those the goal holds
  CTX_START, CTX_LEN,   // context word hashes (href words, nearby text) the goal holds
  TRI_START, TRI_LEN,   // character trigram hashes of its own words the goal holds
  OWN_COUNT,  // how many distinct own word (and concept) hashes it has in all, kept or not
  TRI_COUNT,  // how many distinct trigram hashes it has in all, when the goal holds any (else 0)
  SEC_START, SEC_LEN,   // word hashes of the section it sits in (attributes.section) the goal holds; 0 length: none
  SEC_ID,               // 1 + interned section label, 0 when not sent (the core then infers one from headings)
  TEXT_KEY,   // 1 + interned label (text or accessible name, as sent), 0 without one: a span repeating its control's words (select.ts)
  EMB_OWN_START, EMB_OWN_LEN,   // the embedding tokens of its own text in EMB_IDS (elements with one text share one span)
  EMB_LINK_START, EMB_LINK_LEN, // of its link's path and query
  EMB_SEC_START, EMB_SEC_LEN,   // of the section label the client sent (an inferred section uses its heading's own span)
  LIST_ID,    // 1 + interned list_id the client sent (repeated items: src/collect/lists.ts), 0 when not sent: positions from geometry
  LIST_INDEX, // with LIST_ID: 1-based place of its item in the list
  LIST_SIZE,  // with LIST_ID: items in the list
  COUNT,
}

export enum F64Out {
  CENTER_X, CENTER_Y, DOC_Y,
  ML_SCORE,     // rerank model score (logit), goal given
  ML_PROB,      // sigmoid(ML_SCORE), for the selected elements (ORDER) only
  FUSED,        // ML_SCORE + fusion * importance / 1000 (logit space)
  SCORE,        // the importance score before it becomes importance (score.ts importanceOf): the rerank's feature
  COUNT,
}

export enum I32Out {
  IMPORTANCE,   // 0..1000
  FLAGS,        // OutFlag bits
  COLOR,        // palette index of the background colour (assembly/palette.ts)
  GROUP_A,      // group key x bucket (or opaque id)
  GROUP_B,      // group key height bucket
  GROUP_INDEX,  // 0-based rank by doc_y inside the group
  DIFF,         // Diff code
  HEURISTIC_INDEX,  // 0-based rank by importance among the elements that pass the filters (goal given)
  FUSED_INDEX,      // 0-based rank by the fused score (goal given)
  COUNT,
}

/** SCROLL_Y: the page's scroll when the previous element was collected (its box is on the screen then). */
export enum F64Prev { X, Y, W, H, SCROLL_Y, COUNT }
export enum I32Prev { KEY_ID, ROLE, KEY_IDENT, KEY_STATE, COUNT }

export enum Param {
  VIEWPORT_W,   // 0 = derive from element bounds
  VIEWPORT_H,
  LIMIT,        // already defaulted and capped by the JS door
  MIN_AREA,     // 0 = no filter
  FILTER_ROLES, // 1 = ROLE_ALLOW applies
  FILTER_TAGS,  // 1 = TAG_ALLOW applies
  HAS_PREVIOUS, // 1 = run the diff
  HAS_GOAL,     // 1 = run the rerank
  GOAL_WORDS,   // goal word hashes at the start of GOAL
  GOAL_TRIGRAMS,// goal trigram hashes after them
  GOAL_CONCEPTS,// goal concept hashes (web-intent lexicon) after the trigrams
  GOAL_LIST_WORDS, // word hashes of the list the goal names for its position ("in the Sport menu"), after the concepts
  GOAL_NOUN_WORDS, // word hashes of the item noun after the position ("the second FAQ question"), after the list's
  INTENT,       // Intent bits of the goal
  ORDINAL,      // position the goal asks for: 1-based, -1 for last, 0 for none
  MIN_CONFIDENCE, // the top probability must reach this for the rerank to reorder
  FUSION,       // weight of heuristic importance (0..1000 scaled to 0..1) added to the model's logit
  EMIT_FEATURES,// 1 = write FEATURES (training)
  EMB_DIM,      // values per row of EMB_TABLE; 0 = no embedding table (the EMB_* features stay 0)
  EMB_GOAL_LEN, // the goal's tokens at the start of EMB_IDS
  EMB_EPOCH,    // the door's epoch: a kept cosine counts only when computed in the same epoch (same goal, same slots)
  KEEP_BELOW,   // below this top probability the goal's order keeps the no-goal top KEEP_COUNT visible controls within LIMIT
  KEEP_COUNT,
  // outputs
  OUT_VIEWPORT_W,
  OUT_VIEWPORT_H,
  OUT_DOMINANT,   // index of an element of the dominant group, -1 when there is none
  OUT_MODALS,     // number of ModalField records written
  OUT_MATCHED,    // elements that passed the filters (before the limit)
  OUT_RERANK_APPLIED, // 1 when the fused order was used
  OUT_TOP_PROB,   // highest ML_PROB among the elements that pass the filters
  COUNT,
}

/** What a goal asks to do (bits), from its verbs. */
export enum Intent { TYPE = 1, PRESS = 2, OPEN = 4, CHOOSE = 8 }

/** The kind of control an element is, to meet the goal's intent. */
export enum Kind { STATIC = 0, TEXT_INPUT = 1, BUTTON = 2, LINK = 3, CHOICE = 4, OTHER = 5 }

/** Rerank features, in WEIGHTS and FEATURES order (assembly/rerank.ts computes them). */
export enum Feature {
  BIAS,
  OWN_RECALL,       // share of the goal's words in the element's own words
  OWN_PRECISION,    // share of the element's own words that are in the goal
  CTX_RECALL,       // share of the goal's words found only in its href and nearby text, not its own words
  TRI_RECALL,       // share of the goal's trigrams in the element's own trigrams
  TRI_PRECISION,    // share of the element's trigrams in the goal's
  INTENT_MATCH,     // the goal's intent asks for this kind of control
  INTENT_OTHER,     // the goal has an intent, and this control is of another kind
  KIND_TEXT_INPUT, KIND_BUTTON, KIND_LINK, KIND_CHOICE, KIND_STATIC,
  ORDINAL_MATCH,    // the goal names a position, and this element is at it in its list
  ORDINAL_GROUP,    // the goal names a position, and this element is an item of a list
  IMPORTANCE,       // heuristic importance / 1000
  IN_VIEWPORT,
  OCCLUDED,
  DISABLED,
  NO_WORDS,         // the element has no words of its own
  CONCEPT_OWN,      // share of the goal's concepts (web-intent lexicon, any language) its text or labels name
  CONCEPT_LINK,     // share its link names: the site, a share intent, mailto/tel, its path words
  SECTION_RECALL,   // share of the goal's words in the label of the section it sits in (sent or inferred)
  SECTION_ORDINAL,  // the goal names a position in a list ("the third link in the Sport menu"), this element's section is that list, and it is at that position among the section's controls of its kind
  EMB_OWN,          // cosine of the goal's and its own text's mean token vectors (goal-embedding table)
  EMB_LINK,         // the same with its link's path and query
  EMB_SECTION,      // the same with the label of the section it sits in
  ORDINAL_MAIN,     // the goal names a position and no list, and this element is at it in the page's main list (the largest sent list read down the page)
  COUNT,
}

export enum ModalField { X, Y, W, H, Z, COVERAGE, BLOCKS, COUNT }
export const MAX_MODALS = 8;

/** Role bands: the tier of an element's importance (SPEC "Importance ranking"). */
export enum Band { STATIC = 0, LINK = 1, CONTROL = 2, INPUT = 3 }
/** Chars: a link or control with a longer label is content, not a primary action (the core promotes none;
 *  the encoder reads no action words in it). */
export const ACTION_LABEL_MAX = 40;

export enum Flag {
  VIEWPORT_SENT = 1,
  IN_VIEWPORT = 2,
  OCCLUDED_SENT = 4,
  OCCLUDED = 8,
  DISABLED = 16,
  HIDDEN = 32,          // display:none, visibility:hidden/collapse, opacity 0, input type=hidden
  CURSOR_POINTER = 64,
  PRIMARY_HINT = 128,   // submit button, or a class such as "primary"/"cta"
  CENTER_SENT = 256,
  DOC_Y_SENT = 512,
  GROUP_SENT = 1024,
  GROUP_OPAQUE = 2048,  // the client's group key is not of the form x{a}-h{b}
  HAS_TEXT = 4096,      // visible text or an accessible name
  HEADING = 8192,       // a heading (h1-h6, role=heading): opens a section when the client sends none
  SEARCH = 16384,       // a control whose own words name the site's search (or a search input)
  AFTERMATTER = 32768,  // in a comment, reply, newsletter or footer section (by its section label)
  PURCHASE = 65536,     // a control whose own words name a purchase (add to cart, buy, check out, order / book now)
  SIGN_IN = 131072,     // a control whose own words name signing in (sign in, log in)
  PURCHASE_LEAD = 262144, // with PURCHASE: a longer label that begins with the purchase words ("Add to cart Out of stock")
  A11Y_HIDDEN = 524288, // the client says it is hidden from the accessibility tree (attributes.a11y_hidden: aria-hidden or inert)
  CONSENT = 1048576,    // a control positioned over the page (z-index > 0) whose section or nearby text speaks of cookies or consent
  DISMISS = 2097152,    // a control whose short label closes, rejects or accepts (close, ×, reject all, accept, got it)
  DISCLOSURE = 4194304, // a <details> element: role group, but a click on it opens or closes it (clickable, not content)
  SUBMIT = 8388608,     // submits a form: <input type=submit|image>, <button type=submit> (score.ts pageFormSubmit)
  START = 16777216,     // a control whose own words start using or buying a service (get started, sign up, request a quote)
}

export enum OutFlag {
  IN_VIEWPORT = 1,
  OCCLUDED = 2,
  PRIMARY = 4,
  CLICKABLE = 8,
  IN_DOMINANT = 16,
  SELECTED = 32,        // passed the filters
  IN_LAYER = 64,        // a control of a dialog, modal or consent banner over the page (score.ts)
  REPEATS = 128,        // static text repeating a control's words where that control is: never listed (select.ts)
}

export enum Diff { NONE = 0, ADDED = 1, REMOVED = 2, MODIFIED = 3, MOVED = 4 }

/** How many headings above an element the core's section lookup tries for one in its column (the nearest usually
 *  is; assembly/rerank.ts sections()). Here so the training dumps that mirror the lookup read the same number. */
export const SECTION_HEADINGS_BACK = 32;
