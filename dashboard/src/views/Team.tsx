/**
 * The team figures of a community (GET /v1/team): how long players wait from entering the queue
 * to a decision, how many are waiting now and for how long, decisions per moderator with the
 * appeals granted against their sanctions, and each rule's firings and overturns. Two plots, and
 * every number of them in the tables.
 */
import { useMemo } from 'preact/hooks';
import { api, type TeamFigures } from '../api.js';
import { BarPlot, type BarSeries } from '../components/BarPlot.js';
import { formatDuration, formatNumber, formatPercent } from '../format.js';
import { useLoad } from '../load.js';
import { href } from '../route.js';

/** A bucket bound as an axis reads it: "1 min", "4 h", "30 d". */
function shortDuration(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** The buckets' labels: "≤ 1 min", …, and "> 30 d" for the last. */
function bucketLabels(bounds: readonly number[]): string[] {
  return [...bounds.map((b) => `≤ ${shortDuration(b)}`), `> ${shortDuration(bounds[bounds.length - 1] ?? 0)}`];
}

const seconds = (value: number | undefined) => (value === undefined ? '—' : formatDuration(value * 1000));
const sum = (a: readonly number[], b: readonly number[]) => a.map((n, i) => n + (b[i] ?? 0));
const CASE_WORDS = { player: 'a player, from the first report or rule proposal after their last handling', appeal: 'an appeal, from its opening' } as const;

export function Team({ community }: { community: string }) {
  const state = useLoad((signal) => api.team({ community, limit: 100 }, { signal }), [community]);
  const data = state.data?.community === community ? state.data : undefined;
  return (
    <section aria-labelledby="team-title" class="team">
      <h2 id="team-title">
        Team figures <span class="muted">in {community}</span>
      </h2>
      {state.error !== undefined && <p class="error">{state.status === 403 ? 'The team figures need a key with the moderate scope.' : state.error}</p>}
      {data !== undefined && <Figures data={data} community={community} />}
    </section>
  );
}

function Figures({ data, community }: { data: TeamFigures; community: string }) {
  const labels = useMemo(() => bucketLabels(data.bucketsSeconds), [data.bucketsSeconds]);
  const wait = (kind: 'player' | 'appeal') => data.waits.filter((w) => w.case === kind);
  const waitSeries = useMemo<BarSeries[]>(
    () => [
      { label: 'player cases', counts: wait('player').reduce<number[]>((acc, w) => sum(acc, w.buckets), new Array(labels.length).fill(0)), colour: '#1d5fb8' },
      { label: 'appeals', counts: wait('appeal').reduce<number[]>((acc, w) => sum(acc, w.buckets), new Array(labels.length).fill(0)), colour: '#c77c0e' },
    ],
    [data],
  );
  const queueSeries = useMemo<BarSeries[]>(() => [{ label: 'players waiting', counts: data.queue.buckets, colour: '#8a1c1c' }], [data]);
  const most = Math.max(1, ...data.moderators.rows.map((m) => m.decisions));
  return (
    <>
      <p class="muted">
        As of event {data.sequence.toLocaleString('en')}. Times are event times: a wait runs from when a player entered the queue to the moderator's (or rule's) decision.
      </p>
      <div class="cards team-cards">
        <div class="card" data-testid="team-decisions">
          <span class="muted">decisions</span>
          <strong>{formatNumber(data.decisions.total)}</strong>
          <span class="muted">
            {data.decisions.verdicts} verdicts · {data.decisions.sanctions} sanctions · {data.decisions.appealDecisions} appeal decisions
          </span>
        </div>
        <div class="card" data-testid="team-queue">
          <span class="muted">in the queue now</span>
          <strong>{formatNumber(data.queue.length)}</strong>
          <span class="muted">
            {data.queue.dated} with a known wait{data.queue.oldestSeconds === undefined ? '' : `, the longest ${seconds(data.queue.oldestSeconds)}`}
          </span>
        </div>
      </div>

      <h3>Time to a decision</h3>
      <BarPlot categories={labels} series={waitSeries} label="cases closed, by how long they waited for a decision" />
      <div class="table-wrap">
        <table class="team-waits">
          <thead>
            <tr>
              <th scope="col">case</th>
              <th scope="col">decided by</th>
              <th scope="col">closed</th>
              <th scope="col">median wait</th>
              <th scope="col">90% within</th>
              <th scope="col">longest</th>
            </tr>
          </thead>
          <tbody>
            {data.waits.map((w) => (
              <tr key={`${w.case}-${w.by}`} data-case={w.case} data-by={w.by}>
                <td title={CASE_WORDS[w.case]}>{w.case === 'player' ? 'player' : 'appeal'}</td>
                <td>{w.by === 'rule' ? 'a rule' : 'a moderator'}</td>
                <td class="num">{w.count}</td>
                <td class="num">{seconds(w.medianSeconds)}</td>
                <td class="num">{seconds(w.p90Seconds)}</td>
                <td class="num">{seconds(w.maxSeconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h3>Waiting now</h3>
      <BarPlot categories={labels} series={queueSeries} label="players in the queue, by how long they have waited" />
      <p class="muted">
        {data.queue.length - data.queue.dated} of {data.queue.length} players in the queue are there on their scores or alerts alone, with no report, rule proposal or appeal to date their wait.
      </p>

      <h3>Moderators</h3>
      {data.moderators.rows.length === 0 ? (
        <p class="muted">No decision yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="team-moderators">
            <thead>
              <tr>
                <th scope="col">moderator</th>
                <th scope="col">decisions</th>
                <th scope="col">verdicts</th>
                <th scope="col">sanctions</th>
                <th scope="col">lifts</th>
                <th scope="col" title="appeals this moderator granted or denied">appeals decided</th>
                <th scope="col" title="this moderator's sanctions that an appeal named">appealed</th>
                <th scope="col" title="appeals granted against this moderator's sanctions, by anyone">overturned on appeal</th>
                <th scope="col" title="the median wait of the cases this moderator closed">median wait</th>
              </tr>
            </thead>
            <tbody>
              {data.moderators.rows.map((m) => (
                <tr key={m.moderator} data-moderator={m.moderator}>
                  <td class="name">
                    <a href={href(['audit'], { community, moderator: m.moderator })}>{m.moderator}</a>
                  </td>
                  <td class="num">
                    <span class="decision-bar" style={{ width: `${(m.decisions / most) * 4}rem` }} aria-hidden="true" />
                    {m.decisions}
                  </td>
                  <td class="num">{m.verdicts + m.reportVerdicts}</td>
                  <td class="num">{m.sanctions}</td>
                  <td class="num">{m.lifts}</td>
                  <td class="num">{m.appealDecisions}</td>
                  <td class="num">{m.sanctionsAppealed}</td>
                  <td class="num">{m.appealsGranted}</td>
                  <td class="num">{seconds(m.medianWaitSeconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.moderators.total > data.moderators.rows.length && <p class="muted">The {data.moderators.rows.length} with the most decisions of {data.moderators.total} moderators.</p>}
        </div>
      )}

      <h3>Rules</h3>
      {data.rules.rows.length === 0 ? (
        <p class="muted">No rule has fired.</p>
      ) : (
        <div class="table-wrap">
          <table class="team-rules">
            <thead>
              <tr>
                <th scope="col">rule</th>
                <th scope="col">firings</th>
                <th scope="col">sanctions</th>
                <th scope="col">proposals</th>
                <th scope="col">overturned</th>
                <th scope="col">overturn rate</th>
              </tr>
            </thead>
            <tbody>
              {data.rules.rows.map((r) => (
                <tr key={r.rule} data-rule={r.rule}>
                  <td class="name">{r.rule}</td>
                  <td class="num">{r.firings}</td>
                  <td class="num">{r.sanctions}</td>
                  <td class="num">{r.proposals}</td>
                  <td class="num">{r.overturned}</td>
                  <td class="num">{r.overturnRate === undefined ? '—' : formatPercent(r.overturnRate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="muted">Overturned: an appeal against the rule's sanction was granted, or the next moderator to handle the player dismissed the concern.</p>
        </div>
      )}
    </>
  );
}
