/** The attention queue's formula (docs/moderation.md#the-queue), on hand-computed cases. */
import { describe, expect, it } from 'vitest';
import type { QueueFacts } from '../../../src/moderation/book-types.js';
import { standingsOf, tailOf } from '../../../src/moderation/percentiles.js';
import { computeQueue, latestBadEvidence, type QueueInput, type QueueRanking, type QueueWeights } from '../../../src/moderation/queue.js';
import { handledText } from '../../../src/moderation/new-evidence.js';
import type { EvidenceItem } from '../../../src/scorers/words.js';
import { DEFAULT_CONFIG } from '../../../src/service/config.js';

const DAY = 86_400_000;
const W: QueueWeights = { ...DEFAULT_CONFIG.queue, tailShare: 0.2 };

/** Rows as a scorer gives them: rank order, from (player, score) pairs already sorted. */
function ranking(scorer: string, rankOneIsWorst: boolean, pairs: [string, number][]): QueueRanking {
  return { scorer, scorerId: scorer, rankOneIsWorst, rows: pairs.map(([player, score], i) => ({ rank: i + 1, player, score, community: 'c' })) };
}

const NONE: QueueFacts = { openAppeals: 0, activeSanctions: [] };

function input(rankings: QueueRanking[], more: Partial<QueueInput> = {}): QueueInput {
  return { rankings, openAlerts: new Map(), withOpenAppeals: [], facts: () => NONE, evidence: () => [], now: 100 * DAY, weights: W, ...more };
}

// Ten players; higher is better: p9 is the worst.
const rel = ranking('reliability', false, Array.from({ length: 10 }, (_, i) => [`p${i}`, 1 - i / 10] as [string, number]));
// Reports: higher is worse, rank 1 the worst; p9 and p8 reported, everyone else tied at 0.
const rep = ranking('reports', true, [['p9', 3], ['p8', 1], ...Array.from({ length: 8 }, (_, i) => [`p${i}`, 0] as [string, number])]);

describe('percentiles, worst first', () => {
  it('gives the worst player 1 and the best 1/n, in either direction', () => {
    const s = standingsOf(rel.rows, false);
    expect(s.map((x) => x.percentile)).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(s.map((x) => x.depth)).toEqual(s.map((x) => x.percentile));
    expect(s[9]!.worstFirst).toBe(1);
    const r = standingsOf(rep.rows, true);
    expect(r.map((x) => x.percentile)).toEqual([1, 0.9, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8]);
    expect(r[0]!.worstFirst).toBe(1);
  });

  it('gives a tie the percentile of its worst member and the depth of its best: a crowd at 0 is no tail', () => {
    const r = standingsOf(rep.rows, true);
    // Eight tied at 0: each is worse than or equal to 8 players (0.8), strictly worse than none (depth 1/10).
    expect(r.slice(2).every((x) => x.percentile === 0.8 && x.depth === 0.1)).toBe(true);
    expect(r[1]!.depth).toBe(0.9);
  });

  it('measures the tail from its edge: 0 outside the worst share, 1 at the very worst', () => {
    const of = 10;
    expect(tailOf({ depth: 1, of }, 0.2)).toBe(1);
    expect(tailOf({ depth: 0.9, of }, 0.2)).toBe(0.5);
    expect(tailOf({ depth: 0.8, of }, 0.2)).toBe(0);
    expect(tailOf({ depth: 0.1, of }, 0.2)).toBe(0);
    // 3 of 30 is the tail's edge although 0.1 · 30 is 3.0000000000000004 in floating point.
    expect(tailOf({ depth: 27 / 30, of: 30 }, 0.1)).toBe(0);
  });
});

