/**
 * A player's case: where they stand in the queue and why, the five scores with what good and bad
 * mean for each, each score over time, the recent evidence in plain words, the open alerts, and
 * the record (sanctions, appeals, notes, verdicts). With a moderate key, the actions: a verdict,
 * a note, a sanction (confirmed, with a required reason), and a decision on each open appeal.
 */
import { useState } from 'preact/hooks';
import { api, type CaseScore, type PlayerRecord } from '../api.js';
import { CaseActions, DecideAppeal } from '../components/CaseActions.js';
import { HistoryPlot } from '../components/HistoryPlot.js';
import { BAND_COLOURS } from '../components/ScoreBar.js';
import { Time } from '../components/Time.js';
import { formatNumber, worseThanText } from '../format.js';
import { UserText } from '../components/UserText.js';
import { plainText } from '../text.js';
import { useLoad } from '../load.js';
import { href } from '../route.js';

function ScoreHistory({ player, community, score }: { player: string; community: string; score: CaseScore }) {
  const history = useLoad((signal) => api.history(player, { scorer: score.scorer, community, points: 60 }, { signal }), [player, community, score.scorer]);
  return history.data !== undefined ? <HistoryPlot points={history.data.points} label={score.scorer} /> : <p class="muted">{history.error ?? 'Loading…'}</p>;
}

/** A score's history, asked for when its section is first opened (a case reads many scores, and a history is a replay). */
function HistoryDetails({ player, community, score }: { player: string; community: string; score: CaseScore }) {
  const [opened, setOpened] = useState(false);
  return (
    <details onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && setOpened(true)}>
      <summary>Over time</summary>
      {opened && <ScoreHistory player={player} community={community} score={score} />}
    </details>
  );
}

function Scores({ player, community, scores }: { player: string; community: string; scores: CaseScore[] }) {
  return (
    <ul class="cards case-scores" aria-label="scores">
      {scores.map((s) => (
        <li key={s.scorer} class="card" data-scorer={s.scorerId}>
          <a href={href(['rankings', s.scorer], { community })} class="card-title">
            {s.scorer}
          </a>
          <span class="big">{formatNumber(s.score)}</span>
          <span class="muted">
            rank {s.rank} of {s.of} · <span class="worse-than">{worseThanText(s.worseThan, s.of)}</span>
          </span>
          {s.band !== undefined && (
            <span class="band" style={{ background: BAND_COLOURS[s.band] }}>
              {s.band}
              {typeof s.confidence === 'number' ? ` · confidence ${formatNumber(s.confidence)}` : ''}
            </span>
          )}
          <span class="summary">
            <UserText text={s.summary} />
          </span>
          <span class="direction">{s.direction}</span>
          <span class="meaning">
            <span class="good">good: {s.good}</span>
            <span class="bad">bad: {s.bad}</span>
          </span>
          <HistoryDetails player={player} community={community} score={s} />
        </li>
      ))}
    </ul>
  );
}

