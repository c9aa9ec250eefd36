// The MCP tools' arguments (`sightline mcp`, docs/mcp.md): these typebox schemas are the tools'
// inputSchema as MCP clients see it and what the server validates calls against.
import Type, { type Static } from 'typebox';
import { ElementFilter, Goal, MaxTokens } from './snapshot.ts';

const Id = Type.Integer({ minimum: 0, description: 'An element id from the latest snapshot of this tab' });
const Timeout = Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000, description: 'Milliseconds to wait, default 5000' }));

export const McpTools = {
  navigate: {
    description: 'Open a URL in the current tab, or go back, forward or reload. Answers the page header (title, URL).',
    input: Type.Object({
      url: Type.Optional(Type.String({ description: 'http(s) URL to open' })),
      action: Type.Optional(Type.Union([Type.Literal('back'), Type.Literal('forward'), Type.Literal('reload')], { description: 'Instead of a URL: back, forward or reload' })),
    }),
  },
  snapshot: {
    description: 'The page\'s interactive elements, ranked for a goal, one line each: "<id> <role> <flags>: <text>". Act on them by id. since_last: only what changed since this tab\'s previous snapshot (flags new, gone, changed, moved).',
    input: Type.Object({
      goal: Type.Optional(Goal('What you want to do on the page; ranks the elements for it')),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'Most elements to list, default 50' })),
      filter: Type.Optional(ElementFilter),
      since_last: Type.Optional(Type.Boolean({ description: 'Only the elements that changed since the previous snapshot of this tab' })),
      max_tokens: Type.Optional(MaxTokens('the answer: the most important elements that fit, in rank order')),
    }),
  },
  click: { description: 'Click an element by id.', input: Type.Object({ id: Id, timeout_ms: Timeout }) },
  type: {
    description: 'Replace the text of a field by id; submit presses Enter after.',
    input: Type.Object({ id: Id, text: Type.String(), submit: Type.Optional(Type.Boolean()), timeout_ms: Timeout }),
  },
  select_option: {
    description: 'Choose options of a <select> by value or label.',
    input: Type.Object({ id: Id, values: Type.Union([Type.String(), Type.Array(Type.String())]), timeout_ms: Timeout }),
  },
  check: {
    description: 'Check (or with checked=false uncheck) a checkbox or radio button.',
    input: Type.Object({ id: Id, checked: Type.Optional(Type.Boolean()), timeout_ms: Timeout }),
  },
  hover: { description: 'Move the mouse over an element.', input: Type.Object({ id: Id, timeout_ms: Timeout }) },
  press_key: {
    description: 'Press a key or chord ("Enter", "Escape", "Control+A"), on an element or the focused page.',
    input: Type.Object({ key: Type.String({ minLength: 1 }), id: Type.Optional(Id), timeout_ms: Timeout }),
  },
  scroll: {
    description: 'Scroll an element into view (id), or the page: down, up (by a screen or pixels), top, bottom.',
    input: Type.Object({
      id: Type.Optional(Id),
      direction: Type.Optional(Type.Union([Type.Literal('down'), Type.Literal('up'), Type.Literal('top'), Type.Literal('bottom')])),
      pixels: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    }),
  },
  wait_for: {
    description: 'Wait until text appears, an element is visible (id) or gone (id with gone=true), or the DOM is quiet (stable=true).',
    input: Type.Object({
      text: Type.Optional(Type.String({ minLength: 1 })),
      id: Type.Optional(Id),
      gone: Type.Optional(Type.Boolean()),
      stable: Type.Optional(Type.Boolean()),
      timeout_ms: Timeout,
    }),
  },
  read: {
    description: 'The current page\'s main content as Markdown.',
    input: Type.Object({
      max_chars: Type.Optional(Type.Integer({ minimum: 100, maximum: 500_000, description: 'Default 50000' })),
      max_tokens: Type.Optional(MaxTokens('the content: its first whole blocks that fit')),
    }),
  },
  screenshot: {
    description: 'A PNG of the viewport (or full page); annotate draws each ranked element\'s box and id.',
    input: Type.Object({
      annotate: Type.Optional(Type.Boolean()),
      goal: Type.Optional(Goal('With annotate: rank for this goal')),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'With annotate: boxes drawn, default 50' })),
      full_page: Type.Optional(Type.Boolean()),
    }),
  },
  tabs: {
    description: 'List, open, switch to or close tabs (index from the list).',
    input: Type.Object({
      action: Type.Union([Type.Literal('list'), Type.Literal('open'), Type.Literal('switch'), Type.Literal('close')]),
      index: Type.Optional(Type.Integer({ minimum: 0 })),
      url: Type.Optional(Type.String()),
    }),
  },
  close: { description: 'Close the browser (a later call opens a new one).', input: Type.Object({}) },
} as const;

export type McpToolName = keyof typeof McpTools;
export type McpArgs<N extends McpToolName> = Static<(typeof McpTools)[N]['input']>;