describe('the attention formula', () => {
  it('sums the tails, adds breadth for each further scorer, ranks by attention then id', () => {
    const q = computeQueue(input([rel, rep]));
    // p9: tail 1 in both (worst of each): 1·(1 + 1) + 0.5·(2 − 1) = 2.5.
    // p8: reliability depth 0.9 → tail 0.5; reports depth 0.9 → tail 0.5: 1·1 + 0.5·1 = 1.5.
    expect(q.map((e) => [e.rank, e.player, e.attention, e.tails])).toEqual([
      [1, 'p9', 2.5, 2],
      [2, 'p8', 1.5, 2],
    ]);
    expect(q[0]!.scores).toEqual([
      { scorer: 'reliability', scorerId: 'reliability', score: 1 - 9 / 10, rank: 10, of: 10, percentile: 1, worseThan: 9, tail: 1 },
      { scorer: 'reports', scorerId: 'reports', score: 3, rank: 1, of: 10, percentile: 1, worseThan: 9, tail: 1 },
    ]);
  });

  it('weighs open alerts and appeals, and lists a player with an open appeal even with good scores', () => {
    const q = computeQueue(
      input([rel], {
        openAlerts: new Map([['p8', { count: 2, latest: 99 * DAY, scorers: ['reliability'], thresholds: ['a', 'b'] }]]),
        withOpenAppeals: ['p0'],
        facts: (p) => (p === 'p0' ? { openAppeals: 1, activeSanctions: ['mute'], handledAt: 50 * DAY } : NONE),
      }),
    );
    // p0: appeal 2 (handled, but an appeal is open); p8: tail 0.5 + 0.5·2 alerts + recency
    // 0.5·0.5^(1 day / 7 days) = 1.5 + 0.4529 = 1.9529; p9: tail 1.
    const recency = 0.5 * 0.5 ** (1 / 7);
    expect(q.map((e) => e.player)).toEqual(['p0', 'p8', 'p9']);
    expect(q[0]).toMatchObject({ player: 'p0', attention: 2, openAppeals: 1, activeSanctions: ['mute'], handledAt: 50 * DAY, newEvidence: false, tails: 0 });
    expect(q[1]!.attention).toBeCloseTo(0.5 + 1 + recency, 12);
    expect(q[1]!.attention).toBeCloseTo(1.9529, 4);
    expect(q[2]!.attention).toBe(1);
  });

  it('follows the weights: breadth 0 and tail 2 double the tails and drop the bonus', () => {
    const q = computeQueue(input([rel, rep], { weights: { ...W, tail: 2, breadth: 0 } }));
    expect(q.map((e) => [e.player, e.attention])).toEqual([
      ['p9', 4],
      ['p8', 2],
    ]);
  });

  it('adds recency from the newest bad dated evidence, halving every half-life', () => {
    const drop: EvidenceItem = { time: 86 * DAY, scorer: 'reliability', kind: 'drop', text: '', bad: true };
    const finish: EvidenceItem = { time: 99 * DAY, scorer: 'reliability', kind: 'finish', text: '', bad: false };
    const q = computeQueue(input([rel], { evidence: (p) => (p === 'p8' ? [finish, drop] : []) }));
    // p8's newest bad evidence is 14 days old: 0.5 · 0.5² = 0.125 on top of its tail 0.5.
    expect(q.find((e) => e.player === 'p8')!.attention).toBeCloseTo(0.625, 12);
    expect(q.find((e) => e.player === 'p8')!.latestEvidence).toBe(86 * DAY);
    expect(q.find((e) => e.player === 'p9')!.attention).toBe(1);
  });

  it('skips a handled player unless bad evidence is dated after the handling', () => {
    const drop = (time: number): EvidenceItem => ({ time, scorer: 'reliability', kind: 'drop', text: '', bad: true });
    const handled = (p: string): QueueFacts => (p === 'p9' || p === 'p8' ? { openAppeals: 0, activeSanctions: ['warn'], handledAt: 90 * DAY } : NONE);
    const q = computeQueue(input([rel], { facts: handled, evidence: (p) => (p === 'p9' ? [drop(80 * DAY)] : p === 'p8' ? [drop(95 * DAY)] : []) }));
    // p9's only drop is older than its handling: skipped. p8 dropped after it: listed, newEvidence.
    expect(q.map((e) => [e.player, e.newEvidence, e.handledAt])).toEqual([['p8', true, 90 * DAY]]);
  });

  it('counts an alert raised after the handling as new evidence, and one raised before as not', () => {
    const handled = (): QueueFacts => ({ openAppeals: 0, activeSanctions: [], handledAt: 90 * DAY });
    const alerts = (latest: number) => new Map([['p9', { count: 1, latest, scorers: ['reliability'], thresholds: ['red'] }]]);
    expect(computeQueue(input([rel], { facts: handled, openAlerts: alerts(89 * DAY) }))).toEqual([]);
    expect(computeQueue(input([rel], { facts: handled, openAlerts: alerts(91 * DAY) })).map((e) => e.player)).toEqual(['p9']);
  });

  it('reads the dated evidence of at most maxExplained players, the most attention first', () => {
    const seen: string[] = [];
    computeQueue(input([rel, rep], { weights: { ...W, maxExplained: 1 }, evidence: (p) => (seen.push(p), []) }));
    expect(seen).toEqual(['p9']);
  });

  it('is empty for a community without rankings, alerts or appeals', () => {
    expect(computeQueue(input([]))).toEqual([]);
    expect(computeQueue(input([ranking('cqr', false, [['a', 1], ['b', 1]])]))).toEqual([]);
  });
});

