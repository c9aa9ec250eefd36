// What installing the client costs a user, before and after the light package (issue 40), in one run:
// `npm pack` of the server package `sightline` (its `sightline/client` export is how the client was
// installed before) and of `@sightline/client` (packages/client), each installed into an empty project
// with `npm install <tarball> --ignore-scripts` (no native build; npm's cache first, then the registry).
// Run: npm run build && node --import tsx bench/client-install.bench.ts. Writes bench/results/client-install.{json,md}.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installInto, packTarball } from '../test/helpers/consumer-project.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sightline-install-'));
const MB = 1048576;
try {
  const rows = [
    { package: 'sightline (server package, sightline/client)', dir: '.' },
    { package: '@sightline/client (packages/client)', dir: './packages/client' },
  ].map((side, i) => {
    const { file } = packTarball(ROOT, side.dir, dir);
    const got = installInto(join(dir, `consumer-${i}`), file);
    console.log(`${side.package}: ${got.packages.length} packages, ${(got.bytes / MB).toFixed(1)} MB, install ${(got.ms / 1000).toFixed(1)} s`);
    return { package: side.package, packages: got.packages.length, mb: Number((got.bytes / MB).toFixed(1)), install_s: Number((got.ms / 1000).toFixed(1)) };
  });
  const when = new Date().toISOString();
  writeFileSync(join(ROOT, 'bench/results/client-install.json'), JSON.stringify({ when, rows }, null, 2) + '\n');
  writeFileSync(join(ROOT, 'bench/results/client-install.md'), [
    `# Installing the client into an empty project (${when.slice(0, 10)}, one run)`, '',
    '| tarball | packages added | node_modules | install time |', '|---|---|---|---|',
    ...rows.map((r) => `| ${r.package} | ${r.packages} | ${r.mb} MB | ${r.install_s} s |`), '',
  ].join('\n'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
