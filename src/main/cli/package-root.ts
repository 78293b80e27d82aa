/**
 * The folder of Plugboard's package.json: the checkout, whose plugins/, node_modules/ and
 * out/renderer/ the CLI uses. Found by walking up from this module, because the module sits at
 * different depths as source (src/main/cli/, under tsx and vitest) and as the built CLI
 * (out/cli/<build>/, see scripts/build-cli.mjs); a fixed number of '..' would fit only one.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && isPlugboard(manifest)) return (cached = dir);
    if (path.dirname(dir) === dir)
      throw new Error(`no package.json named "plugboard" in ${start} or any folder above it`);
  }
}

function isPlugboard(manifest: string): boolean {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'plugboard';
  } catch {
    // An unreadable or broken package.json further down (a fixture, say) is not ours: keep walking.
    return false;
  }
}
