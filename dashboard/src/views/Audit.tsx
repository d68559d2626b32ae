/**
 * The audit log: who did what to whom and when, newest first, filtered by player, moderator,
 * action and time (the filters live in the URL, so a filtered view can be shared), paged by the
 * API's cursor, and exported whole as CSV or NDJSON.
 */
import { Fragment, type ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { UserLink, UserText } from '../components/UserText.js';
import { Time } from '../components/Time.js';
import { formatTime } from '../format.js';
import { useLoad } from '../load.js';
import { api, type AuditEntry, type AuditQuery } from '../api.js';
import { href } from '../route.js';

const PAGE = 50;
const ACTIONS = ['verdict', 'verdict.upheld', 'verdict.dismissed', 'note', 'sanction', 'sanction.warn', 'sanction.mute', 'sanction.suspend', 'sanction.ban', 'sanction.lift', 'appeal', 'appeal.opened', 'appeal.granted', 'appeal.denied', 'rule', 'rule.live', 'rule.dry-run', 'rule.paused'];
const FILTERS = ['player', 'moderator', 'action', 'since', 'until'] as const;

/** What an entry's event says beyond its action (which holds the outcome) and player: a rule state's rule, until, reason, text (the texts each isolated, hidden characters shown). */
function Details({ entry }: { entry: AuditEntry }) {
  const e = entry.event;
  const parts: ComponentChildren[] = [];
  // A rule's state names the rule, not a player.
  if (e.type === 'rule' && typeof e.rule === 'string')
    parts.push(
      <>
        rule <UserText text={e.rule} />
      </>,
    );
  if (e.until !== undefined) parts.push(`until ${formatTime(typeof e.until === 'number' ? e.until : Date.parse(String(e.until)))}`);
  for (const text of [e.reason, e.text]) {
    if (typeof text === 'string')
      parts.push(
        <>
          “<UserText text={text} />”
        </>,
      );
  }
  // The key it was made with (two moderators may read alike; their keys do not), and a verdict
  // kept after its reporter was erased.
  if (entry.moderatorKey !== undefined)
    parts.push(
      <span class="key">
        key <UserText text={entry.moderatorKey} />
      </span>,
    );
  if (e.reporterErased === true) parts.push('reporter erased');
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && ' · '}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/** A date input's value as the API's `since`/`until` (ISO), the day's start in local time. */
const asTime = (day: string) => (day === '' ? undefined : new Date(`${day}T00:00`).toISOString());

export function Audit({ community, query }: { community: string; query: URLSearchParams }) {
  const filters = Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const after = query.get('after') ?? undefined;
  const apiQuery: AuditQuery = {
    community,
    player: filters.player || undefined,
    moderator: filters.moderator || undefined,
    action: filters.action || undefined,
    since: asTime(filters.since),
    until: asTime(filters.until),
  };
  const state = useLoad((signal) => api.audit({ ...apiQuery, after, limit: PAGE }, { signal }), [community, ...FILTERS.map((f) => filters[f]), after]);
  const [draft, setDraft] = useState(filters);
  const [exporting, setExporting] = useState<string>();
  const link = (changes: Record<string, string | undefined>) => href(['audit'], { community, ...filters, ...changes });
  const download = (format: 'csv' | 'ndjson') => {
    setExporting(undefined);
    api.auditExport(format, apiQuery).then(
      (text) => {
        const a = document.createElement('a');
        a.href = URL.createObjectURL(new Blob([text], { type: format === 'csv' ? 'text/csv' : 'application/x-ndjson' }));
        a.download = `audit-${community}.${format}`;
        a.click();
        setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
      },
      (e: unknown) => setExporting((e as Error).message),
    );
  };
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">
        Audit log <span class="muted">in {community}</span>
      </h2>
      <form
        class="filters"
        aria-label="filters"
        onSubmit={(e) => {
          e.preventDefault();
          location.hash = link({ ...draft, after: undefined });
        }}
      >
        <label>
          Player <input name="player" value={draft.player} onInput={(e) => setDraft({ ...draft, player: (e.target as HTMLInputElement).value })} />
        </label>
        <label>
          Moderator <input name="moderator" value={draft.moderator} onInput={(e) => setDraft({ ...draft, moderator: (e.target as HTMLInputElement).value })} />
        </label>
        <label>
          Action{' '}
          <select name="action" value={draft.action} onChange={(e) => setDraft({ ...draft, action: (e.target as HTMLSelectElement).value })}>
            <option value="">any</option>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a.replace('.', ': ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          From <input type="date" name="since" value={draft.since} onInput={(e) => setDraft({ ...draft, since: (e.target as HTMLInputElement).value })} />
        </label>
        <label>
          Before <input type="date" name="until" value={draft.until} onInput={(e) => setDraft({ ...draft, until: (e.target as HTMLInputElement).value })} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <p class="exports">
        Export every matching entry:{' '}
        <a href="#" role="button" onClick={(e) => (e.preventDefault(), download('csv'))}>
          CSV
        </a>{' '}
        ·{' '}
        <a href="#" role="button" onClick={(e) => (e.preventDefault(), download('ndjson'))}>
          NDJSON
        </a>
        {exporting !== undefined && <span class="error"> {exporting}</span>}
      </p>
      {state.error !== undefined && <p class="error">{state.status === 403 ? 'The audit log needs a key with the moderate scope.' : state.error}</p>}
      {state.data !== undefined && (
        <>
          {state.data.entries.length === 0 && <p class="muted">No entry matches.</p>}
          {state.data.entries.length > 0 && (
            <div class="table-wrap">
              <table class="audit stack">
                <thead>
                  <tr>
                    <th scope="col">when</th>
                    <th scope="col">moderator</th>
                    <th scope="col">action</th>
                    <th scope="col">player</th>
                    <th scope="col">details</th>
                  </tr>
                </thead>
                <tbody>
                  {state.data.entries.map((entry) => (
                    <tr key={entry.cursor}>
                      <td data-label="when">
                        <Time at={entry.time} />
                      </td>
                      <td data-label="moderator">{entry.moderator !== undefined ? <UserText text={entry.moderator} /> : '—'}</td>
                      <td data-label="action">{entry.action.replace('.', ': ')}</td>
                      <td data-label="player">{entry.player !== undefined ? (
                          <UserLink href={href(['case', entry.player], { community })} text={entry.player} />
                        ) : (
                          '—'
                        )}</td>
                      <td data-label="details" class="wrap">
                        <Details entry={entry} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <nav class="pager" aria-label="pages">
            {after !== undefined ? <a href={link({ after: undefined })}>← first page</a> : <span />}
            {state.data.next !== undefined ? <a href={link({ after: state.data.next })}>next →</a> : <span />}
          </nav>
        </>
      )}
    </section>
  );
}
