/**
 * The attention queue of one community (docs/moderation.md#the-queue): every scorer's ranking
 * read as percentiles, worst first, fused into one number per player, with the players a
 * moderator already handled left out unless new evidence came after the handling. Pure: the
 * rankings, alerts, moderation facts and dated evidence come in, the ranked rows go out, and the
 * same input gives the same rows.
 *
 * Cost: O(n) per ranking (rows come sorted), O(c log c) for the c candidates (players in some
 * scorer's bad tail, with an open alert or an open appeal), and the dated evidence of at most
 * `maxExplained` of them, the ones with the most attention before recency.
 */
import type { RankRow } from '../scorers/scorer.js';
import type { QueueFacts } from './book-types.js';
import { standingsOf, tailOf, worseThan, type Standing } from './percentiles.js';
import type { EvidenceItem } from '../scorers/words.js';

export interface QueueWeights {
  /** The bad tail: the worst this share of a community's ranked players, per scorer. */
  readonly tailShare: number;
  /** Per scorer, times how far into the tail the player is (0 at its edge, 1 at the very worst). */
  readonly tail: number;
  /** Per scorer beyond the first whose tail the player is in. */
  readonly breadth: number;
  /** Per open alert. */
  readonly alert: number;
  /** For a player with an open appeal (one, however many are open). */
  readonly appeal: number;
  /** Per rule with an open proposal on the player. */
  readonly proposal: number;
  /** Times the recency of the newest bad evidence, 0.5^(age / half-life). */
  readonly recency: number;
  readonly recencyHalfLifeDays: number;
  /** Players whose dated evidence is read per computation (the most attention first). */
  readonly maxExplained: number;
}

export interface QueueRanking {
  /** The scorer instance name. */
  readonly scorer: string;
  readonly scorerId: string;
  readonly rankOneIsWorst: boolean;
  /** The community's rows in rank order. */
  readonly rows: readonly RankRow[];
}

/** A player's open alerts in the community: how many, when (event time) the newest was raised, for which scorer instances and thresholds. */
export interface OpenAlerts {
  readonly count: number;
  readonly latest: number;
  readonly scorers: readonly string[];
  readonly thresholds: readonly string[];
}

export interface QueueInput {
  readonly rankings: readonly QueueRanking[];
  readonly openAlerts: ReadonlyMap<string, OpenAlerts>;
  /** Players with an open appeal. */
  readonly withOpenAppeals: readonly string[];
  /** Players with a rule's open proposal. */
  readonly withOpenProposals?: readonly string[];
  facts(player: string): QueueFacts;
  /** The player's dated evidence from the scorers' explanations (reliability's events, trust's ratings, the reports received). */
  evidence(player: string): readonly EvidenceItem[];
  /** The community's latest event time. */
  readonly now: number;
  readonly weights: QueueWeights;
}

export interface QueueScore {
  readonly scorer: string;
  readonly scorerId: string;
  readonly score: number;
  readonly rank: number;
  readonly of: number;
  readonly percentile: number;
  /** How many of the other ranked players stand strictly better: the player is worse than them (ties excluded). */
  readonly worseThan: number;
  readonly tail: number;
}

export interface QueueEntry {
  readonly rank: number;
  readonly player: string;
  readonly attention: number;
  /** Every scorer that ranks the player, in the configuration's order. */
  readonly scores: readonly QueueScore[];
  /** Scorers whose bad tail the player is in. */
  readonly tails: number;
  readonly openAlerts: number;
  /** The scorer instances and thresholds of the open alerts. */
  readonly alertScorers: readonly string[];
  readonly alertThresholds: readonly string[];
  /** Event time the newest open alert was raised, if any. */
  readonly alertRaised?: number;
  readonly openAppeals: number;
  /** The rules with an open proposal on the player, and when each proposed (event time). */
  readonly proposals: readonly { readonly rule: string; readonly time: number }[];
  readonly activeSanctions: readonly string[];
  readonly handledAt?: number;
  /** When the last handling was a rule's sanction: the rule and its action. */
  readonly handledByRule?: { readonly rule: string; readonly action: string };
  readonly newEvidence: boolean;
  /** Event time of the newest bad evidence (a drop, a negative rating, a report that carries weight, a raised alert), if any is dated. */
  readonly latestEvidence?: number;
}

const DAY_MS = 86_400_000;

interface Candidate {
  readonly player: string;
  readonly scores: QueueScore[];
  readonly standings: (Standing | undefined)[];
  tailSum: number;
  tails: number;
  base: number;
}

