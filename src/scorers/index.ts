/** The scorers standing ships, by id. */
import { cqr } from './cqr/scorer.js';
import { chat } from './chat/scorer.js';
import { reliability } from './reliability/scorer.js';
import { reports } from './reports/scorer.js';
import { trust } from './trust/scorer.js';
import type { AnyScorer } from './scorer.js';

/** Each scorer with its own parameter, state, row and explanation types. */
export const SCORERS = Object.freeze({ cqr, reliability, chat, trust, reports });

export type ScorerId = keyof typeof SCORERS;

/** The scorer with id `id`, or undefined (never an inherited property: "constructor" is no scorer). */
export function scorerById(id: string): AnyScorer | undefined {
  return Object.hasOwn(SCORERS, id) ? (SCORERS[id as ScorerId] as AnyScorer) : undefined;
}

export function scorerIds(): ScorerId[] {
  return Object.keys(SCORERS) as ScorerId[];
}
