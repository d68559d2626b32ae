/**
 * The moderation rules as a stage of the engine (src/moderation/rules/): hand-computed decisions
 * over small logs, the escalation ladder, the circuit breaker, dry runs, and that deciding again
 * on the same log (its own events included, or restored from a snapshot halfway) gives the
 * same events with the same ids.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine.js';
import { validateEvent } from '../../../src/events/validate.js';
import { compileRules } from '../../../src/moderation/rules/compile.js';
import { decisionsOf, reportRules } from '../../../src/moderation/rules/report.js';
import { DEFAULT_RULES, type RulesConfig } from '../../../src/moderation/rules/schema.js';
import { ruleEventId, RuleStage } from '../../../src/moderation/rules/stage.js';
import { BUILTIN_DOMAINS } from '../../../src/quality/index.js';
import { QualityStage } from '../../../src/quality/stage.js';
import { configuredInstances, resolveConfig } from '../../../src/service/config.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;

/** A config whose rules are `list` (the rest of the section as given). */
function setup(rules: Partial<RulesConfig> & Pick<RulesConfig, 'list'>, options: { foldRuleEvents?: boolean } = {}) {
  const config = resolveConfig([{ source: 'test', values: { scorers: [{ scorer: 'reliability' }, { scorer: 'reports' }], rules: { ...rules } } }]);
  const instances = configuredInstances(config);
  const compiled = compileRules(config.rules, instances.map((i) => i.name));
  const stage = new RuleStage(compiled, instances, { tailShare: config.queue.tailShare, ...options });
  const engine = new Engine(instances, { quality: new QualityStage({ domains: BUILTIN_DOMAINS, options: {} }), stage });
  const apply = (raw: Record<string, unknown>[]) => {
    for (const event of raw) engine.apply(validateEvent({ ...event }));
  };
  return { stage, engine, apply, compiled };
}

/** A match of `players` started at `t` (minutes after T0) that `dropper` leaves a minute later. */
function dropped(n: number, t: number, dropper: string, other: string): Record<string, unknown>[] {
  return [
    { type: 'match.start', id: `s${n}`, match: `m${n}`, players: [dropper, other], time: T0 + t * MIN },
    { type: 'disconnect', id: `d${n}`, player: dropper, time: T0 + (t + 1) * MIN },
  ];
}

const quitter = { name: 'quitter', label: 'Leaves matches', when: 'recent.drops >= 2', action: 'mute', ladder: ['10m', '1h'], windowHours: 24 };

