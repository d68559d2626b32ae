/**
 * The queue's action bar: one verdict or sanction for every selected player (POST
 * /v1/moderation/bulk), each recorded as its own event. The request's id is drawn once and kept
 * until the service answers it, so sending again after a timeout or an error records nothing
 * twice; changing the players, the action or the reason makes it a new request. A sanction or a
 * verdict is confirmed before it is sent.
 */
import { useState } from 'preact/hooks';
import { api, ApiError, type BulkBody } from '../api.js';
import { Time } from './Time.js';

/** The most players one request takes (the service's limit). */
export const MAX_BULK = 100;

type Choice = 'upheld' | 'dismissed' | 'warn' | 'mute' | 'suspend' | 'ban';
const CHOICES: { choice: Choice; label: string }[] = [
  { choice: 'upheld', label: 'verdict: upheld' },
  { choice: 'dismissed', label: 'verdict: dismissed' },
  { choice: 'warn', label: 'warn' },
  { choice: 'mute', label: 'mute' },
  { choice: 'suspend', label: 'suspend until a time' },
  { choice: 'ban', label: 'ban' },
];

/** A fresh request id (crypto.getRandomValues works outside secure contexts too). */
function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `bulk-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

type Status = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; text: string } | { kind: 'error'; text: string };

export function BulkBar({ community, players, onDone, onClear }: { community: string; players: readonly string[]; onDone: () => void; onClear: () => void }) {
  const [choice, setChoice] = useState<Choice>('upheld');
  const [until, setUntil] = useState('');
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  // The id of the request being sent, kept for a retry of the very same request.
  const [pending, setPending] = useState<{ id: string; key: string }>();
  const verdict = choice === 'upheld' || choice === 'dismissed';
  const takesUntil = choice === 'suspend' || choice === 'mute';
  const untilTime = until === '' ? undefined : new Date(until).getTime();
  const over = players.length > MAX_BULK;
  const what = verdict ? `Record the verdict “${choice}” on` : `${choice[0]!.toUpperCase()}${choice.slice(1)}`;
  const change = (apply: () => void) => {
    apply();
    setConfirming(false);
  };

  const send = () => {
    const body: BulkBody = verdict
      ? { community, id: '', players: [...players], type: 'verdict', outcome: choice, reason: reason.trim() }
      : { community, id: '', players: [...players], type: 'sanction', action: choice, reason: reason.trim(), ...(takesUntil && untilTime !== undefined ? { until: new Date(untilTime).toISOString() } : {}) };
    const key = JSON.stringify({ ...body, id: undefined });
    const id = pending?.key === key ? pending.id : newId();
    setPending({ id, key });
    setStatus({ kind: 'busy' });
    api.bulk({ ...body, id }).then(
      (answer) => {
        setPending(undefined);
        setReason('');
        const again = answer.duplicates === 0 ? '' : ` (${answer.duplicates} already recorded by an earlier try)`;
        setStatus({ kind: 'done', text: `Recorded for ${answer.results.length} player${answer.results.length === 1 ? '' : 's'}${again}.` });
        onDone();
      },
      (e: unknown) => setStatus({ kind: 'error', text: `${e instanceof ApiError ? e.message : (e as Error).message} — sending again records nothing twice.` }),
    );
  };

  if (players.length === 0) return status.kind === 'done' ? <p class="ok bulk-status" role="status">{status.text}</p> : null;
  return (
    <form
      class="bulk-bar"
      aria-label="act on the selected players"
      onSubmit={(e) => {
        e.preventDefault();
        if (reason.trim() === '' || over) return;
        if (!confirming) return setConfirming(true);
        setConfirming(false);
        send();
      }}
    >
      <p>
        <strong>{players.length}</strong> selected{' '}
        <button type="button" class="secondary" onClick={onClear}>
          Clear
        </button>
      </p>
      {over && <p class="error">At most {MAX_BULK} players at a time: clear some.</p>}
      <label>
        Action{' '}
        <select name="bulk-action" value={choice} onChange={(e) => change(() => setChoice((e.target as HTMLSelectElement).value as Choice))}>
          {CHOICES.map((c) => (
            <option key={c.choice} value={c.choice}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {takesUntil && (
        <label>
          Until {choice === 'mute' ? '(optional)' : ''}{' '}
          <input type="datetime-local" name="bulk-until" required={choice === 'suspend'} value={until} onInput={(e) => change(() => setUntil((e.target as HTMLInputElement).value))} />
        </label>
      )}
      <label>
        Reason (required){' '}
        <textarea name="bulk-reason" required value={reason} onInput={(e) => change(() => setReason((e.target as HTMLTextAreaElement).value))} />
      </label>
      {confirming ? (
        <div class="confirm" role="alertdialog" aria-label="confirm the bulk action">
          <p>
            {what} {players.length} player{players.length === 1 ? '' : 's'} ({players.join(', ')})
            {takesUntil && untilTime !== undefined && (
              <>
                {' '}
                until <Time at={untilTime} />
              </>
            )}
            , because “{reason.trim()}”?
          </p>
          <button type="submit">Confirm for {players.length}</button>{' '}
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="submit" disabled={status.kind === 'busy' || reason.trim() === '' || over}>
          Apply to {players.length}…
        </button>
      )}
      {status.kind === 'busy' && (
        <p class="muted" role="status">
          Recording…
        </p>
      )}
      {status.kind === 'error' && (
        <p class="error" role="alert">
          {status.text}
        </p>
      )}
    </form>
  );
}
