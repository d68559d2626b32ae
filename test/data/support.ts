/** The data tier reads ../shared/data, or the folder named by STANDING_DATA (set by .ci/run). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DATA = process.env.STANDING_DATA ?? fileURLToPath(new URL('../../../shared/data', import.meta.url));

export function dataFile(...parts: string[]): string {
  const path = join(DATA, ...parts);
  if (!existsSync(path)) throw new Error(`data tier: ${path} is missing (set STANDING_DATA to the shared data folder)`);
  return path;
}

export function readData(...parts: string[]): string {
  return readFileSync(dataFile(...parts), 'utf8');
}