describe('issue 28: rules decide by hand-computed cases', () => {
  it('mutes at the second drop, steps up the ladder at a repeat offence, and caps at its last rung', () => {
    const { stage, apply, compiled } = setup({ intervalMinutes: 0, list: [quitter] });
    apply([...dropped(1, 0, 'A', 'B'), ...dropped(2, 10, 'A', 'B')]);
    // The second drop, at minute 11: A has 2 drops in the last 24 hours.
    const first = stage.pending();
    expect(first).toEqual([
      {
        type: 'sanction',
        id: ruleEventId('default', 'quitter', 'A', T0 + 11 * MIN),
        time: T0 + 11 * MIN,
        community: 'default',
        player: 'A',
        moderator: 'rule:quitter',
        action: 'mute',
        until: T0 + 21 * MIN,
        reason: 'Leaves matches: recent.drops >= 2 (offence 1: mute for 10m)',
      },
    ]);
    // A third drop (minute 13) while the mute is in force: nothing (the rule's sanction still stands).
    apply(dropped(3, 12, 'A', 'B'));
    expect(stage.pending()).toHaveLength(1);
    // After it expired (minute 21), A is named again (a match at minute 30): the drop of minute 13
    // came after the first mute, so a second offence, 1 hour, until minute 90.
    apply(dropped(4, 30, 'A', 'B'));
    // Named again at minute 100, with the drop of minute 31 after the second mute: a third offence, the ladder's last rung again.
    apply(dropped(5, 100, 'A', 'B'));
    const decisions = decisionsOf(new Map([['default', stage.stateOf('default')!]]), new Set(['quitter']));
    expect(decisions.map((d) => [d.player, (d.time - T0) / MIN, d.action, ((d.until ?? 0) - d.time) / MIN, d.step])).toEqual([
      ['A', 11, 'mute', 10, 0],
      ['A', 30, 'mute', 60, 1],
      ['A', 100, 'mute', 60, 2],
    ]);
    const [report] = reportRules(compiled.list, new Map([['default', stage.stateOf('default')!]]));
    expect(report).toMatchObject({ actions: 3, sanctions: { warn: 0, mute: 3, suspend: 0 }, players: 1, escalations: 2, trips: 0 });
  });

  it('evaluates at the first event of each new period only, on the players named since the last evaluation', () => {
    const { stage, apply } = setup({ intervalMinutes: 60, list: [quitter] });
    // Two drops at minutes 1 and 11 in the first hour: the first event (minute 0) was an evaluation, the others are not.
    apply([...dropped(1, 0, 'A', 'B'), ...dropped(2, 10, 'A', 'B')]);
    expect(stage.pending()).toEqual([]);
    // The first event of the next hour (a chat of C at minute 61) evaluates A, B and C.
    apply([{ type: 'chat', id: 'c1', from: 'C', to: ['B'], time: T0 + 61 * MIN }]);
    expect(stage.pending().map((e) => [e.type, (e as { player: string }).player, (e.time - T0) / MIN])).toEqual([['sanction', 'A', 61]]);
  });

  it('proposes once while the proposal is open, and again only for new bad evidence after a handling', () => {
    const propose = { name: 'watch', label: 'Reported', when: 'recent.reports >= 1', action: 'propose' };
    const { stage, apply } = setup({ intervalMinutes: 0, list: [propose] });
    const played = (t: number, p: string) => ({ type: 'played', id: `p${p}${t}`, player: p, games: 5, time: T0 + t * MIN });
    // Reporters with judgment points: they played.
    apply([played(0, 'R1'), played(0, 'R2'), played(0, 'X')]);
    apply([{ type: 'report', id: 'r1', from: 'R1', to: 'X', time: T0 + 5 * MIN }]);
    apply([{ type: 'report', id: 'r2', from: 'R2', to: 'X', time: T0 + 6 * MIN }]);
    expect(stage.pending().map((e) => [e.type, (e as { player: string }).player, (e.time - T0) / MIN, (e as { text?: string }).text])).toEqual([['note', 'X', 5, 'Reported: recent.reports >= 1']]);
    // A moderator dismisses: handled at minute 7. The same reports do not bring X back.
    apply([{ type: 'verdict', id: 'v1', on: 'player', player: 'X', outcome: 'dismissed', reason: 'fine', moderator: 'mia', time: T0 + 7 * MIN }]);
    apply([{ type: 'chat', id: 'c1', from: 'X', to: ['R1'], time: T0 + 8 * MIN }]);
    expect(stage.pending()).toHaveLength(1);
    // A new report after the handling: proposed again.
    apply([{ type: 'report', id: 'r3', from: 'R1', to: 'X', time: T0 + 9 * MIN }]);
    expect(stage.pending().map((e) => (e.time - T0) / MIN)).toEqual([5, 9]);
  });

  it('a dry run proposes what it would do, with the offence', () => {
    const { stage, apply } = setup({ intervalMinutes: 0, dryRun: true, list: [quitter] });
    apply([...dropped(1, 0, 'A', 'B'), ...dropped(2, 10, 'A', 'B')]);
    expect(stage.pending().map((e) => [e.type, (e as { text?: string }).text])).toEqual([['note', 'Leaves matches: recent.drops >= 2 (dry run: would mute for 10m, offence 1)']]);
  });

  it('does not count an offence a granted appeal overturned, nor one older than offenceDays', () => {
    const { stage, apply } = setup({ intervalMinutes: 0, list: [{ ...quitter, offenceDays: 1 }] });
    apply([...dropped(1, 0, 'A', 'B'), ...dropped(2, 10, 'A', 'B')]);
    const first = stage.pending()[0]!;
    // A appeals the first mute and a moderator grants it.
    apply([
      { type: 'appeal', id: 'a1', player: 'A', status: 'opened', sanction: first.id, time: T0 + 12 * MIN },
      { type: 'appeal', id: 'a2', player: 'A', status: 'granted', appeal: 'a1', reason: 'network outage', moderator: 'mia', time: T0 + 13 * MIN },
    ]);
    // A drop after the first sanction (three within 24 hours): the overturned one is no offence, so 10 minutes again.
    apply(dropped(3, 30, 'A', 'B'));
    // Three days later (the one-day offence window passed): a first offence again.
    apply([...dropped(5, 3 * 24 * 60, 'A', 'B'), ...dropped(6, 3 * 24 * 60 + 10, 'A', 'B')]);
    const steps = decisionsOf(new Map([['default', stage.stateOf('default')!]]), new Set(['quitter'])).map((d) => [(d.time - T0) / MIN, d.step, ((d.until ?? 0) - d.time) / MIN]);
    expect(steps).toEqual([
      [11, 0, 10],
      [31, 0, 10],
      [3 * 24 * 60 + 11, 0, 10],
    ]);
  });
});

