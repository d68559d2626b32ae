/**
 * What each defence setting costs the honest community: on the suite's honest log (no attack),
 * the Spearman correlation of the defended ranking with the published one, and how well each
 * ranking still tells the truly bad players from the others (ROC AUC: the probability that a
 * random truly bad player ranks worse than a random honest one).
 */
import type { StandingEvent } from '../../events/types.js';
import { aucOf } from '../../evaluation/metrics.js';
import { spearmanOfScores } from '../../evaluation/spearman.js';
import { scorerById } from '../../scorers/index.js';
import type { AnyScorer } from '../../scorers/scorer.js';
import { COMMUNITY, type HonestCommunity } from './community.js';
import { replay } from './replay.js';
import { defenceSettings, PUBLISHED } from './settings.js';
import { communityObservers } from './trust-sybil-ring.js';
import type { AttackScenario } from './types.js';

export interface HonestCostRow {
  readonly scorer: AttackScenario['scorer'];
  readonly defence: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** Spearman's ρ of the defended scores with the published ones, over the players both rank. */
  readonly spearman: number | null;
  /** ROC AUC of the ranking as a detector of the truly bad players (0.5: chance). */
  readonly auc: number | null;
}

/** Scores of every ranked player, oriented so that higher means worse (as the reports ranking is). */
function badness(scorer: AnyScorer, params: Readonly<Record<string, unknown>>, events: readonly StandingEvent[]): Map<string, number> {
  const rows = scorer.rank(replay(scorer, params, events), { community: COMMUNITY });
  return new Map(rows.map((r) => [r.player, scorer.rankOneIsWorst ? r.score : -r.score]));
}

/** P(a random truly bad player scores worse than a random honest one), ties counting one half. */
export function detectionAuc(scores: ReadonlyMap<string, number>, bad: ReadonlySet<string>): number | null {
  const all = [...scores];
  return aucOf(all.filter(([player]) => bad.has(player)).map(([, s]) => s), all.filter(([player]) => !bad.has(player)).map(([, s]) => s));
}

export function honestCosts(community: HonestCommunity, scorers: readonly AttackScenario['scorer'][]): HonestCostRow[] {
  const rows: HonestCostRow[] = [];
  for (const id of scorers) {
    const scorer = scorerById(id)!;
    const events = community.events.filter((e) => scorer.uses.includes(e.type));
    const extra = id === 'trust' ? { observers: communityObservers(community) } : {};
    const published = badness(scorer, { ...extra, ...PUBLISHED.params }, events);
    for (const setting of defenceSettings(id)) {
      const scores = setting.name === PUBLISHED.name ? published : badness(scorer, { ...extra, ...setting.params }, events);
      rows.push({ scorer: id, defence: setting.name, params: setting.params, spearman: spearmanOfScores(published, scores), auc: detectionAuc(scores, community.bad) });
    }
  }
  return rows;
}
