/**
 * A defence switched off is the published method bit for bit: the defaults are every defence off,
 * and a defence that is on but has nothing to act on (no verdicts, every report after a shared
 * match, one reporter per match) gives the published figures exactly, not merely close ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chat, reliability, reports, trust, type AnyScorer, type StandingEvent } from '../../../src/index.js';
import { scorerView } from '../../../src/testing/index.js';
import { DAY, logs } from './logs.js';

function view(scorer: AnyScorer, params: Record<string, unknown>, events: readonly StandingEvent[]): string {
  const state = scorer.initialState(scorer.params.resolve(params));
  for (const e of events) scorer.evolve(state, e);
  // Rankings and explanations, but for the parameters an explanation echoes (the snapshots differ
  // by design: a defence keeps its own state).
  const players = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
  const shown = JSON.parse(scorerView(scorer, state, scorer.communities(state), players)) as { rank: unknown; explain: (Record<string, unknown> | null)[] };
  return JSON.stringify({ rank: shown.rank, explain: shown.explain.map((e) => (e === null ? null : { ...e, params: undefined })) });
}

describe('reports', () => {
  it('defaults are every defence off, and verdicts change nothing then', () => {
    const off = { sharedMatchDays: 0, oneVoicePerMatch: false, oneVoicePerReporter: false, judgmentSplit: 1, accuracyPrior: Infinity };
    expect(reports.params.resolve(off)).toEqual(reports.params.resolve({}));
    fc.assert(
      fc.property(logs(), (events) => view(reports, off, events) === view(reports, {}, events.filter((e) => e.type !== 'verdict'))),
      { seed: 21, numRuns: 200 },
    );
  });

  it('with defences on but nothing to act on, the published bits', () => {
    // Every report follows a match its two players start just before it, one reporter per match and
    // per reported player, every reporter with one report at most (so no split), no verdicts.
    const step = fc.record({ to: fc.integer({ min: 0, max: 9 }), games: fc.integer({ min: 1, max: 20 }) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const events: StandingEvent[] = steps.flatMap(({ to, games }, i): StandingEvent[] => [
          { type: 'played', time: i, community: 'c', player: `r${i}`, games },
          { type: 'played', time: i, community: 'c', player: `p${to}`, games: 1 + (games % 5) },
          { type: 'match.start', time: i, community: 'c', match: `m${i}`, players: [`r${i}`, `p${to}`, 'p7'] },
          { type: 'report', time: i, community: 'c', from: `r${i}`, to: `p${to}` },
          ...(games % 3 === 0 ? [{ type: 'report' as const, time: i, community: 'c', from: `p${to}`, to: `r${i}` }] : []),
        ]);
        const published = view(reports, {}, events);
        return (
          view(reports, { sharedMatchDays: 1 }, events) === published &&
          view(reports, { sharedMatchDays: 1, oneVoicePerMatch: true }, events) === published &&
          view(reports, { oneVoicePerReporter: true }, events) === published &&
          view(reports, { accuracyPrior: 0.1 }, events) === published
        );
      }),
      { seed: 22, numRuns: 200 },
    );
  });
});

describe('trust', () => {
  it('defaults are the defence off; with it on but every trusted player reached by some flow, the published bits', () => {
    const base = { observers: 'p0,p1', ttlMax: 24 * 50 };
    expect(trust.params.resolve({ ...base, minFlow: 0 })).toEqual(trust.params.resolve(base));
    fc.assert(
      fc.property(logs(), (events) => {
        const published = view(trust as AnyScorer, base, events);
        // any positive reputation comes down a chain of positive ratings from an observer, so its flow is positive
        return view(trust as AnyScorer, { ...base, minFlow: Number.MIN_VALUE }, events) === published && view(trust as AnyScorer, { ...base, minFlow: Number.MIN_VALUE, flowDamping: 0.9 }, events) === published;
      }),
      { seed: 24, numRuns: 200 },
    );
  });
});

describe('chat', () => {
  it('defaults are the defence off; when every sender\'s first message reaches `partners` players, the published bits', () => {
    expect(chat.params.resolve({ partners: 1 })).toEqual(chat.params.resolve({}));
    const everyone = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
    fc.assert(
      fc.property(logs(), (events) => {
        const seen = new Set<string>();
        const chats = events.flatMap((e): StandingEvent[] => {
          if (e.type !== 'chat') return [];
          const first = !seen.has(`${e.community} ${e.from}`);
          seen.add(`${e.community} ${e.from}`);
          return [first ? { ...e, to: everyone } : e]; // 7 receivers besides the sender
        });
        return view(chat as AnyScorer, { partners: 7 }, chats) === view(chat as AnyScorer, {}, chats);
      }),
      { seed: 25, numRuns: 200 },
    );
  });
});

describe('reliability', () => {
  it('defaults are the defences off; with them on but every match long and among strangers, the published bits', () => {
    expect(reliability.params.resolve({ repeatWeight: 1, minMatchMinutes: 0 })).toEqual(reliability.params.resolve({}));
    const step = fc.record({ players: fc.integer({ min: 2, max: 4 }), outcome: fc.constantFrom('end', 'drop', 'drop-resume', 'drop-resume-end'), minutes: fc.integer({ min: 10, max: 90 }), gap: fc.integer({ min: 0, max: 20 * DAY }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.constantFrom('a', 'b'), (steps, community) => {
        let time = 0;
        const events: StandingEvent[] = steps.flatMap(({ players, outcome, minutes, gap }, i): StandingEvent[] => {
          // fresh player ids for every match, but one player kept across all: nobody meets anybody twice
          const ids = ['regular', ...Array.from({ length: players - 1 }, (_, k) => `m${i}p${k}`)];
          const start = (time += gap);
          const match = `m${i}`;
          const out: StandingEvent[] = [{ type: 'match.start', time: start, community, match, players: ids }];
          if (outcome !== 'end') out.push({ type: 'disconnect', time: start + 60_000, community, player: ids[i % players]! });
          if (outcome.includes('resume')) out.push({ type: 'match.resume', time: start + 120_000, community, match });
          if (outcome !== 'drop' && outcome !== 'drop-resume') out.push({ type: 'match.end', time: start + minutes * 60_000, community, match });
          return out;
        });
        const published = view(reliability as AnyScorer, { keepDays: 30 }, events);
        return view(reliability as AnyScorer, { keepDays: 30, repeatWeight: 0.5, minMatchMinutes: 10 }, events) === published;
      }),
      { seed: 26, numRuns: 200 },
    );
  });
});
