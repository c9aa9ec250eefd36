import { createRequire } from 'node:module';

/** The package version, read through the package's own exports (works from src/ and from build/). */
export const VERSION: string = (createRequire(import.meta.url)('sightline/package.json') as { version: string }).version;
