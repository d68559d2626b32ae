/** Writes named plots into a folder (created if missing) as SVG, and as PNG where resvg loads. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pngRenderer } from '../../plots/png.js';

export async function writePlots(dir: string, plots: Readonly<Record<string, string>>): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const png = await pngRenderer();
  if (png === undefined) process.stderr.write('standing: PNG rendering is not available on this platform; writing SVG only\n');
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