/** The whole ranked queue (reasons are the caller's, for the rows it returns). */
export function computeQueue(input: QueueInput): QueueEntry[] {
  const { weights: w, rankings } = input;
  const candidates = new Map<string, Candidate>();
  const candidate = (player: string): Candidate => {
    let c = candidates.get(player);
    if (c === undefined) candidates.set(player, (c = { player, scores: [], standings: new Array(rankings.length), tailSum: 0, tails: 0, base: 0 }));
    return c;
  };
  const standings = rankings.map((r) => standingsOf(r.rows, r.rankOneIsWorst));
  // Candidates: the bad tail of each scorer, open alerts, open appeals.
  rankings.forEach((ranking, s) => {
    standings[s]!.forEach((standing, i) => {
      if (tailOf(standing, w.tailShare) > 0) candidate(ranking.rows[i]!.player);
    });
  });
  for (const player of input.openAlerts.keys()) candidate(player);
  for (const player of input.withOpenAppeals) candidate(player);
  for (const player of input.withOpenProposals ?? []) candidate(player);
  // Every scorer's standing of each candidate.
  rankings.forEach((ranking, s) => {
    ranking.rows.forEach((row, i) => {
      const c = candidates.get(row.player);
      if (c !== undefined) c.standings[s] = standings[s]![i];
    });
  });

  const facts = new Map<string, QueueFacts>();
  for (const c of candidates.values()) {
    c.standings.forEach((standing, s) => {
      if (standing === undefined) return;
      const tail = tailOf(standing, w.tailShare);
      c.scores.push({ scorer: rankings[s]!.scorer, scorerId: rankings[s]!.scorerId, score: standing.score, rank: standing.rank, of: standing.of, percentile: standing.percentile, worseThan: worseThan(standing), tail });
      c.tailSum += tail;
      if (tail > 0) c.tails++;
    });
    const f = input.facts(c.player);
    facts.set(c.player, f);
    const proposing = new Set((f.proposals ?? []).map((p) => p.rule)).size;
    // One open appeal weighs, however many; each rule proposing weighs.
    c.base = w.tail * c.tailSum + w.breadth * Math.max(0, c.tails - 1) + w.alert * (input.openAlerts.get(c.player)?.count ?? 0) + w.appeal * Math.min(1, f.openAppeals) + w.proposal * proposing;
  }

  const byBase = [...candidates.values()].sort((a, b) => b.base - a.base || (a.player < b.player ? -1 : a.player > b.player ? 1 : 0));
  const entries: Omit<QueueEntry, 'rank'>[] = [];
  byBase.forEach((c, i) => {
    const f = facts.get(c.player)!;
    const alerts = input.openAlerts.get(c.player);
    const explained = i < w.maxExplained;
    const latest = explained ? latestBadEvidence(input.evidence(c.player), alerts, f.handledAt) : undefined;
    const newEvidence = f.handledAt !== undefined && latest !== undefined && latest.afterHandling;
    const proposals = latestPerRule(f.proposals ?? []);
    if (f.handledAt !== undefined && !newEvidence && f.openAppeals === 0 && proposals.length === 0) return; // handled, nothing new
    const recency = latest === undefined ? 0 : 0.5 ** (Math.max(0, input.now - latest.time) / (w.recencyHalfLifeDays * DAY_MS));
    const attention = c.base + w.recency * recency;
    if (!(attention > 0)) return;
    entries.push({
      player: c.player,
      attention,
      scores: c.scores,
      tails: c.tails,
      openAlerts: alerts?.count ?? 0,
      alertScorers: alerts?.scorers ?? [],
      alertThresholds: alerts?.thresholds ?? [],
      ...(alerts === undefined ? {} : { alertRaised: alerts.latest }),
      openAppeals: f.openAppeals,
      proposals,
      activeSanctions: f.activeSanctions,
      ...(f.handledAt === undefined ? {} : { handledAt: f.handledAt }),
      ...(f.handledByRule === undefined ? {} : { handledByRule: f.handledByRule }),
      newEvidence,
      ...(latest === undefined ? {} : { latestEvidence: latest.time }),
    });
  });
  entries.sort((a, b) => b.attention - a.attention || (a.player < b.player ? -1 : a.player > b.player ? 1 : 0));
  return entries.map((e, i) => ({ rank: i + 1, ...e }));
}

/** Of open proposals (oldest first), each rule's newest, in the order the rules first proposed. */
function latestPerRule(proposals: readonly { rule: string; time: number }[]): { rule: string; time: number }[] {
  const byRule = new Map<string, { rule: string; time: number }>();
  for (const p of proposals) byRule.set(p.rule, { rule: p.rule, time: Math.max(p.time, byRule.get(p.rule)?.time ?? -Infinity) });
  return [...byRule.values()];
}

/**
 * The newest bad evidence (a bad dated item, or the raising of an open alert), and whether any
 * came after `handledAt`.
 */
export function latestBadEvidence(items: readonly EvidenceItem[], alerts: OpenAlerts | undefined, handledAt: number | undefined): { time: number; afterHandling: boolean } | undefined {
  let time = alerts === undefined ? -Infinity : alerts.latest;
  let afterHandling = handledAt !== undefined && alerts !== undefined && alerts.latest > handledAt;
  for (const item of items) {
    if (!item.bad) continue;
    if (item.time > time) time = item.time;
    if (handledAt !== undefined && item.time > handledAt) afterHandling = true;
  }
  return time === -Infinity ? undefined : { time, afterHandling };
}
