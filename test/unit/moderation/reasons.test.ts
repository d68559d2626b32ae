/** Each scorer's reasons, summaries and evidence in plain words, from small real logs. */
import { describe, expect, it } from 'vitest';
import { chat, cqr, reliability, reports, trust, type StandingEvent } from '../../../src/index.js';
import { standingsOf } from '../../../src/moderation/percentiles.js';
import { wordsOf as registeredWords } from '../../../src/scorers/index.js';
import type { AnyScorer } from '../../../src/scorers/scorer.js';
import { ago, num, ordinal, span } from '../../../src/util/words.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const base = { community: 'c' };

/** Runs `events` through `scorer` and gives `player`'s words. */
function wordsOf(scorer: AnyScorer, params: Record<string, unknown>, events: StandingEvent[], player: string) {
  const resolved = scorer.params.resolve(params) as Record<string, unknown>;
  const state = scorer.initialState(resolved);
  for (const event of events) scorer.evolve(state, event);
  const rows = scorer.rank(state, { community: 'c' });
  const i = rows.findIndex((r) => r.player === player);
  const standing = standingsOf(rows, scorer.rankOneIsWorst)[i]!;
  const explanation = scorer.explain(state, 'c', player);
  const now = Math.max(...events.map((e) => e.time));
  const input = { scorer: scorer.id, params: resolved, standing, explanation, now };
  const words = registeredWords(scorer);
  return { reason: words.reason(input), summary: words.summary(input), evidence: words.evidence(input), words };
}

describe('words', () => {
  it('rounds sensibly, never with an exponent or floating-point noise', () => {
    expect([num(0.45), num(0.1 + 0.2), num(7.3e-18), num(-157), num(3.14159), num(12.345), num(1234.5), num(-0.001), num(Infinity)]).toEqual(['0.45', '0.3', '0', '-157', '3.14', '12.3', '1,235', '0', 'none']);
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 112].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '112th']);
    expect([30_000, 5 * 60_000, 3 * HOUR, 47 * HOUR, 12 * DAY].map(span)).toEqual(['less than a minute', '5 minutes', '3 hours', '47 hours', '12 days']);
    expect(ago(10, 10)).toBe('just now');
    expect(ago(0, 2 * DAY)).toBe('2 days ago');
  });
});

describe('reliability', () => {
  // A drops 2 of 3 matches (m1 and m3), B finishes everything.
  const events: StandingEvent[] = [
    { ...base, type: 'match.start', time: 0, match: 'm1', players: ['A', 'B'] },
    { ...base, type: 'disconnect', time: HOUR, player: 'A' },
    { ...base, type: 'match.start', time: 2 * HOUR, match: 'm2', players: ['A', 'B'] },
    { ...base, type: 'match.end', time: 3 * HOUR, match: 'm2' },
    { ...base, type: 'match.start', time: 4 * HOUR, match: 'm3', players: ['A', 'B'] },
    { ...base, type: 'disconnect', time: 5 * HOUR, player: 'A' },
    { ...base, type: 'match.start', time: 2 * DAY, match: 'm4', players: ['B', 'C'] },
    { ...base, type: 'match.end', time: 2 * DAY + HOUR, match: 'm4' },
  ];

  it('says how many of the last matches the player dropped, the score and band, and the place (the latest event is at 49 hours)', () => {
    const w = wordsOf(reliability, {}, events, 'A');
    // A: −1, +1, −1 → −1/3; red; the worst of 3 (B and C have 1).
    expect(w.reason).toBe('dropped 2 of their 3 matches in the last 100 days (the latest 44 hours ago) — reliability -0.33 over those 100 days: red (below 0.65), the worst of 3');
    expect(w.summary).toBe('Reliability -0.33 over the last 100 days: red (below 0.65), the worst of 3; from 3 scored events: 1 finish, 2 drops, 0 resumes. Dropped 2 of the last 3 matches.');
    expect(w.evidence.map((e) => [e.time, e.kind, e.bad, e.text])).toEqual([
      [5 * HOUR, 'drop', true, 'dropped match m3 (-1), 44 hours ago'],
      [3 * HOUR, 'finish', false, 'finished match m2 (+1), 46 hours ago'],
      [HOUR, 'drop', true, 'dropped match m1 (-1), 2 days ago'],
    ]);
    expect(w.words.direction).toBe('higher is better');
  });
});

