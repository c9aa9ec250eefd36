declare module '@joplin/turndown-plugin-gfm' {
  import type { Plugin } from 'turndown';
  export const gfm: Plugin;
  export const tables: Plugin;
  export const strikethrough: Plugin;
}
