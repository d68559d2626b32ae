/** issue 28: the team figures of one community (docs/moderation.md#team-figures), on a hand-computed record. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { communityTeam, quantile, type TeamInput, type TeamPlayer } from '../../../src/moderation/team.js';
import { bucketCounts, teamAnswer } from '../../../src/http/team-answer.js';

const S = 1000;

/**
 * a: reported at 100 s and 200 s; Mia's verdict at 400 s and suspension at 410 s; an appeal
 *    against it opened at 500 s, granted by Bob at 800 s.
 * b: reported at 900 s; rule spam mutes at 1000 s; Mia's next verdict (1600 s) dismisses.
 * c: rule spam proposes (a note) at 2000 s; Mia upholds at 2600 s.
 * d: in the queue, reported at 3000 s, never handled. e: in the queue, nothing dated.
 * f: in the queue with an appeal opened at 3300 s. The clock is at 3600 s.
 */
const RECORD: TeamPlayer[] = [
  {
    player: 'a',
    verdicts: [{ sequence: 5, time: 400 * S, on: 'player', outcome: 'upheld', moderator: 'Mia' }],
    sanctions: [{ id: 's1', sequence: 6, time: 410 * S, action: 'suspend', moderator: 'Mia', ended: { kind: 'appeal', id: 'g1', time: 800 * S, moderator: 'Bob' } }],
    appeals: [{ id: 'o1', sequence: 7, time: 500 * S, sanction: 's1', decided: { status: 'granted', time: 800 * S, sequence: 8, moderator: 'Bob' } }],
    notes: [],
  },
  {
    player: 'b',
    verdicts: [{ sequence: 12, time: 1600 * S, on: 'player', outcome: 'dismissed', moderator: 'Mia' }],
    sanctions: [{ id: 's2', sequence: 10, time: 1000 * S, action: 'mute', moderator: 'rule:spam' }],
    appeals: [],
    notes: [],
  },
  {
    player: 'c',
    verdicts: [{ sequence: 21, time: 2600 * S, on: 'player', outcome: 'upheld', moderator: 'Mia' }],
    sanctions: [],
    appeals: [],
    notes: [{ sequence: 20, time: 2000 * S, moderator: 'rule:spam' }],
  },
  { player: 'f', verdicts: [], sanctions: [], appeals: [{ id: 'o2', sequence: 30, time: 3300 * S }], notes: [] },
];
const REPORTS: Record<string, number[]> = { a: [200 * S, 100 * S], b: [900 * S], d: [3000 * S] };

const input = (players: readonly TeamPlayer[] = RECORD): TeamInput => ({
  players,
  reportTimes: (player) => REPORTS[player] ?? [],
  queue: [{ player: 'd' }, { player: 'e' }, { player: 'f' }],
  now: 3600 * S,
});