describe('issue 28: the circuit breaker', () => {
  it('pauses a rule that would act on more than its share of the active players in an hour, then resumes it', () => {
    const everyone = { name: 'everyone', label: 'Everyone', when: 'true', action: 'propose', breaker: { share: 0.5, minPlayers: 2, pauseHours: 2 } };
    const { stage, apply, compiled } = setup({ intervalMinutes: 0, list: [everyone] });
    // A and B chat: 2 players, at most max(2, 0.5 · 2) = 2: both proposed.
    apply([{ type: 'chat', id: 'c1', from: 'A', to: ['B'], time: T0 }]);
    expect(stage.pending().map((e) => (e as { player: string }).player)).toEqual(['A', 'B']);
    expect(stage.notices()).toEqual([]);
    // C, D and E chat: 5 active players, limit max(2, 2.5) = 2, and A, B, C, D, E would make 5: paused, nobody proposed.
    apply([{ type: 'chat', id: 'c2', from: 'C', to: ['D', 'E'], time: T0 + MIN }]);
    expect(stage.pending()).toHaveLength(2);
    expect(stage.notices()).toEqual([{ community: 'default', rule: 'everyone', kind: 'paused', time: T0 + MIN, players: 5, active: 5, limit: 2, until: T0 + MIN + 2 * HOUR }]);
    // Paused: an hour later, nothing.
    apply([{ type: 'chat', id: 'c3', from: 'F', to: ['G'], time: T0 + HOUR }]);
    expect(stage.pending()).toHaveLength(2);
    // After the pause: resumed, and F… evaluated again at the next event.
    apply([{ type: 'chat', id: 'c4', from: 'H', to: ['I'], time: T0 + 3 * HOUR }]);
    expect(stage.notices()).toEqual([{ community: 'default', rule: 'everyone', kind: 'resumed', time: T0 + 3 * HOUR }]);
    expect(stage.pending().map((e) => (e as { player: string }).player)).toEqual(['A', 'B', 'H', 'I']);
    expect(reportRules(compiled.list, new Map([['default', stage.stateOf('default')!]]))[0]).toMatchObject({ trips: 1, proposals: 4, players: 4 });
  });
});

