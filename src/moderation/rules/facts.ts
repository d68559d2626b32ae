/**
 * The facts one evaluation of the rules reads (./variables.ts), computed from the scorers' states
 * and the rules' fold at one moment of one community, each at most once: a scorer instance's
 * ranking when a rule reads its scores, a player's dated evidence (the scorers' explanations)
 * when a rule reads `recent` or has acted on the player before. Pure: reads states, changes none.
 */
import type { ScorerInstance } from '../../engine/engine.js';
import { wordsOf } from '../../scorers/index.js';
import type { RankRow } from '../../scorers/scorer.js';
import type { EvidenceItem } from '../../scorers/words.js';
import { standingAt, tailOf } from '../percentiles.js';
import type { CompiledRule } from './compile.js';
import { activeAt, offencesBefore, type CommunityRules } from './fold.js';
import { unranked, type PlayerFacts, type ScoreFacts } from './variables.js';

const DAY_MS = 86_400_000;

/** The scorers whose explanations hold dated bad evidence, and the kind each gives. */
const DATED: Readonly<Record<string, string>> = { reliability: 'drop', reports: 'report', trust: 'rating' };

interface Ranking {
  readonly rows: readonly RankRow[];
  readonly index: Map<string, number>;
}

type BaseFacts = Omit<PlayerFacts, 'recent' | 'offences'>;

export class TickFacts {
  private readonly rankings = new Map<string, Ranking>();
  private readonly bases = new Map<string, BaseFacts>();
  private readonly evidence = new Map<string, readonly EvidenceItem[]>();
  /** The instances some rule reads the scores of. */
  private readonly read: readonly ScorerInstance[];
  /** The first instance of each scorer whose explanations hold dated evidence. */
  private readonly dated: readonly ScorerInstance[];

  constructor(
    instances: readonly ScorerInstance[],
    rules: readonly CompiledRule[],
    private readonly community: string,
    private readonly now: number,
    private readonly tailShare: number,
    private readonly state: CommunityRules,
  ) {
    const all = rules.some((r) => r.uses.instances === undefined);
    this.read = instances.filter((i) => all || rules.some((r) => r.uses.instances!.has(i.name)));
    this.dated = Object.keys(DATED).flatMap((id) => instances.find((i) => i.scorer.id === id) ?? []);
  }

  private ranking(instance: ScorerInstance): Ranking {
    let ranking = this.rankings.get(instance.name);
    if (ranking === undefined) {
      const rows = instance.scorer.rank(instance.state, { community: this.community });
      ranking = { rows, index: new Map(rows.map((row, i) => [row.player, i])) };
      this.rankings.set(instance.name, ranking);
    }
    return ranking;
  }

  private score(instance: ScorerInstance, player: string): ScoreFacts {
    const { rows, index } = this.ranking(instance);
    const i = index.get(player);
    if (i === undefined) return unranked(rows.length);
    const standing = standingAt(rows, i, instance.scorer.rankOneIsWorst);
    const row = rows[i] as RankRow & { band?: unknown; confidence?: unknown };
    return {
      ranked: true,
      score: standing.score,
      rank: BigInt(standing.rank),
      of: BigInt(standing.of),
      percentile: standing.percentile,
      tail: tailOf(standing, this.tailShare),
      band: typeof row.band === 'string' ? row.band : '',
      confidence: typeof row.confidence === 'number' ? row.confidence : 0,
    };
  }

  private base(player: string): BaseFacts {
    let base = this.bases.get(player);
    if (base !== undefined) return base;
    const fold = this.state.players.get(player);
    const first = this.state.seen.get(player)?.[0] ?? this.now;
    const sanctions = fold?.sanctions ?? [];
    base = {
      player,
      community: this.community,
      ageDays: Math.max(0, this.now - first) / DAY_MS,
      scores: Object.fromEntries(this.read.map((instance) => [instance.name, this.score(instance, player)])),
      sanctions: { active: sanctions.filter((s) => activeAt(s, this.now)).map((s) => s.action), total: BigInt(sanctions.length) },
    };
    this.bases.set(player, base);
    return base;
  }

  /** The player's bad dated evidence: drops, reports that carry weight, negative ratings in force. */
  badEvidence(player: string): readonly EvidenceItem[] {
    let items = this.evidence.get(player);
    if (items !== undefined) return items;
    const out: EvidenceItem[] = [];
    for (const instance of this.dated) {
      const explanation = instance.scorer.explain(instance.state, this.community, player);
      if (explanation === undefined) continue;
      for (const item of wordsOf(instance.scorer).evidence({ scorer: instance.name, params: instance.params, explanation, now: this.now })) {
        if (item.bad && item.kind === DATED[instance.scorer.id]) out.push(item);
      }
    }
    this.evidence.set(player, (items = out));
    return items;
  }

  /** The time of the player's newest bad evidence, or -Infinity. */
  latestBad(player: string): number {
    let latest = -Infinity;
    for (const item of this.badEvidence(player)) if (item.time > latest) latest = item.time;
    return latest;
  }

  /** Everything `rule` reads of `player`. */
  factsFor(player: string, rule: CompiledRule): PlayerFacts {
    const counts = { drop: 0, report: 0, rating: 0 } as Record<string, number>;
    if (rule.uses.recent) {
      for (const item of this.badEvidence(player)) if (item.time > this.now - rule.windowMs && item.time <= this.now) counts[item.kind] = (counts[item.kind] ?? 0) + 1;
    }
    return {
      ...this.base(player),
      recent: { drops: BigInt(counts.drop!), reports: BigInt(counts.report!), negativeRatings: BigInt(counts.rating!), hours: rule.windowHours },
      offences: BigInt(offencesBefore(this.state.players.get(player), rule.name, this.now, rule.offenceMs)),
    };
  }
}
