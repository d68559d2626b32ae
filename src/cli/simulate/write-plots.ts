/** Writes named SVG files into a folder (created if missing) and returns their paths. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export async function writePlots(dir: string, plots: Readonly<Record<string, string>>): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (const [name, svg] of Object.entries(plots)) {
    const path = join(dir, `${name}.svg`);
    await writeFile(path, svg);
    paths.push(path);
  }
  return paths;
}
