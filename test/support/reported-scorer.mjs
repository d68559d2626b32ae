/**
 * A small scorer of one's own, as a studio would write it outside standing: `reported`, the
 * number of reports a player received (rank 1 the most reported: rankOneIsWorst). Plain
 * JavaScript over the built package, loaded by the command line and the service through
 * STANDING_SCORERS (docs/architecture.md#adding-a-scorer). test/cli/sixth-scorer.test.ts runs it.
 */
import { communityScorer, defineParams } from '../../dist/index.js';

class ReportedCommunity {
  /** Reports received, by player. */
  counts = new Map();

  toSnapshot() {
    return [...this.counts];
  }

  static fromSnapshot(entries) {
    const c = new ReportedCommunity();
    c.counts = new Map(entries);
    return c;
  }
}

const params = defineParams('reported', { minReports: 1 }, {
  minReports: (raw) => {
    const n = Number(raw);
    return Number.isInteger(n) && n >= 1 ? n : { invalid: 'must be an integer of at least 1' };
  },
});

const reported = {
  id: 'reported',
  params,
  rankOneIsWorst: true,
  uses: ['report'],
  // communityScorer gives the state, its snapshots, and `rank` and `standing` from `ranked`.
  ...communityScorer({
    create: () => new ReportedCommunity(),
    fromSnapshot: (_params, s) => ReportedCommunity.fromSnapshot(s),
    ranked: (c, params) => {
      const players = [...c.counts.keys()];
      const scores = players.map((p) => c.counts.get(p));
      return {
        size: players.length,
        ids: { idAt: (i) => players[i], indexOf: (id) => players.indexOf(id) },
        scores, // the most reported first, ties by id
        skip: (i) => scores[i] < params.minReports,
        row: (i, rank, community) => ({ rank, player: players[i], score: scores[i], community }),
      };
    },
  }),
  evolve(state, event) {
    if (event.type !== 'report') return state;
    const counts = state.enter(event.community).counts;
    counts.set(event.to, (counts.get(event.to) ?? 0) + 1);
    return state;
  },
  explain(state, community, player) {
    const n = state.communities.get(community)?.counts.get(player);
    return n === undefined ? undefined : { player, community, reports: n };
  },
};

export const scorerModule = {
  scorer: reported,
  words: {
    direction: 'higher is worse',
    good: '0: nobody reported them',
    bad: 'high: reported often',
    reason: (i) => `reported ${i.explanation.reports} times (${i.scorer})`,
    summary: (i) => `Reported ${i.explanation.reports} times, rank ${i.standing.rank} of ${i.standing.of}.`,
    evidence: () => [],
  },
  bar: () => ({ kind: 'harm' }),
  rowFields: {},
  explainText: {
    nothing: 'reports',
    describe: (e) => ({ json: e, text: `reported  player ${e.player}  community ${e.community}\n${e.reports} reports received` }),
  },
  defences: [],
};
