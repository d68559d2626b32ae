/** The scorers standing ships, by id. */
import { cqr } from './cqr/scorer.js';
import { chat } from './chat/scorer.js';
import { reliability } from './reliability/scorer.js';
import type { AnyScorer } from './scorer.js';

export const SCORERS: Readonly<Record<string, AnyScorer>> = Object.freeze({ cqr, reliability, chat });

export function scorerIds(): string[] {
  return Object.keys(SCORERS);
}
