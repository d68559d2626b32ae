/**
 * The moderation rules live in the community (GET /v1/rules): each rule's condition and action,
 * how it runs there (live, dry-run or paused, and who set it, when and why), what it did (its
 * firings: proposals and sanctions, players, escalations, sanctions an appeal overturned), its
 * circuit breaker, and how often people agreed with it (precision against their verdicts, and
 * recall). Each rule links to its entries in the audit log. A senior key sees a control per rule
 * that sets how it runs in the community (POST /v1/rules/:name/state), with a required reason,
 * confirmed before it is recorded.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { StatusLine, useAction } from '../components/CaseActions.js';
import { Time } from '../components/Time.js';
import { UserText } from '../components/UserText.js';
import { formatPercent } from '../format.js';
import { useLoad } from '../load.js';
import { href } from '../route.js';

type RuleState = Awaited<ReturnType<typeof api.rules>>['rules'][number];
type RunState = RuleState['state'];

const RUN_STATES: readonly { state: RunState; label: string }[] = [
  { state: 'live', label: 'live: acts as configured' },
  { state: 'dry-run', label: 'dry-run: only proposes' },
  { state: 'paused', label: 'paused: not evaluated' },
];

/** How the rule runs in the community, and who set it so, when and why. */
function RunsAs({ rule }: { rule: RuleState }) {
  const change = rule.stateChange;
  return (
    <>
      <span class={rule.state === 'live' ? 'chip' : 'chip alert'} data-testid="rule-state">
        {rule.state}
      </span>
      {change !== undefined && (
        <span class="muted">
          {' '}
          set by <UserText text={change.moderator ?? change.moderatorKey ?? 'unknown'} /> <Time at={change.time} />: “<UserText text={change.reason} />”
        </span>
      )}
    </>
  );
}

