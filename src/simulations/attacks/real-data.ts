/**
 * Honest rankings under the recommended defences on real data: the Spearman correlation of the
 * defended ranking with the published one, for each shared data set a defended scorer reads
 * (signed rating networks for `trust`, message logs for `chat`). `trust` is seen by the ten players
 * with the most positive ratings, with ratings kept 20 years so the logs do not expire.
 */
import type { ChatEvent, RatingEvent } from '../../events/types.js';
import { spearmanOfScores } from '../../evaluation/spearman.js';
import { chat } from '../../scorers/chat/scorer.js';
import { RECOMMENDED_CHAT_DEFENCES } from '../../scorers/chat/params.js';
import { trust } from '../../scorers/trust/scorer.js';
import { RECOMMENDED_TRUST_DEFENCES } from '../../scorers/trust/params.js';
import { mostTrusted } from '../trust-convergence.js';
import { replay } from './replay.js';

/** The least Spearman correlation the recommended defences must keep with the published ranking. */
export const MIN_SPEARMAN = 0.9;

export interface RealDataRow {
  readonly dataSet: string;
  readonly scorer: 'trust' | 'chat';
  readonly events: number;
  readonly players: number;
  readonly spearman: number | null;
  readonly goal: string;
  readonly met: boolean;
}

function row(dataSet: string, scorer: RealDataRow['scorer'], events: number, published: Map<string, number>, defended: Map<string, number>): RealDataRow {
  const rho = spearmanOfScores(published, defended);
  return { dataSet, scorer, events, players: published.size, spearman: rho, goal: `Spearman ≥ ${MIN_SPEARMAN}`, met: rho !== null && rho >= MIN_SPEARMAN };
}

export function trustAgreement(dataSet: string, events: readonly RatingEvent[]): RealDataRow {
  const base = { observers: mostTrusted(events, 10), ttlMax: 24 * 365 * 20 };
  const scores = (params: Readonly<Record<string, unknown>>) => new Map(trust.rank(replay(trust, { ...base, ...params }, events)).map((r) => [r.player, r.score]));
  return row(dataSet, 'trust', events.length, scores({}), scores(RECOMMENDED_TRUST_DEFENCES));
}

export function chatAgreement(dataSet: string, events: readonly ChatEvent[]): RealDataRow {
  const scores = (params: Readonly<Record<string, unknown>>) => new Map(chat.rank(replay(chat, params, events)).map((r) => [r.player, r.score]));
  return row(dataSet, 'chat', events.length, scores({}), scores(RECOMMENDED_CHAT_DEFENCES));
}
