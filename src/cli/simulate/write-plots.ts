/**
 * Writes named plots into a folder (created if missing) as SVG, and as PNG where the optional
 * renderer (../../plots/png.ts) loads; where it does not, one line on standard error says the
 * PNGs were skipped and how to install it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PNG_PACKAGE, pngRenderer } from '../../plots/png.js';

export async function writePlots(dir: string, plots: Readonly<Record<string, string>>): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const png = await pngRenderer();
  if (png === undefined) {
    process.stderr.write(`standing: PNGs skipped, SVGs written: the optional package ${PNG_PACKAGE} could not be loaded (install it with: npm install ${PNG_PACKAGE})\n`);
  }
  const paths: string[] = [];
  for (const [name, svg] of Object.entries(plots)) {
    const path = join(dir, `${name}.svg`);
    await writeFile(path, svg);
    paths.push(path);
    if (png !== undefined) {
      await writeFile(join(dir, `${name}.png`), png(svg));
      paths.push(join(dir, `${name}.png`));
    }
  }
  return paths;
}
