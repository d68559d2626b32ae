/**
 * The attention queue (home for a moderator): the players of the community who most need a look,
 * most urgent first, each row saying why in plain words, with what is already open or done about
 * them. Paged through the API, 50 at a time. Players ticked beside their rank get one verdict or
 * sanction together from the action bar (../components/BulkBar.tsx).
 */
import { useState } from 'preact/hooks';
import { api, type Queue as QueuePage, type QueueRow } from '../api.js';
import { BulkBar } from '../components/BulkBar.js';
import { Time } from '../components/Time.js';
import { UserLink, UserText } from '../components/UserText.js';
import { formatNumber, formatPercent, worseThanText } from '../format.js';
import { plainText } from '../text.js';
import { useLoad } from '../load.js';
import { href } from '../route.js';
import { Pager } from '../components/Pager.js';

const PAGE = 50;

type Weights = QueuePage['weights'];

/** What the attention value is the sum of, with the service's weights. */
function AttentionLegend({ weights: w }: { weights: Weights }) {
  return (
    <p class="legend" data-testid="attention-legend">
      <strong>Attention</strong>, what the queue ranks by (higher needs a look sooner), adds up: up to {formatNumber(w.tail)} per scorer for how deep the player is in its bad tail (its
      worst {formatPercent(w.tailShare)}); {formatNumber(w.breadth)} per further scorer whose tail they are in; {formatNumber(w.alert)} per open alert; {formatNumber(w.appeal)} for an
      open appeal; and up to {formatNumber(w.recency)} for recent bad evidence, halving every {formatNumber(w.recencyHalfLifeDays)} days. Under each value: its parts.
    </p>
  );
}

/** The parts of one row's attention, by the legend's terms (recent: what is left, the recency term). */
function attentionParts(row: QueueRow, w: Weights): [string, number][] {
  const tail = w.tail * row.scorers.reduce((sum, s) => sum + s.tail, 0);
  const breadth = w.breadth * Math.max(0, row.tails - 1);
  const alerts = w.alert * row.openAlerts;
  const appeal = w.appeal * Math.min(1, row.openAppeals);
  const recent = Math.max(0, row.attention - tail - breadth - alerts - appeal);
  const parts: [string, number][] = [
    ['tails', tail],
    ['breadth', breadth],
    ['alerts', alerts],
    ['appeal', appeal],
    ['recent', recent],
  ];
  return parts.filter(([, v]) => v >= 0.005);
}

export function Queue({ community, query }: { community: string; query: URLSearchParams }) {
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const [reload, setReload] = useState(0);
  const state = useLoad((signal) => api.queue({ community, limit: PAGE, offset: (page - 1) * PAGE }, { signal }), [community, page, reload]);
  const data = state.data?.community === community ? state.data : undefined;
  const [selected, setSelected] = useState<string[]>([]);
  const [selectedIn, setSelectedIn] = useState(community);
  if (selectedIn !== community) {
    setSelectedIn(community);
    setSelected([]);
  }
  const toggle = (player: string, on: boolean) => setSelected((list) => (on ? [...list.filter((p) => p !== player), player] : list.filter((p) => p !== player)));
  const shown = data?.rows.map((r) => r.player) ?? [];
  const allShown = shown.length > 0 && shown.every((p) => selected.includes(p));
  return (
    <section aria-labelledby="queue-title">
      <h2 id="queue-title">
        Needs a look <span class="muted">in {community}</span>
      </h2>
      {state.error !== undefined && <p class="error">{state.status === 403 ? 'The queue needs a key with the moderate scope.' : state.error}</p>}
      {data !== undefined && (
        <>
          <p class="muted">
            {data.total === 0
              ? 'Nobody needs a look.'
              : `${(page - 1) * PAGE + 1}–${Math.min(page * PAGE, data.total)} of ${data.total.toLocaleString('en')} players, most urgent first · as of event ${data.sequence.toLocaleString('en')}`}
          </p>
          <AttentionLegend weights={data.weights} />
          <BulkBar
            community={community}
            players={selected}
            onClear={() => setSelected([])}
            onDone={() => {
              setSelected([]);
              setReload((n) => n + 1);
            }}
          />
          <div class="table-wrap">
            <table class="queue stack">
              <thead>
                <tr>
                  <th scope="col" class="select">
                    <input type="checkbox" aria-label="select every player on this page" checked={allShown} onChange={(e) => shown.forEach((p) => toggle(p, (e.target as HTMLInputElement).checked))} /> #
                  </th>
                  <th scope="col">player</th>
                  <th scope="col">why</th>
                  <th scope="col">in the bad tail of</th>
                  <th scope="col">status</th>
                  <th scope="col">attention</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((row) => (
                  <tr key={row.player} data-player={row.player}>
                    <td class="num select" data-label="#">
                      <input type="checkbox" aria-label={`select ${row.player}`} checked={selected.includes(row.player)} onChange={(e) => toggle(row.player, (e.target as HTMLInputElement).checked)} /> {row.rank}
                    </td>
                    <td data-label="player">
                      <UserLink href={href(['case', row.player], { community })} text={row.player} />
                    </td>
                    <td data-label="why" class="why">
                      <ul class="reasons">
                        {row.reasons.map((r, i) => (
                          <li key={i}>
                            <UserText text={r} />
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td data-label="bad tail of">
                      {row.tails} of {row.scorers.length}
                      <span class="tails">
                        {row.scorers
                          .filter((s) => s.tail)
                          .map((s) => (
                            <span key={s.scorer} class="chip" title={`${plainText(s.scorer)}: rank ${s.rank} of ${s.of}, ${worseThanText(s.worseThan, s.of)}`}>
                              {s.scorerId}
                            </span>
                          ))}
                      </span>
                    </td>
                    <td data-label="status" class="status">
                      {row.openAlerts > 0 && <span class="chip alert">{row.openAlerts} open alert{row.openAlerts === 1 ? '' : 's'}</span>}
                      {row.openAppeals > 0 && <span class="chip appeal">{row.openAppeals} open appeal{row.openAppeals === 1 ? '' : 's'}</span>}
                      {row.activeSanctions.map((a) => (
                        <span key={a} class="chip sanction">
                          {a}
                        </span>
                      ))}
                      {row.handledAt !== undefined && (
                        <span class="muted">
                          handled <Time at={row.handledAt} />
                          {row.newEvidence ? ' · new evidence since' : ''}
                        </span>
                      )}
                      {row.handledAt === undefined && <span class="muted">not handled yet</span>}
                    </td>
                    <td class="num attention" data-label="attention">
                      {formatNumber(row.attention)}
                      <span class="parts" data-testid="attention-parts">
                        {attentionParts(row, data.weights)
                          .map(([name, v]) => `${name} ${formatNumber(Math.round(v * 100) / 100)}`)
                          .join(' + ')}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} total={data.total} pageSize={PAGE} pageHref={(to) => href(['queue'], { community, page: to })} />
        </>
      )}
    </section>
  );
}
