/**
 * What a moderator can do on a case: record a verdict on the player, add a note, impose or lift a
 * sanction (the reason is required, and the sanction is confirmed before it is recorded), open an
 * appeal on the player's behalf, and decide an open appeal. Each form says what the service
 * answered; a recorded action reloads the case.
 */
import { useRef, useState } from 'preact/hooks';
import { api, ApiError, type AppealDecision, type Outcome, type PlayerRecord, type Recorded, type SanctionAction } from '../api.js';
import { plainText } from '../text.js';
import { Time } from './Time.js';
import { UserText } from './UserText.js';

type Status = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; text: string } | { kind: 'error'; text: string };

/** A new event id for one moderator action: 128 random bits (crypto.getRandomValues works on plain http too). */
export function newEventId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dashboard-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Runs a form's action, keeping its status for the form to show. Each action carries an event
 * id, made when it is first sent and sent again with every retry of the same action (the same
 * body) until one is answered, so an action whose answer was lost (a timeout) is recorded once:
 * the service answers the repeat with the event it stored the first time. A changed body is
 * another action, with a new id. The form is cleared (`clear`) only once the action is recorded.
 */
export function useAction(onDone: () => void): [Status, (body: object, run: (id: string) => Promise<Recorded>, done: string, clear?: () => void) => void] {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const pending = useRef<{ body: string; id: string } | undefined>(undefined);
  const act = (body: object, run: (id: string) => Promise<Recorded>, done: string, clear?: () => void) => {
    const key = JSON.stringify(body);
    const id = pending.current?.body === key ? pending.current.id : newEventId();
    pending.current = { body: key, id };
    setStatus({ kind: 'busy' });
    run(id).then(
      (recorded) => {
        pending.current = undefined;
        setStatus({ kind: 'done', text: recorded.duplicate ? `${done} (it had already reached the service: recorded once)` : done });
        clear?.();
        onDone();
      },
      (e: unknown) => {
        const refused = e instanceof ApiError && e.status >= 400 && e.status < 500;
        if (refused) pending.current = undefined; // refused: nothing was recorded, and a corrected action is another
        const text = e instanceof ApiError ? e.message : (e as Error).message;
        setStatus({ kind: 'error', text: refused ? text : `${text}. It may have been recorded: sending it again is safe, it will be recorded once.` });
      },
    );
  };
  return [status, act];
}

export function StatusLine({ status }: { status: Status }) {
  if (status.kind === 'done') return <p class="ok" role="status">{status.text}</p>;
  if (status.kind === 'error') return <p class="error" role="alert">{status.text}</p>;
  if (status.kind === 'busy') return <p class="muted" role="status">Recording…</p>;
  return null;
}

const value = (e: Event) => (e.target as HTMLInputElement).value;

function Verdict({ player, community, onDone }: { player: string; community: string; onDone: () => void }) {
  const [outcome, setOutcome] = useState<Outcome>('upheld');
  const [reason, setReason] = useState('');
  const [status, act] = useAction(onDone);
  return (
    <form
      class="action verdict"
      aria-label="verdict"
      onSubmit={(e) => {
        e.preventDefault();
        const body = { community, outcome, reason: reason.trim() };
        act(body, (id) => api.recordVerdict(player, { ...body, id }), `Verdict recorded: ${outcome}.`, () => setReason(''));
      }}
    >
      <h4>Verdict on the player</h4>
      <fieldset>
        <legend class="visually-hidden">Outcome</legend>
        <label>
          <input type="radio" name="verdict-outcome" checked={outcome === 'upheld'} onChange={() => setOutcome('upheld')} /> upheld: the concern is confirmed
        </label>
        <label>
          <input type="radio" name="verdict-outcome" checked={outcome === 'dismissed'} onChange={() => setOutcome('dismissed')} /> dismissed: nothing to act on
        </label>
      </fieldset>
      <label>
        Reason <textarea name="verdict-reason" required value={reason} onInput={(e) => setReason(value(e))} />
      </label>
      <button type="submit" disabled={status.kind === 'busy'}>
        Record verdict
      </button>
      <StatusLine status={status} />
    </form>
  );
}

function Note({ player, community, onDone }: { player: string; community: string; onDone: () => void }) {
  const [text, setText] = useState('');
  const [status, act] = useAction(onDone);
  return (
    <form
      class="action note"
      aria-label="note"
      onSubmit={(e) => {
        e.preventDefault();
        const body = { community, text: text.trim() };
        act(body, (id) => api.addNote(player, { ...body, id }), 'Note added.', () => setText(''));
      }}
    >
      <h4>Note</h4>
      <label>
        Text <textarea name="note-text" required value={text} onInput={(e) => setText(value(e))} />
      </label>
      <button type="submit" disabled={status.kind === 'busy'}>
        Add note
      </button>
      <StatusLine status={status} />
    </form>
  );
}

const ACTIONS: { action: SanctionAction; label: string }[] = [
  { action: 'warn', label: 'warn' },
  { action: 'mute', label: 'mute' },
  { action: 'suspend', label: 'suspend until a time' },
  { action: 'ban', label: 'ban' },
  { action: 'lift', label: 'lift every active sanction' },
];