describe('reports', () => {
  // Everyone plays; B and C report A, C reports A twice; D reports B.
  const events: StandingEvent[] = [
    { ...base, type: 'played', time: 0, player: 'A', games: 10 },
    { ...base, type: 'played', time: 0, player: 'B', games: 10 },
    { ...base, type: 'played', time: 0, player: 'C', games: 10 },
    { ...base, type: 'played', time: 0, player: 'D', games: 10 },
    { ...base, type: 'report', time: 1, from: 'B', to: 'A' },
    { ...base, type: 'report', time: 2, from: 'C', to: 'A' },
    { ...base, type: 'report', time: 3, from: 'C', to: 'A' },
    { ...base, type: 'report', time: 4, from: 'D', to: 'B' },
  ];

  it('counts reporters and reports, and those whose judgment counts', () => {
    const w = wordsOf(reports, {}, events, 'A');
    expect(w.reason).toMatch(/^reported by 2 players \(3 reports\), all with good judgment, the latest just now — reports \d+(\.\d+)?, the worst of 4$/);
    expect(w.summary).toMatch(/^Bad-player points [\d.]+ \(the worst of 4\): reported by 2 players \(3 reports\), all with good judgment\. Heaviest: .*\. Their own judgment as a reporter: [\d.]+, from 10 games played\.$/);
    expect(w.evidence.map((e) => [e.time, e.kind, e.other])).toEqual([
      [3, 'report', 'C'],
      [2, 'report', 'C'],
      [1, 'report', 'B'],
    ]);
    expect(w.words.direction).toBe('higher is worse');
  });

  it('issue 17: dates each report received, newest first; one that carries no weight is evidence but not held against the player', () => {
    // A, B, C play 10 games each, D none: Nr = 30 / 3 = 10, JP(B) = JP(C) = 1 (unreported), JP(D) = 0.
    const dated: StandingEvent[] = [
      { ...base, type: 'played', time: 0, player: 'A', games: 10 },
      { ...base, type: 'played', time: 0, player: 'B', games: 10 },
      { ...base, type: 'played', time: 0, player: 'C', games: 10 },
      { ...base, type: 'report', time: HOUR, from: 'B', to: 'A' },
      { ...base, type: 'report', time: 3 * HOUR, from: 'C', to: 'A' },
      { ...base, type: 'report', time: 2 * DAY, from: 'D', to: 'A' },
    ];
    const w = wordsOf(reports, {}, dated, 'A');
    expect(w.evidence.map((e) => [e.time, e.kind, e.other, e.bad, e.text])).toEqual([
      [2 * DAY, 'report', 'D', false, 'reported by D (carries no weight), just now'],
      [3 * HOUR, 'report', 'C', true, 'reported by C (judgment 1, adds 1), 45 hours ago'],
      [HOUR, 'report', 'B', true, 'reported by B (judgment 1, adds 1), 47 hours ago'],
    ]);
  });

  it('says so when no reporter’s judgment counts', () => {
    // Nobody played: every judgment is 0.
    const w = wordsOf(reports, {}, events.filter((e) => e.type === 'report'), 'A');
    expect(w.reason).toBe('reported by 2 players (3 reports), none with judgment that counts — reports 0, the worst of 4');
  });
});

describe('trust', () => {
  // The observer O rates A −1 and B +1; B rates A −0.5 a day later.
  const events: StandingEvent[] = [
    { ...base, type: 'rating', time: 0, from: 'O', to: 'A', value: -1 },
    { ...base, type: 'rating', time: 0, from: 'O', to: 'B', value: 1 },
    { ...base, type: 'rating', time: DAY, from: 'B', to: 'A', value: -0.5 },
  ];

  it('says who rates the player negatively and with how much of the weight, and dates each rating by its own event (issue 24)', () => {
    const w = wordsOf(trust, { observers: ['O'] }, events, 'A');
    expect(w.reason).toMatch(/^rated negatively by 2 of 2 raters, carrying 100% of the weight, the latest just now — trust -\d\.\d+, the worst of 2$/);
    expect(w.evidence.map((e) => [e.time, e.other, e.bad])).toEqual([
      [DAY, 'B', true],
      [0, 'O', true],
    ]);
    expect(w.evidence[1]!.text).toBe('rated -1 by O (trust 1, 51% of the weight), 24 hours ago');
    expect(w.summary).toContain('as seen by O: rated negatively by 2 of 2 raters');
  });
});

describe('cqr', () => {
  const events: StandingEvent[] = [
    { ...base, type: 'action', time: 0, player: 'A', delta: -20 },
    { ...base, type: 'action', time: 1, player: 'A', delta: 15 },
    { ...base, type: 'action', time: 2, player: 'A', delta: -30 },
    { ...base, type: 'action', time: 3, player: 'A', delta: 3 },
    { ...base, type: 'action', time: 4, player: 'B', delta: 40 },
  ];

  it('says how many of the counted actions harmed the community', () => {
    const w = wordsOf(cqr, {}, events, 'A');
    // x = 10 ignores the +3: −20 + 15 − 30 = −35.
    expect(w.reason).toBe('2 of their last 3 counted actions harmed the community — cqr -35, the worst of 2');
    expect(w.summary).toBe('CQR -35 (the worst of 2) from 4 actions: 2 of their last 3 counted actions harmed the community. Counted changes, oldest first: -20, 15, -30.');
  });
});

describe('chat', () => {
  const events: StandingEvent[] = [
    ...Array.from({ length: 30 }, (_, i): StandingEvent => ({ ...base, type: 'chat', time: i, from: 'A', to: ['B'] })),
    { ...base, type: 'chat', time: 40, from: 'B', to: ['A'] },
  ];

  it('says what the player received and sent, what is wrong with it, and when they sit at the floor', () => {
    const w = wordsOf(chat, {}, events, 'A');
    expect(w.reason).toMatch(/^sent 30 messages, received 1: talks far more than others write to them, and every 20 they send lowers the score — chat 0\.1\d?, (the lowest possible, )?the worst of 2$/);
    expect(w.summary).toContain('floor 0.1, cap 1): received 1 message, sent 30; recent senders: B.');
  });
});

