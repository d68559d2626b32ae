/** `standing explain trust`: the ratings of a player, with each rater's reputation and share of the weight. */
import { formatNumber, renderTable } from '../../util/text-table.js';
import type { ExplainText } from '../module.js';
import type { TrustExplanation } from './scorer.js';

export const trustExplainText: ExplainText<TrustExplanation> = {
  nothing: 'ratings',
  describe(e) {
    const table = renderTable(
      [{ title: 'rater' }, { title: 'rating', align: 'right' }, { title: 'set' }, { title: 'TTL', align: 'right' }, { title: 'decay', align: 'right' }, { title: "rater's reputation", align: 'right' }, { title: 'share', align: 'right' }],
      e.ratings.map((r) => [r.cut === undefined ? r.rater : `${r.rater} (cut)`, formatNumber(r.value), new Date(r.time).toISOString(), String(r.ttl), formatNumber(r.decay), formatNumber(r.raterReputation), `${(100 * r.share).toFixed(1)} %`]),
    );
    return {
      json: e,
      text: [
        `trust  observers ${e.observers.join(',')}  player ${e.player}  community ${e.community}`,
        `reputation ${formatNumber(e.score)} after ${e.iterations} iterations (final RMSD ${e.rmsd.toExponential(2)}); raters without positive reputation have no say`,
        ...(e.cut === undefined ? [] : [`the iteration reached ${formatNumber(e.cut.reputation)}, set to 0 by the trust-flow defence: flow ${formatNumber(e.cut.flow)} below minFlow`]),
        ...(e.ratings.some((r) => r.cut !== undefined) ? ["(cut): a rater the trust-flow defence set to 0 after the iteration; its reputation here is the one the iteration weighed"] : []),
        '',
        e.ratings.length === 0 ? '(no ratings)' : table,
      ].join('\n'),
    };
  },
};