describe('issue 28: team figures of a hand-computed record', () => {
  const team = communityTeam(input());

  it('counts decisions per kind and per moderator (a rule is a moderator named rule:<name>)', () => {
    expect(team.decisions).toEqual({ verdicts: 3, reportVerdicts: 0, sanctions: 2, lifts: 0, appealDecisions: 1 });
    expect(team.moderators.get('Mia')).toEqual({ verdicts: 3, reportVerdicts: 0, sanctions: 1, lifts: 0, appealDecisions: 0, sanctionsAppealed: 1, appealsGranted: 1, waits: [300 * S, 600 * S] });
    expect(team.moderators.get('Bob')).toEqual({ verdicts: 0, reportVerdicts: 0, sanctions: 0, lifts: 0, appealDecisions: 1, sanctionsAppealed: 0, appealsGranted: 0, waits: [300 * S] });
    expect(team.moderators.get('rule:spam')).toMatchObject({ sanctions: 1, waits: [100 * S] });
  });

  it('times each case from its first signal to the handling that closes it; a second handling with no signal since closes none', () => {
    // a: 100 s → 400 s; c: 2000 s (the proposal) → 2600 s; b: 900 s → the rule's mute at 1000 s; a's appeal 500 s → 800 s.
    expect(team.waits).toEqual({ player: { moderator: [300 * S, 600 * S], rule: [100 * S] }, appeal: { moderator: [300 * S], rule: [] } });
  });

  it("counts a rule's firings and overturns: a mute whose next review dismissed, a proposal upheld", () => {
    expect([...team.rules]).toEqual([['spam', { sanctions: 1, proposals: 1, overturned: 1 }]]);
  });

  it("dates the queue's players by their open case or open appeal", () => {
    expect(team.queue).toEqual({ length: 3, ages: [600 * S, 300 * S] });
  });

  it('answers GET /v1/team with seconds, nearest-rank medians and buckets', () => {
    const answer = teamAnswer({ community: 'c', sequence: 30, now: 3600 * S, team }, 2);
    expect(answer.decisions).toEqual({ total: 6, verdicts: 3, reportVerdicts: 0, sanctions: 2, lifts: 0, appealDecisions: 1 });
    expect(answer.waits[0]).toEqual({ case: 'player', by: 'moderator', count: 2, medianSeconds: 300, p90Seconds: 600, maxSeconds: 600, buckets: [0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0] });
    expect(answer.waits.map((w) => [w.case, w.by, w.count])).toEqual([
      ['player', 'moderator', 2],
      ['player', 'rule', 1],
      ['appeal', 'moderator', 1],
      ['appeal', 'rule', 0],
    ]);
    expect(answer.waits[3]).toEqual({ case: 'appeal', by: 'rule', count: 0, buckets: new Array(11).fill(0) });
    expect(answer.moderators.total).toBe(3);
    expect(answer.moderators.rows.map((r) => [r.moderator, r.decisions, r.cases, r.medianWaitSeconds])).toEqual([
      ['Mia', 4, 2, 300],
      ['Bob', 1, 1, 300],
    ]);
    expect(answer.rules).toEqual({ total: 1, rows: [{ rule: 'spam', firings: 2, sanctions: 1, proposals: 1, overturned: 1, overturnRate: 0.5 }] });
    expect(answer.queue).toEqual({ length: 3, dated: 2, medianSeconds: 300, oldestSeconds: 600, buckets: [0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0] });
  });

  it('counts a lift once, however many sanctions it ended, for the moderator who lifted', () => {
    const lifted = communityTeam({
      ...input([
        {
          player: 'g',
          verdicts: [],
          appeals: [],
          notes: [],
          sanctions: [
            { id: 'x1', sequence: 1, time: 1, action: 'warn', moderator: 'Mia', ended: { kind: 'lifted', id: 'l1', time: 5, moderator: 'Bob' } },
            { id: 'x2', sequence: 2, time: 2, action: 'mute', moderator: 'Mia', ended: { kind: 'lifted', id: 'l1', time: 5, moderator: 'Bob' } },
          ],
        },
      ]),
      queue: [],
    });
    expect(lifted.decisions).toEqual({ verdicts: 0, reportVerdicts: 0, sanctions: 2, lifts: 1, appealDecisions: 0 });
    expect(lifted.moderators.get('Bob')?.lifts).toBe(1);
  });

  it('buckets by upper bound, the last bucket above the last bound', () => {
    expect(bucketCounts([0, 60 * S, 60 * S + 1, 30 * 86_400 * S, 30 * 86_400 * S + 1])).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.9)).toBe(4);
  });

  it('gives the same figures whatever order the players are read in (the book keeps no order)', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(RECORD, { minLength: RECORD.length }), (players) => {
        const shuffled = communityTeam(input(players));
        expect(teamAnswer({ community: 'c', sequence: 30, now: 3600 * S, team: shuffled }, 50)).toEqual(teamAnswer({ community: 'c', sequence: 30, now: 3600 * S, team }, 50));
      }),
    );
  });
});
