/** Reports in words: who reported the player, and how much their judgment weighs. */
import type { ReportsExplanation } from './scorer.js';
import { ago, count, num, worstPlace } from '../../util/words.js';
import type { EvidenceItem, ScorerWords, WordsInput } from '../words.js';

type Input = WordsInput<ReportsExplanation>;

/** The reports against the player: how many, from how many players, how many of those carry weight. */
export function reporters(e: ReportsExplanation): { reports: number; players: number; weighty: number } {
  const players = new Set<string>();
  const weighty = new Set<string>();
  for (const r of e.reportedBy) {
    players.add(r.reporter);
    if (r.weight > 0) weighty.add(r.reporter);
  }
  return { reports: e.reportedBy.length, players: players.size, weighty: weighty.size };
}

function reportedText(i: Input): string {
  const { reports, players, weighty } = reporters(i.explanation);
  if (reports === 0) return 'not reported';
  const times = reports === players ? '' : ` (${count(reports, 'report')})`;
  const judgment = weighty === players ? (players === 1 ? ' with good judgment' : ', all with good judgment') : weighty === 0 ? ', none with judgment that counts' : `, ${num(weighty)} with good judgment`;
  return `reported by ${count(players, 'player')}${times}${judgment}`;
}

/** When the newest report that carries weight came: ", the latest 2 days ago" (empty when none does). */
function latestText(i: Input): string {
  let latest: number | undefined;
  for (const r of i.explanation.reportedBy) if (r.weight > 0 && (latest === undefined || r.time > latest)) latest = r.time;
  return latest === undefined ? '' : `, the latest ${ago(latest, i.now)}`;
}

export const reportsWords: ScorerWords<ReportsExplanation> = {
  direction: 'higher is worse',
  good: '0: nobody whose judgment counts reported the player',
  bad: 'many reports from players with good judgment (players who play a lot and are rarely reported themselves); a reporter’s weight is split over all the reports they file',
  reason(i) {
    return `${reportedText(i)}${latestText(i)} — reports ${num(i.explanation.score)}, ${worstPlace(i.standing.worstFirst, i.standing.of)}`;
  },
  summary(i) {
    const e = i.explanation;
    const top = e.reportedBy
      .slice(0, 5)
      .map((r) => `${r.reporter} (judgment ${num(r.reporterJp)}, ${count(r.reporterReports, 'report')} filed, adds ${num(r.weight)})`)
      .join('; ');
    const more = e.reportedBy.length > 5 ? `; and ${count(e.reportedBy.length - 5, 'more report')}` : '';
    return (
      `Bad-player points ${num(e.score)} (${worstPlace(i.standing.worstFirst, i.standing.of)}): ${reportedText(i)}.` +
      (top === '' ? '' : ` Heaviest: ${top}${more}.`) +
      ` Their own judgment as a reporter: ${num(e.jp)}, from ${count(e.games, 'game')} played.`
    );
  },
  evidence(i) {
    return i.explanation.reportedBy
      .map((r): EvidenceItem => {
        const weight = r.weight > 0 ? `judgment ${num(r.reporterJp)}, adds ${num(r.weight)}` : 'carries no weight';
        return {
          time: r.time,
          scorer: i.scorer,
          kind: 'report',
          other: r.reporter,
          text: `reported by ${r.reporter} (${weight}), ${ago(r.time, i.now)}`,
          // A report that carries no weight (dismissed, or from a reporter whose judgment is 0) is not held against the player.
          bad: r.weight > 0,
        };
      })
      .sort((a, b) => b.time - a.time || (a.other! < b.other! ? -1 : a.other! > b.other! ? 1 : 0));
  },
};
