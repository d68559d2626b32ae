/** The scorers standing ships, by id. */
import { cqr } from './cqr/scorer.js';
import { chat } from './chat/scorer.js';
import { reliability } from './reliability/scorer.js';
import { reports } from './reports/scorer.js';
import { trust } from './trust/scorer.js';
import type { AnyScorer } from './scorer.js';

export const SCORERS: Readonly<Record<string, AnyScorer>> = Object.freeze({ cqr, reliability, chat, trust, reports });

export function scorerIds(): string[] {
  return Object.keys(SCORERS);
}