describe('issue 28: deciding again gives the same events', () => {
  const log = [...dropped(1, 0, 'A', 'B'), ...dropped(2, 10, 'A', 'B'), ...dropped(3, 40, 'B', 'A'), ...dropped(4, 50, 'B', 'A'), ...dropped(5, 90, 'A', 'B')];

  it('its own events coming back through the log change nothing', () => {
    const first = setup({ intervalMinutes: 0, list: [quitter] });
    first.apply(log);
    const decided = first.stage.pending();
    expect(decided.length).toBeGreaterThan(1);
    // The same log with each decided event right after the event that triggered it (as the service stores them).
    const second = setup({ intervalMinutes: 0, list: [quitter] });
    for (const event of log) {
      second.apply([event]);
      for (const own of second.stage.pending()) second.engine.apply(own);
      second.stage.stored(new Set(second.stage.pending().map((e) => e.id!)));
    }
    const replayed = decisionsOf(new Map([['default', second.stage.stateOf('default')!]]), new Set(['quitter']));
    expect(replayed.map((d) => d.id)).toEqual(decided.map((e) => e.id));
  });

  it('a backtest leaves the log\u2019s rule events out, whoever wrote them', () => {
    const { stage, apply } = setup({ intervalMinutes: 0, list: [quitter] }, { foldRuleEvents: false });
    apply([{ type: 'sanction', id: 'old', player: 'A', action: 'mute', until: T0 + 100 * MIN, reason: 'x', moderator: 'rule:quitter', time: T0 }]);
    apply(log);
    const steps = decisionsOf(new Map([['default', stage.stateOf('default')!]]), new Set(['quitter']));
    expect(steps[0]).toMatchObject({ player: 'A', time: T0 + 11 * MIN, step: 0 });
  });

  it('a snapshot taken halfway and restored decides what a straight run does', () => {
    const straight = setup({ intervalMinutes: 0, list: [quitter] });
    straight.apply(log);
    const half = setup({ intervalMinutes: 0, list: [quitter] });
    half.apply(log.slice(0, 5));
    const text = half.stage.snapshot('default')!;
    // A fresh stage over the same scorer states (the scorers are restored from their own snapshots in the service).
    const resumed = new RuleStage(half.compiled, half.engine.instances, { tailShare: 0.1 });
    resumed.restore('default', text);
    const engine = new Engine(half.engine.instances, { quality: half.engine.quality, stage: resumed });
    for (const event of log.slice(5)) engine.apply(validateEvent({ ...event }));
    expect(resumed.pending().map((e) => e.id)).toEqual(straight.stage.pending().map((e) => e.id));
  });

  it('a snapshot saved under other rules folds the rest without deciding', () => {
    const half = setup({ intervalMinutes: 0, list: [quitter] });
    half.apply(log.slice(0, 5));
    const other = compileRules({ ...DEFAULT_RULES, intervalMinutes: 0, list: [{ ...quitter, ladder: ['5m'] }] }, half.engine.instances.map((i) => i.name));
    const resumed = new RuleStage(other, half.engine.instances, { tailShare: 0.1 });
    resumed.restore('default', half.stage.snapshot('default')!);
    const engine = new Engine(half.engine.instances, { quality: half.engine.quality, stage: resumed });
    const before = resumed.pending().length;
    for (const event of log.slice(5)) engine.apply(validateEvent({ ...event }));
    expect(resumed.pending()).toHaveLength(before);
    resumed.resume();
    engine.apply(validateEvent({ ...dropped(6, 200, 'B', 'A')[0]!, id: 's6' }));
    engine.apply(validateEvent(dropped(6, 200, 'B', 'A')[1]!));
    expect(resumed.pending().length).toBeGreaterThan(before);
  });
});

