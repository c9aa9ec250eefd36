// A consumer's empty project around a packed tarball: what `npm install` puts into it (packages, scoped
// and nested ones too, and bytes), and whether a strict TypeScript consumer compiles against it. Used by
// the package tests (test/package-types, test/client-package) and bench/client-install.bench.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

/** Installed packages under `modules`, by name. */
export function installedPackages(modules: string): string[] {
  const out: string[] = [];
  if (!existsSync(modules)) return out;
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const paths = name.startsWith('@') ? readdirSync(join(modules, name)).map((n) => join(name, n)) : [name];
    for (const p of paths) out.push(p, ...installedPackages(join(modules, p, 'node_modules')));
  }
  return out;
}

export function treeBytes(path: string): number {
  const s = statSync(path);
  return s.isDirectory() ? readdirSync(path).reduce((sum, name) => sum + treeBytes(join(path, name)), 0) : s.size;
}

export function npmInstall(cwd: string, specs: string[]): void {
  execFileSync('npm', ['install', ...specs, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd, stdio: 'pipe', timeout: 600_000 });
}

/** `npm pack` of `packageDir` (built already: scripts are not run) into `dest`; the tarball's path and files. */
export function packTarball(root: string, packageDir: string, dest: string): { file: string; files: string[] } {
  const out = execFileSync('npm', ['pack', packageDir, '--ignore-scripts', '--json', '--pack-destination', dest], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  return { file: join(dest, info.filename), files: info.files.map((f) => f.path) };
}

/** Installs `tarball` into a new empty project `dir`: what it added. */
export function installInto(dir: string, tarball: string): { packages: string[]; bytes: number; ms: number } {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const t0 = performance.now();
  npmInstall(dir, [tarball]);
  const ms = performance.now() - t0;
  return { packages: installedPackages(join(dir, 'node_modules')), bytes: treeBytes(join(dir, 'node_modules')), ms };
}

/** Compiles `source` as `index.ts` of `project` with `tsc --strict` (no skipLibCheck): '' when it compiles, else tsc's output. */
export function strictCompile(project: string, source: string): string {
  writeFileSync(join(project, 'index.ts'), source);
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: false, types: ['node'] },
    files: ['index.ts'],
  }));
  try {
    execFileSync(process.execPath, [TSC, '-p', project], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}
