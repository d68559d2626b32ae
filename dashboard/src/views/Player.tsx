/**
 * One player: every scorer's score and rank side by side, then for each scorer the explanation
 * of the score and its history over event time.
 */
import { api, type PlayerScore, type Scorer } from '../api.js';
import { Explanation, SHOWN } from '../components/Explanation.js';
import { HistoryPlot } from '../components/HistoryPlot.js';
import { BAND_COLOURS } from '../components/ScoreBar.js';
import { UserText } from '../components/UserText.js';
import { formatNumber } from '../format.js';
import { plainText } from '../text.js';
import { useLoad } from '../load.js';
import { href } from '../route.js';

function ScorerDetail({ player, community, score }: { player: string; community: string; score: PlayerScore }) {
  const explanation = useLoad(
    (signal) => api.explain(player, { scorer: score.scorer, community, limit: SHOWN, order: 'desc' }, { signal }),
    [player, community, score.scorer],
  );
  const history = useLoad((signal) => api.history(player, { scorer: score.scorer, community, points: 60 }, { signal }), [player, community, score.scorer]);
  return (
    <section class="detail" aria-label={`${score.scorer} details`}>
      <h3>{score.scorer}</h3>
      <h4>Over time</h4>
      {history.data !== undefined ? <HistoryPlot points={history.data.points} label={score.scorer} /> : <p class="muted">{history.error ?? 'Loading…'}</p>}
      <details>
        <summary>What makes up the score</summary>
        {explanation.data !== undefined ? <Explanation explanation={explanation.data.explanation} page={explanation.data.page} /> : <p class="muted">{explanation.error ?? 'Loading…'}</p>}
      </details>
    </section>
  );
}

/**
 * For a moderator, the way to the player's case: their place in the queue when they are in it
 * (what needs a look), else a plain link to their record and the actions.
 */
function CaseLink({ player, community }: { player: string; community: string }) {
  const state = useLoad((signal) => api.case(player, { community }, { signal }), [player, community]);
  const queue = state.data?.player === player && state.data.community === community ? state.data.queue : undefined;
  if (state.data === undefined) return null;
  return (
    <p class="case-link note" data-testid="case-link">
      {queue !== undefined ? (
        <>
          #{queue.rank} in the attention queue: <a href={href(['case', player], { community })}>open the case</a>
          {queue.reasons[0] !== undefined && (
            <>
              {' '}
              (<UserText text={queue.reasons[0]} />
              {queue.reasons.length > 1 ? ', …' : ''})
            </>
          )}
        </>
      ) : (
        <>
          Not in the attention queue: <a href={href(['case', player], { community })}>the case</a> holds the player's record and the actions.
        </>
      )}
    </p>
  );
}

/** `scorers`: the instances the service runs (GET /v1/scorers), for what each score means; `canModerate`: whether to lead to the case. */
export function Player({ player, community, scorers, canModerate }: { player: string; community: string; scorers: readonly Scorer[]; canModerate: boolean }) {
  const state = useLoad((signal) => api.player(player, { community }, { signal }), [player, community]);
  const scores = state.data?.communities[0]?.scores ?? [];
  return (
    <section aria-labelledby="player-title">
      <h2 id="player-title">
        <UserText text={player} /> <span class="muted">in {community}</span>
      </h2>
      {canModerate && <CaseLink player={player} community={community} />}
      {state.error !== undefined && <p class="error">{state.status === 404 ? `No scorer knows “${plainText(player)}” in ${community}.` : state.error}</p>}
      {scores.length > 0 && (
        <>
          <ul class="cards" aria-label="scores">
            {scores.map((s) => (
              <li key={s.scorer} class="card" data-scorer={s.scorer}>
                <a href={href(['rankings', s.scorer], { community })} class="card-title">
                  {s.scorer}
                </a>
                <span class="big">{formatNumber(s.score)}</span>
                <span class="muted">
                  rank {s.rank} of {s.of}
                </span>
                <span class="direction">{scorers.find((i) => i.name === s.scorer)?.direction}</span>
                {typeof s.band === 'string' && (
                  <span class="band" style={{ background: BAND_COLOURS[s.band] }}>
                    {s.band} · confidence {typeof s.confidence === 'number' ? formatNumber(s.confidence) : String(s.confidence)}
                  </span>
                )}
              </li>
            ))}
          </ul>
          {scores.map((s) => (
            <ScorerDetail key={s.scorer} player={player} community={community} score={s} />
          ))}
        </>
      )}
    </section>
  );
}
