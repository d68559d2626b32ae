/** Reading the CLI's shared options: `--set key=value`, `--compare "k=v,k=v"`, lists, numbers. */
import type { ChatRecipe } from '../scorers/chat/params.js';
import { readFile } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { splitAssignment } from '../params/format.js';
import { toNumber } from '../params/define.js';
import { DEFAULT_DEFENCES, DEFENCES, isDefences, type Defences } from '../scorers/defences.js';
import { scorerIds, scorerById } from '../scorers/index.js'
import type { AnyScorer } from '../scorers/scorer.js';
import { UsageError } from './errors.js';

/** commander accumulator for repeatable options. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `["T=8", "x=10"]` → `{T: "8", x: "10"}`; the scorer's resolver types and checks the values. */
export function parseAssignments(pairs: readonly string[], option: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const assignment = splitAssignment(pair);
    if (assignment === undefined) throw new UsageError(`${option} expects key=value, got "${pair}"`);
    out[assignment.key] = assignment.value;
  }
  return out;
}

/** `"T=8,x=0,k=8"` (commas or spaces) → assignments. */
export function parseParameterization(spec: string, option: string): Record<string, string> {
  return parseAssignments(spec.split(/[\s,]+/).filter((part) => part !== ''), option);
}

/** `--defences`'s help: the command's parameterizations are resolved under the setting. */
export const DEFENCES_HELP =
  "recommended: each scorer's recommended defences (docs/abuse.md), the --set (and --compare) parameters over them; published: over the paper's method (default recommended, as standing serve; also STANDING_DEFENCES)";

/** `--defences`, else STANDING_DEFENCES, else recommended: what `standing serve` would run. */
export function defencesOption(value: string | undefined, env: NodeJS.ProcessEnv = process.env): Defences {
  const [raw, source] = value !== undefined ? [value, '--defences'] : env.STANDING_DEFENCES !== undefined ? [env.STANDING_DEFENCES, 'STANDING_DEFENCES'] : [DEFAULT_DEFENCES, ''];
  if (!isDefences(raw)) throw new UsageError(`${source} expects ${DEFENCES.join(' or ')}, got "${raw}"`);
  return raw;
}

export function scorerNamed(id: string): AnyScorer {
  const scorer = scorerById(id);
  if (scorer === undefined) throw new UsageError(`unknown scorer "${id}" (available: ${scorerIds().join(', ')})`);
  return scorer;
}

export function positiveInteger(value: string, option: string): number {
  const n = toNumber(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${option} expects a positive integer, got "${value}"`);
  return n;
}

export function positiveNumber(value: string, option: string): number {
  const n = toNumber(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${option} expects a positive number, got "${value}"`);
  return n;
}

export function integer(value: string, option: string): number {
  const n = toNumber(value);
  if (!Number.isInteger(n)) throw new UsageError(`${option} expects an integer, got "${value}"`);
  return n;
}

/** `"1,2,8,Infinity"` → numbers. */
export function numberList(value: string, option: string): number[] {
  const list = value.split(',').map((part) => toNumber(part));
  if (list.length === 0 || list.some(Number.isNaN)) throw new UsageError(`${option} expects comma-separated numbers, got "${value}"`);
  return list;
}

export function recipeOption(value: string): ChatRecipe {
  if (value === '1' || value === '2' || value === '3') return Number(value) as ChatRecipe;
  throw new UsageError(`--recipe expects 1, 2 or 3, got "${value}"`);
}

export type Format = 'table' | 'json' | 'csv';

export function format(value: string): Format {
  if (value === 'table' || value === 'json' || value === 'csv') return value;
  throw new UsageError(`--format expects table, json or csv, got "${value}"`);
}

/** Options of the quality domains from a JSON file: `{"minecraft": {"rarity": {...}}}`. */
export async function qualityOptions(path: string | undefined): Promise<Record<string, Record<string, unknown>>> {
  if (path === undefined) return {};
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(path, (error as Error).message);
  }
  const notOptions = (reason: string) => new InputError(path, `is not a JSON object of domain options (${reason})`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw notOptions((error as Error).message);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw notOptions('expected a JSON object');
  return value as Record<string, Record<string, unknown>>;
}