describe('issue 28: rules in the configuration are refused with their place and reason', () => {
  const refusal = (rules: unknown) => {
    try {
      resolveConfig([{ source: 'rules.json', values: { rules } }]);
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };
  const rule = (fields: Record<string, unknown>) => ({ list: [{ name: 'r', label: 'R', when: 'true', action: 'propose', ...fields }] });

  it.each([
    [{ when: 'recent.drops >= 3 &&' }, 'rules.json: rules.list[0].when (rule "r") is not a valid CEL expression at column 19: found & but expecting end of input'],
    [{ when: 'recent.drop >= 3' }, 'rules.json: rules.list[0].when (rule "r") reads a field "drop" at column 7 that does not exist (fields: drops, reports, negativeRatings, hours)'],
    [{ when: 'foo > 1' }, 'rules.json: rules.list[0].when (rule "r") names an unknown variable "foo" at column 1 (known: player, community, ageDays, scores, recent, sanctions, offences)'],
    [{ when: 'scores.cqr.tail > "x"' }, `rules.json: rules.list[0].when (rule "r") cannot be evaluated: found no matching overload for '_>_' applied to '(double, string)' at column 17`],
    [{ when: 'scores.cqr.score' }, 'rules.json: rules.list[0].when (rule "r") cannot be evaluated: gives a double, not true or false'],
    [{ when: 'scores.trust.tail > 0.5' }, 'rules.json: rules.list[0].when (rule "r") reads scores of "trust" at column 7, which is not a configured scorer instance'],
    [{ action: 'ban' }, 'rules.json: rules.list[0].action (rule "r") must be one of propose, warn, mute, suspend, got "ban": a rule never bans, a moderator does'],
    [{ action: 'mute' }, 'rules.json: rules.list[0].ladder (rule "r") is required for "mute"'],
    [{ action: 'warn', ladder: ['1h'] }, 'rules.json: rules.list[0].ladder (rule "r") is for "mute" and "suspend" only: "warn" has no duration'],
    [{ action: 'suspend', ladder: ['1h', '2 days'] }, 'rules.json: rules.list[0].ladder[1] (rule "r") must be a duration such as "10m", "1h" or "3d" (minutes, hours, days), got "2 days"'],
    [{ extra: 1 }, 'rules.json: rules.list[0].extra is not a configuration key, got 1'],
    [{ name: 'a b' }, 'rules.json: rules.list[0].name expected string to match'],
    [{ label: 'Spam\u202Emaps' }, 'rules.json: rules.list[0].label (rule "r") "Spam\\u202emaps" contains U+202E (a bidirectional control) at position 4: ids and labels hold no control'],
    [{ label: 'Spam\u200B' }, 'rules.json: rules.list[0].label (rule "r") "Spam\\u200b" contains U+200B (a zero-width character) at position 4'],
  ])('%j', (fields, message) => {
    expect(refusal(rule(fields))).toContain(message);
  });

  it('refuses two rules of one name, and a key the section does not have', () => {
    expect(refusal({ list: [rule({}).list[0], rule({}).list[0]] })).toBe('rules.json: rules.list[1].name "r" names two rules; each rule needs its own name');
    expect(refusal({ every: 5 })).toBe('rules.json: rules.every is not a configuration key, got 5');
  });

  it('accepts a condition reading nested values, lists and scores by instance name, and merges the breaker over its defaults', () => {
    const config = resolveConfig([
      { source: 'rules.json', values: { rules: { breaker: { share: 0.2 }, ...rule({ when: 'sanctions.active.exists(a, a == "mute") && scores["cqr"].rank > 2 && has(scores.trust) && "warn" in sanctions.active' }) } } },
    ]);
    expect(config.rules.breaker).toEqual({ share: 0.2, minPlayers: 5, pauseHours: 24 });
  });
});

describe('issue 28: a senior moderator sets how a rule runs in a community', () => {
  const state = (rule: string, s: string, minute: number, id = `st-${rule}-${minute}`) => ({ type: 'rule', id, rule, state: s, reason: 'because', moderator: 'sam', moderatorKey: 'k1', time: T0 + minute * MIN });

  it('paused: not evaluated from that event on, in that community only; dry-run: proposes; live: acts again', () => {
    const { stage, apply } = setup({ intervalMinutes: 0, list: [quitter] });
    apply([state('quitter', 'paused', 0)]);
    apply([...dropped(1, 1, 'A', 'B'), ...dropped(2, 10, 'A', 'B')]);
    // Another community, without a change: the rule mutes there as configured.
    apply([...dropped(1, 1, 'A', 'B'), ...dropped(2, 10, 'A', 'B')].map((e) => ({ ...e, community: 'other' })));
    expect(stage.pending().map((e) => [e.community, e.type, (e as { player: string }).player])).toEqual([['other', 'sanction', 'A']]);
    expect(stage.stateOf('default')!.states.get('quitter')).toEqual({ state: 'paused', id: 'st-quitter-0', time: T0, reason: 'because', moderator: 'sam', moderatorKey: 'k1' });

    apply([state('quitter', 'dry-run', 20)]);
    apply(dropped(3, 21, 'A', 'B'));
    const proposal = stage.pending().find((e) => e.community === 'default')!;
    expect(proposal).toMatchObject({ type: 'note', player: 'A', time: T0 + 21 * MIN, text: 'Leaves matches: recent.drops >= 2 (dry run: would mute for 10m, offence 1)' });

    apply([state('quitter', 'live', 30)]);
    apply([...dropped(4, 31, 'C', 'D'), ...dropped(5, 40, 'C', 'D')]);
    expect(stage.pending().filter((e) => e.community === 'default').map((e) => [e.type, (e as { player: string }).player])).toEqual([
      ['note', 'A'],
      ['sanction', 'C'],
    ]);
  });

  it("live ends a circuit breaker's pause early, with a notice; a state naming a rule not configured is ignored", () => {
    const everyone = { name: 'everyone', label: 'Everyone', when: 'true', action: 'propose', breaker: { share: 0.5, minPlayers: 2, pauseHours: 2 } };
    const { stage, apply } = setup({ intervalMinutes: 0, list: [everyone] });
    apply([{ type: 'chat', id: 'c1', from: 'A', to: ['B', 'C'], time: T0 }]);
    expect(stage.notices()).toMatchObject([{ rule: 'everyone', kind: 'paused', until: T0 + 2 * HOUR }]);
    apply([state('gone', 'paused', 1), state('everyone', 'live', 70)]);
    expect(stage.notices()).toEqual([{ community: 'default', rule: 'everyone', kind: 'resumed', time: T0 + 70 * MIN }]);
    expect(stage.stateOf('default')!.paused.has('everyone')).toBe(false);
    // An hour and ten minutes in, well within the breaker's two hours: D is proposed.
    apply([{ type: 'played', id: 'p1', player: 'D', games: 1, time: T0 + 71 * MIN }]);
    expect(stage.pending().map((e) => (e as { player: string }).player)).toEqual(['D']);
  });

  it('the state survives a snapshot, and a replay of the log without one folds it again', () => {
    const log = [state('quitter', 'paused', 0), ...dropped(1, 1, 'A', 'B'), ...dropped(2, 10, 'A', 'B')];
    const half = setup({ intervalMinutes: 0, list: [quitter] });
    half.apply(log.slice(0, 1));
    const resumed = new RuleStage(half.compiled, half.engine.instances, { tailShare: 0.1 });
    resumed.restore('default', half.stage.snapshot('default')!);
    const engine = new Engine(half.engine.instances, { quality: half.engine.quality, stage: resumed });
    for (const event of log.slice(1)) engine.apply(validateEvent({ ...event }));
    expect(resumed.stateOf('default')!.stateOf('quitter')).toBe('paused');
    expect(resumed.pending()).toEqual([]);
    // A backtest (the log's rule events left out) keeps people's changes of state.
    const backtest = setup({ intervalMinutes: 0, list: [quitter] }, { foldRuleEvents: false });
    backtest.apply(log);
    expect(backtest.stage.pending()).toEqual([]);
  });
});
