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
  COUNT,
}

export enum F64Out {
  CENTER_X, CENTER_Y, DOC_Y,
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
  COUNT,
}

export enum F64Prev { X, Y, W, H, COUNT }
export enum I32Prev { KEY_ID, ROLE, KEY_IDENT, KEY_STATE, COUNT }

export enum Param {
  VIEWPORT_W,   // 0 = derive from element bounds
  VIEWPORT_H,
  LIMIT,        // already defaulted and capped by the JS door
  MIN_AREA,     // 0 = no filter
  FILTER_ROLES, // 1 = ROLE_ALLOW applies
  FILTER_TAGS,  // 1 = TAG_ALLOW applies
  HAS_PREVIOUS, // 1 = run the diff
  // outputs
  OUT_VIEWPORT_W,
  OUT_VIEWPORT_H,
  OUT_DOMINANT,   // index of an element of the dominant group, -1 when there is none
  OUT_MODALS,     // number of ModalField records written
  OUT_MATCHED,    // elements that passed the filters (before the limit)
  COUNT,
}

export enum ModalField { X, Y, W, H, Z, COVERAGE, BLOCKS, COUNT }
export const MAX_MODALS = 8;

/** Role bands: the tier of an element's importance (SPEC "Importance ranking"). */
export enum Band { STATIC = 0, LINK = 1, CONTROL = 2, INPUT = 3 }

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
}

export enum OutFlag {
  IN_VIEWPORT = 1,
  OCCLUDED = 2,
  PRIMARY = 4,
  CLICKABLE = 8,
  IN_DOMINANT = 16,
  SELECTED = 32,        // passed the filters
}

export enum Diff { NONE = 0, ADDED = 1, REMOVED = 2, MODIFIED = 3, MOVED = 4 }