describe('issue 28: what a moderator misread, in the words', () => {
  // D plays 12 matches a day apart against E: drops the first two and the ninth, finishes the rest.
  const dropped = new Set([1, 2, 9]);
  const events: StandingEvent[] = [];
  for (let m = 1; m <= 12; m++) {
    events.push({ ...base, type: 'match.start', time: m * DAY, match: `m${m}`, players: ['D', 'E'] });
    events.push(dropped.has(m) ? { ...base, type: 'disconnect', time: m * DAY + HOUR, player: 'D' } : { ...base, type: 'match.end', time: m * DAY + HOUR, match: `m${m}` });
  }

  it('reliability: the last 10 matches and the whole window the band reads, when the newest drop was, and the band with its threshold', () => {
    // D: 9 finishes, 3 drops → 6 / 12 = 0.5, red; E: 9 finishes → 1. The newest drop (m9) at 9 days 1 hour, the clock at 12 days 1 hour: 3 days ago.
    const w = wordsOf(reliability, {}, events, 'D');
    expect(w.reason).toBe('dropped 1 of their last 10 matches and 3 of 12 in the last 100 days (the latest 3 days ago) — reliability 0.5 over those 100 days: red (below 0.65), the worst of 2');
    expect(w.summary).toBe('Reliability 0.5 over the last 100 days: red (below 0.65), the worst of 2; from 12 scored events: 9 finishes, 3 drops, 0 resumes. Dropped 1 of the last 10 matches.');
    // Kept 5 days: from 7 days 1 hour on (the horizon itself is kept), m7 to m12; one drop (m9) in 6 matches → (5 − 1) / 6 = 0.67, orange.
    const short = wordsOf(reliability, { keepDays: 5 }, events, 'D');
    expect(short.reason).toBe('dropped 1 of their 6 matches in the last 5 days (the latest 3 days ago) — reliability 0.67 over those 5 days: orange (from 0.65), the worst of 2');
    // E never dropped: scored only in the 9 matches that ended, so no "latest", and the band's own threshold.
    const clean = wordsOf(reliability, {}, events, 'E');
    expect(clean.reason).toBe('dropped none of their 9 matches in the last 100 days — reliability 1 over those 100 days: green (from 0.95), 2nd worst of 2');
  });

  it('chat: says what is wrong in the method’s terms, whether the player talks far more than others write to them or few write at all', () => {
    // B sends 30 and receives 1; A sends 1 (to B) and receives 30: B talks far more than it is written to.
    const chatty: StandingEvent[] = [
      ...Array.from({ length: 30 }, (_, i): StandingEvent => ({ ...base, type: 'chat', time: i, from: 'B', to: ['A'] })),
      { ...base, type: 'chat', time: 40, from: 'A', to: ['B'] },
    ];
    expect(wordsOf(chat, {}, chatty, 'B').reason).toMatch(/^sent 30 messages, received 1: talks far more than others write to them, and every 20 they send lowers the score — chat /);
    // C sends 1 and receives 1: not a talker, just someone few write to (and fewer than N sent: no decay to speak of).
    const quiet: StandingEvent[] = [
      { ...base, type: 'chat', time: 1, from: 'C', to: ['A'] },
      ...Array.from({ length: 5 }, (_, i): StandingEvent => ({ ...base, type: 'chat', time: 2 + i, from: 'B', to: ['A'] })),
      { ...base, type: 'chat', time: 10, from: 'A', to: ['C'] },
    ];
    expect(wordsOf(chat, {}, quiet, 'C').reason).toMatch(/^received 1 message, sent 1: few players write to them — chat /);
  });

  it('reports and trust: when the newest report that weighs, and the newest negative rating, came', () => {
    // Reports 1 day and 3 days before the last event, from players who played.
    const reportsLog: StandingEvent[] = [
      ...['A', 'B', 'C'].map((player): StandingEvent => ({ ...base, type: 'played', time: 0, player, games: 10 })),
      { ...base, type: 'report', time: 2 * DAY, from: 'B', to: 'A' },
      { ...base, type: 'report', time: 4 * DAY, from: 'C', to: 'A' },
      { ...base, type: 'played', time: 5 * DAY, player: 'B', games: 1 },
    ];
    expect(wordsOf(reports, {}, reportsLog, 'A').reason).toMatch(/^reported by 2 players, all with good judgment, the latest 24 hours ago — reports /);
    const ratings: StandingEvent[] = [
      { ...base, type: 'rating', time: 0, from: 'O', to: 'A', value: -1 },
      { ...base, type: 'rating', time: 3 * DAY, from: 'O', to: 'B', value: 1 },
    ];
    expect(wordsOf(trust, { observers: ['O'], ttlMax: 24 * 30 }, ratings, 'A').reason).toMatch(/^rated negatively by 1 of 1 rater, carrying 100% of the weight, the latest 3 days ago — trust /);
  });
});