function Record({ player, community, record, canModerate, onDone }: { player: string; community: string; record: PlayerRecord; canModerate: boolean; onDone: () => void }) {
  const by = (moderator?: string) =>
    moderator === undefined ? (
      ''
    ) : (
      <>
        {' '}
        by <UserText text={moderator} />
      </>
    );
  const quoted = (text: string) => (
    <>
      “<UserText text={text} />”
    </>
  );
  return (
    <div class="record">
      <section aria-labelledby="sanctions-title">
        <h3 id="sanctions-title">Sanctions</h3>
        {record.sanctions.length === 0 ? (
          <p class="muted">None.</p>
        ) : (
          <ul class="entries sanctions">
            {record.sanctions.map((s) => (
              <li key={s.id} class={s.active ? 'active' : 'ended'} data-id={s.id}>
                <strong>{s.action}</strong>
                {s.until !== undefined && (
                  <>
                    {' '}
                    until <Time at={s.until} />
                  </>
                )}{' '}
                · <span class={s.active ? 'state active' : 'state'}>{s.active ? 'active' : `ended (${s.endedBy?.kind === 'appeal' ? 'appeal granted' : (s.endedBy?.kind ?? 'ended')})`}</span>
                <div class="muted">
                  <Time at={s.time} />
                  {by(s.moderator)}: {quoted(s.reason)}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="appeals-title">
        <h3 id="appeals-title">Appeals</h3>
        {record.appeals.length === 0 ? (
          <p class="muted">None.</p>
        ) : (
          <ul class="entries appeals">
            {record.appeals.map((a) => (
              <li key={a.id} data-id={a.id} class={a.status}>
                <strong>{a.status}</strong>
                {a.sanction !== undefined && <> · against {record.sanctions.find((s) => s.id === a.sanction)?.action ?? 'a sanction'}</>}
                {a.text !== undefined && <> · {quoted(a.text)}</>}
                <div class="muted">
                  opened <Time at={a.time} />
                  {a.decided !== undefined && (
                    <>
                      {' '}
                      · decided <Time at={a.decided.time} />
                      {by(a.decided.moderator)}
                      {a.decided.reason !== undefined && <>: {quoted(a.decided.reason)}</>}
                    </>
                  )}
                </div>
                {a.status === 'open' && canModerate && <DecideAppeal player={player} community={community} appeal={a.id} onDone={onDone} />}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="verdicts-title">
        <h3 id="verdicts-title">Verdicts</h3>
        {record.verdicts.length === 0 ? (
          <p class="muted">None.</p>
        ) : (
          <ul class="entries verdicts">
            {record.verdicts.map((v) => (
              <li key={v.id}>
                <strong>{v.outcome}</strong>{' '}
                {v.on === 'report' ? (
                  <>
                    on a report
                    {v.from !== undefined && (
                      <>
                        {' '}
                        by <UserText text={v.from} />
                      </>
                    )}
                  </>
                ) : (
                  'on the player'
                )}
                <div class="muted">
                  <Time at={v.time} />
                  {by(v.moderator)}
                  {v.reason !== undefined && <>: {quoted(v.reason)}</>}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="notes-title">
        <h3 id="notes-title">Notes</h3>
        {record.notes.length === 0 ? (
          <p class="muted">None.</p>
        ) : (
          <ul class="entries notes">
            {record.notes.map((n) => (
              <li key={n.id}>
                <UserText text={n.text} />
                <div class="muted">
                  <Time at={n.time} />
                  {by(n.moderator)}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function Case({ player, community, canModerate }: { player: string; community: string; canModerate: boolean }) {
  const [version, setVersion] = useState(0);
  const state = useLoad((signal) => api.case(player, { community }, { signal }), [player, community, version]);
  const data = state.data?.player === player && state.data.community === community ? state.data : undefined;
  const reload = () => setVersion((v) => v + 1);
  return (
    <section aria-labelledby="case-title" class="case">
      <h2 id="case-title">
        <UserText text={player} /> <span class="muted">in {community}</span>
      </h2>
      {state.error !== undefined && (
        <p class="error">{state.status === 404 ? `Nothing is known of “${plainText(player)}” in ${community}.` : state.status === 403 ? 'A case needs a key with the moderate scope.' : state.error}</p>
      )}
      {data !== undefined && (
        <>
          <div class="why-box">
            {data.queue !== undefined ? (
              <>
                <p>
                  <strong>#{data.queue.rank} in the queue</strong>{' '}
                  <a class="muted" href={href(['queue'], { community })} title="the queue's legend says what attention adds up">
                    (attention {formatNumber(data.queue.attention)})
                  </a>
                </p>
                <ul class="reasons">
                  {data.queue.reasons.map((r, i) => (
                    <li key={i}>
                      <UserText text={r} />
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p class="muted">Not in the queue.</p>
            )}
            <p class="muted">
              As of event {data.sequence.toLocaleString('en')}, <Time at={data.now} /> · <a href={href(['player', player], { community })}>full explanations</a> ·{' '}
              <a href={href(['audit'], { community, player })}>audit log</a>
            </p>
          </div>
          {canModerate && <CaseActions player={player} community={community} record={data.record} onDone={reload} />}
          <h3>Scores</h3>
          <Scores player={player} community={community} scores={data.scores} />
          {data.alerts.length > 0 && (
            <section aria-labelledby="alerts-title">
              <h3 id="alerts-title">Open alerts</h3>
              <ul class="entries">
                {data.alerts.map((a) => (
                  <li key={a.id}>
                    {a.scorer} · <UserText text={a.threshold} /> · raised <Time at={a.time} /> <span class="muted">at score {formatNumber(a.score)}</span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <Record player={player} community={community} record={data.record} canModerate={canModerate} onDone={reload} />
          <section aria-labelledby="evidence-title">
            <h3 id="evidence-title">Recent evidence</h3>
            {data.evidence.length === 0 ? (
              <p class="muted">None.</p>
            ) : (
              <div class="table-wrap">
                <table class="evidence stack">
                  <thead>
                    <tr>
                      <th scope="col">when</th>
                      <th scope="col">scorer</th>
                      <th scope="col">what</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.evidence.map((e, i) => (
                      <tr key={i}>
                        <td data-label="when">
                          <Time at={e.time} />
                        </td>
                        <td data-label="scorer">{e.scorer}</td>
                        <td data-label="what" class="wrap">
                          <UserText text={e.text} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </section>
  );
}
