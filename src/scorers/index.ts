/**
 * The registry of scorers: each scorer's module (module.ts) by id, the five standing ships first,
 * in this order, then any registered with `registerScorer`. Every part of standing that differs
 * by scorer (the API's row fields and meanings, the queue's words, `standing explain`, the attack
 * suite's settings) asks here.
 */
import { StandingError } from '../errors.js';
import { chatModule } from './chat/index.js';
import { chat } from './chat/scorer.js';
import { cqrModule } from './cqr/index.js';
import { cqr } from './cqr/scorer.js';
import type { RowField, ScorerModule } from './module.js';
import { reliabilityModule } from './reliability/index.js';
import { reliability } from './reliability/scorer.js';
import { reportsModule } from './reports/index.js';
import { reports } from './reports/scorer.js';
import type { AnyScorer } from './scorer.js';
import { trustModule } from './trust/index.js';
import { trust } from './trust/scorer.js';
import { genericWords, type ScorerWords } from './words.js';

const BUILT_IN = [cqrModule, reliabilityModule, chatModule, trustModule, reportsModule] as const;

/** The five scorers standing ships, each with its own parameter, state, row and explanation types. */
export const SCORERS = Object.freeze({ cqr, reliability, chat, trust, reports });

export type ScorerId = keyof typeof SCORERS;

/** A scorer module that cannot join the registry: its id is taken or malformed, or it lacks a part. */
export class ScorerInvalidError extends StandingError {
  readonly code = 'SCORER_INVALID' as const;
}

const modules = new Map<string, ScorerModule>(BUILT_IN.map((m) => [m.scorer.id, m]));

const ID = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Adds a scorer of one's own to the registry, so that the command line, the service and the
 * queue run it by its id like the five built in. Registering the same module again does nothing.
 */
export function registerScorer(module: ScorerModule): void {
  const id: unknown = module?.scorer?.id;
  if (typeof id !== 'string' || !ID.test(id)) throw new ScorerInvalidError(`a scorer id is 1 to 32 lowercase letters, digits and "-", starting with a letter: got ${JSON.stringify(id)}`);
  const known = modules.get(id);
  if (known === module) return;
  if (known !== undefined) throw new ScorerInvalidError(`scorer id "${id}" is taken`);
  for (const part of ['words', 'bar', 'rowFields', 'defences'] as const) {
    if (module[part] === undefined) throw new ScorerInvalidError(`scorer "${id}" has no ${part} (src/scorers/module.ts lists a module's parts)`);
  }
  for (const field of Object.keys(module.rowFields)) {
    const other = [...modules.values()].find((m) => Object.hasOwn(m.rowFields, field));
    if (other !== undefined) throw new ScorerInvalidError(`scorer "${id}": row field "${field}" is already scorer "${other.scorer.id}"'s`);
  }
  if (rowFieldsRead && Object.keys(module.rowFields).length > 0) {
    // The API's row schemas are built once, from the fields known then: a field added later would
    // be dropped from its answers while the command line prints it.
    throw new ScorerInvalidError(`scorer "${id}" has row fields, and the HTTP API's schemas are already built: register it before the service is loaded (STANDING_SCORERS does)`);
  }
  modules.set(id, module);
}

let rowFieldsRead = false;

/**
 * The row fields of every registered scorer, in registry order, for the API's schemas, which are
 * built once: a scorer with row fields registered after this is refused.
 */
export function registeredRowFields(): [string, RowField][] {
  rowFieldsRead = true;
  return [...modules.values()].flatMap((m) => Object.entries(m.rowFields));
}

/** The module of the scorer with id `id`, or undefined. */
export function scorerModule(id: string): ScorerModule | undefined {
  return modules.get(id);
}

/** Every registered module, the built-in five first. */
export function scorerModules(): ScorerModule[] {
  return [...modules.values()];
}

/** The scorer with id `id`, or undefined (never an inherited property: "constructor" is no scorer). */
export function scorerById(id: string): AnyScorer | undefined {
  return modules.get(id)?.scorer;
}

export function scorerIds(): string[] {
  return [...modules.keys()];
}

/** The words of `scorer` for moderators: its module's, or plain words for a scorer the registry does not hold. */
export function wordsOf(scorer: Pick<AnyScorer, 'id' | 'rankOneIsWorst'>): ScorerWords {
  return modules.get(scorer.id)?.words ?? genericWords(scorer.id, scorer.rankOneIsWorst);
}