function Sanction({ player, community, onDone }: { player: string; community: string; onDone: () => void }) {
  const [action, setAction] = useState<SanctionAction>('warn');
  const [until, setUntil] = useState('');
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [status, act] = useAction(onDone);
  const takesUntil = action === 'suspend' || action === 'mute';
  const untilTime = until === '' ? undefined : new Date(until).getTime();
  return (
    <form
      class="action sanction"
      aria-label="sanction"
      onSubmit={(e) => {
        e.preventDefault();
        if (reason.trim() === '') return;
        if (!confirming) return setConfirming(true);
        setConfirming(false);
        const body = { community, action, reason: reason.trim(), ...(takesUntil && untilTime !== undefined ? { until: new Date(untilTime).toISOString() } : {}) };
        act(body, (id) => api.sanction(player, { ...body, id }), action === 'lift' ? 'Sanctions lifted.' : `Sanction recorded: ${action}.`, () => setReason(''));
      }}
    >
      <h4>Sanction</h4>
      <label>
        Action{' '}
        <select
          name="sanction-action"
          value={action}
          onChange={(e) => {
            setAction((e.target as HTMLSelectElement).value as SanctionAction);
            setConfirming(false);
          }}
        >
          {ACTIONS.map((a) => (
            <option key={a.action} value={a.action}>
              {a.label}
            </option>
          ))}
        </select>
      </label>
      {takesUntil && (
        <label>
          Until {action === 'mute' ? '(optional)' : ''}{' '}
          <input type="datetime-local" name="sanction-until" required={action === 'suspend'} value={until} onInput={(e) => setUntil(value(e))} />
        </label>
      )}
      <label>
        Reason (required){' '}
        <textarea
          name="sanction-reason"
          required
          value={reason}
          onInput={(e) => {
            setReason(value(e));
            setConfirming(false);
          }}
        />
      </label>
      {confirming ? (
        <div class="confirm" role="alertdialog" aria-label="confirm the sanction">
          <p>
            {action === 'lift' ? 'Lift every active sanction of' : `${action[0]!.toUpperCase()}${action.slice(1)}`} <UserText text={player} />
            {takesUntil && untilTime !== undefined && (
              <>
                {' '}
                until <Time at={untilTime} />
              </>
            )}
            , because “<UserText text={reason.trim()} />”?
          </p>
          <button type="submit">Confirm {action}</button>{' '}
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="submit" disabled={status.kind === 'busy' || reason.trim() === ''}>
          {action === 'lift' ? 'Lift…' : 'Sanction…'}
        </button>
      )}
      <StatusLine status={status} />
    </form>
  );
}

function OpenAppeal({ player, community, record, onDone }: { player: string; community: string; record: PlayerRecord; onDone: () => void }) {
  const active = record.sanctions.filter((s) => s.active);
  const [sanction, setSanction] = useState('');
  const [text, setText] = useState('');
  const [status, act] = useAction(onDone);
  return (
    <form
      class="action open-appeal"
      aria-label="open an appeal"
      onSubmit={(e) => {
        e.preventDefault();
        const body = { community, ...(text.trim() === '' ? {} : { text: text.trim() }), ...(sanction === '' ? {} : { sanction }) };
        act(body, (id) => api.openAppeal(player, { ...body, id }), 'Appeal opened.', () => setText(''));
      }}
    >
      <h4>Open an appeal for the player</h4>
      <label>
        Against{' '}
        <select name="appeal-sanction" value={sanction} onChange={(e) => setSanction((e.target as HTMLSelectElement).value)}>
          <option value="">no particular sanction</option>
          {active.map((s) => (
            <option key={s.id} value={s.id}>
              {s.action} ({plainText(s.reason)})
            </option>
          ))}
        </select>
      </label>
      <label>
        What the player says <textarea name="appeal-text" value={text} onInput={(e) => setText(value(e))} />
      </label>
      <button type="submit" disabled={status.kind === 'busy'}>
        Open appeal
      </button>
      <StatusLine status={status} />
    </form>
  );
}

export function DecideAppeal({ player, community, appeal, onDone }: { player: string; community: string; appeal: string; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [status, act] = useAction(onDone);
  const decide = (outcome: AppealDecision) => {
    if (reason.trim() === '') return;
    const body = { community, outcome, reason: reason.trim() };
    act({ appeal, ...body }, (id) => api.decideAppeal(player, appeal, { ...body, id }), `Appeal ${outcome}.`);
  };
  return (
    <form class="action decide" aria-label={`decide appeal ${appeal}`} onSubmit={(e) => e.preventDefault()}>
      <label>
        Reason for the decision <textarea name="decision-reason" required value={reason} onInput={(e) => setReason(value(e))} />
      </label>
      <button type="button" disabled={reason.trim() === '' || status.kind === 'busy'} onClick={() => decide('granted')}>
        Grant
      </button>{' '}
      <button type="button" class="secondary" disabled={reason.trim() === '' || status.kind === 'busy'} onClick={() => decide('denied')}>
        Deny
      </button>
      <StatusLine status={status} />
    </form>
  );
}

export function CaseActions({ player, community, record, onDone }: { player: string; community: string; record: PlayerRecord; onDone: () => void }) {
  return (
    <section class="actions" aria-labelledby="actions-title">
      <h3 id="actions-title">Act</h3>
      <div class="action-grid">
        <Verdict player={player} community={community} onDone={onDone} />
        <Sanction player={player} community={community} onDone={onDone} />
        <Note player={player} community={community} onDone={onDone} />
        <OpenAppeal player={player} community={community} record={record} onDone={onDone} />
      </div>
    </section>
  );
}