describe('issue 24: new evidence dated by its own event time', () => {
  it('counts a trust rating as after the handling when its event is dated after it', () => {
    const rating = (time: number): EvidenceItem => ({ time, scorer: 'trust', kind: 'rating', text: '', bad: true });
    expect(latestBadEvidence([rating(1000)], undefined, 1000)).toEqual({ time: 1000, afterHandling: false });
    expect(latestBadEvidence([rating(1001)], undefined, 1000)).toEqual({ time: 1001, afterHandling: true });
    expect(latestBadEvidence([], undefined, 1000)).toBeUndefined();
  });
});

describe('issue 17: reports received after the handling', () => {
  const report = (time: number, bad = true): EvidenceItem => ({ time, scorer: 'reports', kind: 'report', text: '', other: 'x', bad });
  const handled = (p: string): QueueFacts => (p === 'p9' ? { openAppeals: 0, activeSanctions: [], handledAt: 90 * DAY } : NONE);

  it('bring a handled player back when they carry weight, and set the recency', () => {
    expect(computeQueue(input([rep], { facts: handled, evidence: () => [report(80 * DAY)] })).map((e) => e.player)).toEqual(['p8']);
    const q = computeQueue(input([rep], { facts: handled, evidence: (p) => (p === 'p9' ? [report(80 * DAY), report(93 * DAY)] : []) }));
    const p9 = q.find((e) => e.player === 'p9')!;
    // Tail 1 plus recency 0.5 · 0.5^(7 days / 7 days) = 0.25.
    expect(p9).toMatchObject({ newEvidence: true, handledAt: 90 * DAY, latestEvidence: 93 * DAY });
    expect(p9.attention).toBe(1.25);
  });

  it('do not when no report after it carries weight', () => {
    const q = computeQueue(input([rep], { facts: handled, evidence: (p) => (p === 'p9' ? [report(80 * DAY), report(95 * DAY, false)] : []) }));
    expect(q.map((e) => e.player)).toEqual(['p8']);
  });

  it('are counted by kind in the handling line, with an alert raised since', () => {
    const drop: EvidenceItem = { time: 96 * DAY, scorer: 'reliability', kind: 'drop', text: '', bad: true };
    const rating: EvidenceItem = { time: 99 * DAY, scorer: 'trust', kind: 'rating', text: '', bad: true };
    const items = [report(80 * DAY), report(91 * DAY), report(92 * DAY), report(93 * DAY), report(94 * DAY, false), drop, rating];
    expect(handledText(90 * DAY, 92 * DAY, items, undefined)).toBe('handled 2 days ago; new since: 3 reports, 1 drop, 1 negative rating');
    expect(handledText(90 * DAY, 100 * DAY, [report(91 * DAY)], 95 * DAY)).toBe('handled 10 days ago; new since: 1 report, an alert raised');
    expect(handledText(90 * DAY, 100 * DAY, [report(80 * DAY)], 89 * DAY)).toBe('handled 10 days ago; new evidence since');
  });
});

describe('issue 28: rules in the queue', () => {
  it("lists a player a rule proposes, handled or not, weighing each proposing rule once, and names the rule's sanction that handled a player", () => {
    const facts = (p: string): QueueFacts =>
      p === 'p0'
        ? { openAppeals: 0, activeSanctions: [], handledAt: 40 * DAY, proposals: [{ rule: 'a', time: 50 * DAY }, { rule: 'a', time: 60 * DAY }, { rule: 'b', time: 55 * DAY }] }
        : p === 'p1'
          ? { openAppeals: 0, activeSanctions: [], proposals: [{ rule: 'b', time: 70 * DAY }] }
          : NONE;
    const q = computeQueue(input([rel], { withOpenProposals: ['p0', 'p1'], facts, weights: { ...W, proposal: 1.5 } }));
    // p0: two rules proposing, 1.5 each = 3 (a third proposal of rule a weighs nothing more); p1: 1.5; p9 and p8: their tails, 1 and 0.5.
    expect(q.map((e) => [e.player, e.attention])).toEqual([
      ['p0', 3],
      ['p1', 1.5],
      ['p9', 1],
      ['p8', 0.5],
    ]);
    expect(q[0]!.proposals).toEqual([
      { rule: 'a', time: 60 * DAY },
      { rule: 'b', time: 55 * DAY },
    ]);
    expect(q[2]!.proposals).toEqual([]);
    expect(handledText(90 * DAY, 92 * DAY, [], undefined, { rule: 'leaves-matches', action: 'mute', label: 'Leaves matches' })).toBe('muted by rule leaves-matches (Leaves matches) 2 days ago; new evidence since');
    expect(handledText(90 * DAY, 92 * DAY, [], undefined, { rule: 'gone', action: 'warn' })).toBe('warned by rule gone 2 days ago; new evidence since');
  });
});
