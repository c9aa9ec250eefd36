// The package's own files (rank.wasm, collector.js, goal-embed.bin), resolved through its exports by its name, so the
// same code finds them from src/, from a bundle and from node_modules. The light client package
// (packages/client, `@sightline/client`) is bundled with its own name defined (scripts/build.js).
import { fileURLToPath } from 'node:url';

declare const __SIGHTLINE_PACKAGE__: string | undefined;
const PACKAGE = typeof __SIGHTLINE_PACKAGE__ === 'string' ? __SIGHTLINE_PACKAGE__ : 'sightline';

export const packageAsset = (file: 'rank.wasm' | 'collector.js' | 'goal-embed.bin') => fileURLToPath(import.meta.resolve(`${PACKAGE}/${file}`));