/** A senior moderator's control: the rule's state in the community, with a reason, confirmed before it is recorded. */
function StateControl({ rule, community, onDone }: { rule: RuleState; community: string; onDone: () => void }) {
  const [state, setState] = useState<RunState>(rule.state === 'live' ? 'paused' : 'live');
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [status, act] = useAction(onDone);
  return (
    <form
      class="action rule-state"
      aria-label={`set how rule ${rule.name} runs`}
      onSubmit={(e) => {
        e.preventDefault();
        if (reason.trim() === '') return;
        if (!confirming) return setConfirming(true);
        setConfirming(false);
        const body = { community, state, reason: reason.trim() };
        act(body, (id) => api.setRuleState(rule.name, { ...body, id }), `Rule ${rule.name} is ${state} in ${community}.`, () => setReason(''));
      }}
    >
      <label>
        Set to{' '}
        <select
          name="rule-state"
          value={state}
          onChange={(e) => {
            setState((e.target as HTMLSelectElement).value as RunState);
            setConfirming(false);
          }}
        >
          {RUN_STATES.map((s) => (
            <option key={s.state} value={s.state}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Reason (required){' '}
        <textarea
          name="rule-state-reason"
          required
          value={reason}
          onInput={(e) => {
            setReason((e.target as HTMLTextAreaElement).value);
            setConfirming(false);
          }}
        />
      </label>
      {confirming ? (
        <div class="confirm" role="alertdialog" aria-label="confirm the rule's state">
          <p>
            Set rule <UserText text={rule.name} /> to {state} in <UserText text={community} />
            {state === 'live' && rule.paused !== undefined ? ', ending its breaker’s pause,' : ''} because “<UserText text={reason.trim()} />”?
          </p>
          <button type="submit">Confirm {state}</button>{' '}
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="submit" disabled={status.kind === 'busy' || reason.trim() === ''}>
          Set…
        </button>
      )}
      <StatusLine status={status} />
    </form>
  );
}

/** What a rule does: "mute: 10m, then 1h, then 1d", "propose", with "dry run: only proposes" when so. */
function actionText(rule: RuleState): string {
  const does = rule.ladder.length === 0 ? rule.action : `${rule.action}: ${rule.ladder.join(', then ')}`;
  return rule.dryRun && rule.action !== 'propose' ? `${does} (dry run: only proposes)` : does;
}

/** "29 times on 10 players: 19 proposed, 10 muted · 19 escalations · 2 overturned on appeal". */
function firedText(rule: RuleState): string {
  if (rule.actions === 0) return 'not yet';
  const kinds = [rule.proposals > 0 ? `${rule.proposals} proposed` : '', rule.sanctions.warn > 0 ? `${rule.sanctions.warn} warned` : '', rule.sanctions.mute > 0 ? `${rule.sanctions.mute} muted` : '', rule.sanctions.suspend > 0 ? `${rule.sanctions.suspend} suspended` : ''].filter((t) => t !== '');
  const parts = [`${rule.actions} ${rule.actions === 1 ? 'time' : 'times'} on ${rule.players} ${rule.players === 1 ? 'player' : 'players'}: ${kinds.join(', ')}`];
  if (rule.escalations > 0) parts.push(`${rule.escalations} ${rule.escalations === 1 ? 'escalation' : 'escalations'}`);
  if (rule.overturned > 0) parts.push(`${rule.overturned} overturned on appeal`);
  return parts.join(' · ');
}

export function Rules({ community, senior }: { community: string; senior: boolean }) {
  const [version, setVersion] = useState(0);
  const state = useLoad((signal) => api.rules({ community }, { signal }), [community, version]);
  const data = state.data?.community === community ? state.data : undefined;
  return (
    <section aria-labelledby="rules-title">
      <h2 id="rules-title">
        Rules <span class="muted">in {community}</span>
      </h2>
      {state.error !== undefined && <p class="error">{state.status === 403 ? 'The rules need a key with the moderate scope.' : state.error}</p>}
      {data !== undefined && data.rules.length === 0 && <p class="muted">No rules are configured.</p>}
      {data !== undefined && data.rules.length > 0 && (
        <>
          <p class="muted">
            Checked {data.intervalMinutes === 0 ? 'after every event' : `every ${data.intervalMinutes} minutes of event time`} · as of event {data.sequence.toLocaleString('en')} · precision: of the
            players a rule acted on that a moderator judged, the share upheld; recall: of the players a moderator upheld, the share the rule acted on.
          </p>
          <div class="table-wrap">
            <table class="rules stack">
              <thead>
                <tr>
                  <th scope="col">rule</th>
                  <th scope="col">when</th>
                  <th scope="col">does</th>
                  <th scope="col">runs</th>
                  <th scope="col">fired</th>
                  <th scope="col">moderators agreed</th>
                  <th scope="col">breaker</th>
                </tr>
              </thead>
              <tbody>
                {data.rules.map((rule) => (
                  <tr key={rule.name} data-rule={rule.name}>
                    <td class="wrap" data-label="rule">
                      <strong>{rule.label}</strong>
                      <br />
                      <a class="muted" href={href(['audit'], { community, moderator: `rule:${rule.name}` })}>
                        rule:{rule.name}
                      </a>
                    </td>
                    <td class="wrap" data-label="when">
                      <code style={{ overflowWrap: 'anywhere' }}>{rule.when}</code>
                    </td>
                    <td class="wrap" data-label="does">{actionText(rule)}</td>
                    <td class="wrap" data-label="runs">
                      <RunsAs rule={rule} />
                      {senior && (
                        <details class="rule-state-change">
                          <summary>Change…</summary>
                          <StateControl key={rule.name} rule={rule} community={community} onDone={() => setVersion((n) => n + 1)} />
                        </details>
                      )}
                    </td>
                    <td class="wrap" data-label="fired">
                      {firedText(rule)}
                    </td>
                    <td class="wrap" data-label="moderators agreed" title={`${rule.verdicts.upheld} upheld, ${rule.verdicts.dismissed} dismissed of ${rule.verdicts.judged} judged; ${rule.upheldPlayers} players upheld in all`}>
                      {rule.precision === null ? 'no verdict yet' : `precision ${formatPercent(rule.precision)}`}
                      {rule.recall !== null && <span class="muted"> · recall {formatPercent(rule.recall)}</span>}
                    </td>
                    <td class="wrap" data-label="breaker">
                      {rule.paused !== undefined ? (
                        <span class="chip alert">
                          paused until <Time at={rule.paused.until} />
                        </span>
                      ) : (
                        <span class="muted">running</span>
                      )}
                      {rule.trips > 0 && <span class="muted"> · tripped {rule.trips}×</span>}
                      {rule.failures > 0 && <span class="muted"> · {rule.failures} evaluations failed</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
