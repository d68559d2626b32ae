/**
 * The rules as a stage of the engine (docs/moderation.md#rules): told of every event the scorers
 * applied, in log order, it folds what rules need (./fold.ts) and, each time a community's clock
 * enters a new period of `intervalMinutes` (after every event with 0), evaluates every rule for
 * the players named since the last evaluation, on the scorers' states right after that event.
 * What it decides — a proposal (a `note` by `rule:<name>`), or a sanction stepped up the rule's
 * ladder — becomes an ordinary moderator event with an id derived from the community, the rule,
 * the player and the moment, so deciding again on the same log gives the same events, and a
 * stored one is recognised and never applied twice. The caller stores what `pending()` gives
 * (the live engine, in the same commit as the events that triggered it) or only reads it (a
 * backtest). A rule that would act on more players within an hour than its circuit breaker
 * allows takes none of those actions and pauses itself in that community (`notices()`).
 *
 * A senior moderator's `rule` event sets how a rule runs in its community from that event on:
 * `paused` is not evaluated, `dry-run` only proposes what it would do, `live` acts as configured
 * and ends a breaker's pause early. Being in the log, it is folded alike on every node, after a
 * restart and in a backtest.
 *
 * The batches a log arrives in do not matter: the decisions depend on the order of the events
 * alone. Pure: no I/O; the scorers' states are read, never changed.
 */
import { createHash } from 'node:crypto';
import type { ScorerInstance } from '../../engine/engine.js';
import type { StandingEvent } from '../../events/types.js';
import { RULE_EVENT_ID_PREFIX } from '../../events/batch.js';
import { validateEvent } from '../../events/validate.js';
import type { CompiledRule, CompiledRules } from './compile.js';
import { TickFacts } from './facts.js';
import { activeAt, CommunityRules, offencesBefore, RULE_MODERATOR_PREFIX, ruleOf, type PlayerFold } from './fold.js';

const HOUR_MS = 3_600_000;

/** A circuit breaker tripping (`paused`) or its pause ending (`resumed`), at `time` (event time). */
export interface RuleNotice {
  readonly community: string;
  readonly rule: string;
  readonly kind: 'paused' | 'resumed';
  readonly time: number;
  /** Paused: the players the rule acted on in the last hour with those it would have acted on now, the community's active players, and the most it may act on. */
  readonly players?: number;
  readonly active?: number;
  readonly limit?: number;
  /** Paused: until when. */
  readonly until?: number;
}

export interface RuleStageOptions {
  /** The bad tail's share (the queue's `tailShare`): what `scores.X.tail` measures. */
  readonly tailShare: number;
  /**
   * Whether the log's own rule events (sanctions and notes by `rule:<name>`) are folded (default
   * true, as the service must). A backtest leaves them out: it replays what its rules would
   * have done, not what rules did when the log was written.
   */
  readonly foldRuleEvents?: boolean;
}

/** The deterministic id of a rule's event: the same community, rule, player and moment give the same id. */
export function ruleEventId(community: string, rule: string, player: string, time: number): string {
  return `${RULE_EVENT_ID_PREFIX}${createHash('sha256').update(JSON.stringify([community, rule, player, time])).digest('base64url').slice(0, 27)}`;
}

/** "mute for 1h" */
function describe(rule: CompiledRule, step: number): string {
  if (rule.ladder.length === 0) return rule.action;
  return `${rule.action} for ${rule.ladder[Math.min(step, rule.ladder.length - 1)]}`;
}

export class RuleStage {
  /** What a checkpoint files the rules' state under. */
  static readonly CHECKPOINT_KEY = 'rules@1';
  private readonly communities = new Map<string, CommunityRules>();
  /**
   * Communities being replayed without a checkpoint saved under these rules: evaluated (so which
   * players are due, and the breakers, follow the log exactly) but deciding nothing, since what
   * rules decided is in the log already and what other rules would have decided never happened.
   */
  private readonly replaying = new Set<string>();
  /** Communities whose last checkpoint (saved or restored) holds a state of these rules. */
  private readonly saved = new Set<string>();
  /** Communities where the rules decided something since the stage started. */
  private readonly decidedIn = new Set<string>();
  private readonly notes: RuleNotice[] = [];
  /** Evaluations that failed, per community and rule (since start; not saved). */
  private readonly failures = new Map<string, Map<string, number>>();
  private readonly offenceMs: (rule: string) => number;
  /** What the rules decide with: the compiled rules' digest and the tail share their facts read. */
  private readonly digest: string;

  constructor(
    readonly rules: CompiledRules,
    private readonly instances: readonly ScorerInstance[],
    private readonly options: RuleStageOptions,
  ) {
    this.digest = `${rules.digest}/${options.tailShare}`;
    const byName = new Map(rules.list.map((r) => [r.name, r.offenceMs]));
    this.offenceMs = (rule) => byName.get(rule) ?? 30 * 86_400_000;
  }

  private community(name: string): CommunityRules {
    let state = this.communities.get(name);
    if (state === undefined) this.communities.set(name, (state = new CommunityRules(this.offenceMs)));
    return state;
  }

  /** The rules' state of `community` (undefined before its first event). */
  stateOf(community: string): CommunityRules | undefined {
    return this.communities.get(community);
  }

  /** Communities with state, by name. */
  communityNames(): string[] {
    return [...this.communities.keys()].sort();
  }

  /** Evaluations of `rule` in `community` that failed since start. */
  failuresOf(community: string, rule: string): number {
    return this.failures.get(community)?.get(rule) ?? 0;
  }

  /** Told of each event the scorers applied, in log order. */
  applied(event: StandingEvent): void {
    const state = this.community(event.community);
    // A rule's own event (in the log, or stored after the events that made it) is folded, when
    // asked, and nothing else: it neither moves the clock nor starts an evaluation, so the rules
    // decide the same whether or not their earlier events are in the log.
    if (isRuleEvent(event)) {
      if (this.options.foldRuleEvents !== false) state.applied(event);
      return;
    }
    const resumed = event.type === 'rule' && event.state === 'live' && state.paused.has(event.rule) ? event.rule : undefined;
    state.applied(event);
    if (resumed !== undefined && !this.replaying.has(event.community)) {
      this.notes.push({ community: event.community, rule: resumed, kind: 'resumed', time: Math.max(event.time, state.clock ?? event.time) });
    }
    const before = state.clock;
    if (before !== undefined && event.time < before) return;
    state.clock = event.time;
    if (this.rules.list.length === 0) return;
    const interval = this.rules.intervalMs;
    if (interval === 0 || before === undefined || Math.floor(event.time / interval) > Math.floor(before / interval)) this.evaluate(event.community, state, event.time);
  }

  /** Decided events not yet stored, oldest first. */
  pending(): StandingEvent[] {
    const out: StandingEvent[] = [];
    for (const state of this.communities.values()) out.push(...state.pending);
    return out;
  }

  /** Says the events of `ids` are stored: no longer pending. */
  stored(ids: ReadonlySet<string>): void {
    for (const state of this.communities.values()) if (state.pending.length > 0) state.pending = state.pending.filter((e) => !ids.has(e.id!));
  }

  /** The breakers' notices since the last call, oldest first. */
  notices(): RuleNotice[] {
    return this.notes.splice(0);
  }

  /** The state of `community` as text, for a checkpoint; undefined when it has none. */
  snapshot(community: string): string | undefined {
    this.saved.add(community);
    return this.communities.get(community)?.snapshot(this.digest);
  }

  /**
   * Whether `community` should be checkpointed now: the rules decided there, and its last
   * checkpoint holds no state of these rules. From then on a crash replays the log tail from a
   * checkpoint these rules made, deciding again what they decided (and storing what the crash
   * lost); before their first decision, a replay from the start finds nothing to decide anyway.
   */
  wantsCheckpoint(community: string): boolean {
    return this.decidedIn.has(community) && !this.saved.has(community);
  }

  /**
   * Puts back a state `snapshot` wrote (or forgets the community, with undefined). The events
   * replayed after it decide again only when it was saved under these same rules (a crash's
   * lost decisions are made again, under the same ids); otherwise, and after a forget, they are
   * evaluated without deciding until `resume`.
   */
  restore(community: string, snapshot: string | undefined): void {
    if (snapshot === undefined) {
      this.communities.delete(community);
      this.failures.delete(community);
      this.saved.delete(community);
      this.replaying.add(community);
      return;
    }
    const { rules, digest } = CommunityRules.restore(snapshot, this.offenceMs);
    this.communities.set(community, rules);
    if (digest === this.digest) {
      this.replaying.delete(community);
      this.saved.add(community);
    } else {
      this.replaying.add(community);
      this.saved.delete(community);
    }
  }

  /** Evaluates every community from its next event on (after a replay). */
  resume(community?: string): void {
    if (community === undefined) this.replaying.clear();
    else this.replaying.delete(community);
  }

  private failed(community: string, rule: string): void {
    let map = this.failures.get(community);
    if (map === undefined) this.failures.set(community, (map = new Map()));
    map.set(rule, (map.get(rule) ?? 0) + 1);
  }

  /** Evaluates every rule for the players named since the last evaluation, at `now`. */
  private evaluate(community: string, state: CommunityRules, now: number): void {
    const deciding = !this.replaying.has(community);
    for (const [rule, pause] of state.paused) {
      if (now < pause.until) continue;
      state.paused.delete(rule);
      if (deciding) this.notes.push({ community, rule, kind: 'resumed', time: now });
    }
    const players = [...state.touched].sort();
    state.touched.clear();
    if (players.length === 0) return;
    const live = this.rules.list.filter((rule) => !state.paused.has(rule.name) && state.stateOf(rule.name) !== 'paused');
    const facts = new TickFacts(this.instances, live, community, now, this.options.tailShare, state);
    for (const rule of live) {
      const acting: string[] = [];
      for (const player of players) {
        const fold = state.players.get(player);
        const last = lastAction(fold, rule.name);
        if (last !== undefined && stillActing(last, fold!, now)) continue;
        const outcome = rule.evaluate(facts.factsFor(player, rule));
        if (typeof outcome !== 'boolean') {
          this.failed(community, rule.name);
          continue;
        }
        if (!outcome) continue;
        // Once acted on by this rule, or handled by anyone, a player is acted on again only for bad
        // evidence dated after that action and that handling.
        const since = Math.max(last?.time ?? -Infinity, fold?.handledAt ?? -Infinity);
        if (since > -Infinity && !(facts.latestBad(player) > since)) continue;
        acting.push(player);
      }
      if (acting.length === 0 || this.tripped(community, state, rule, acting, now, deciding) || !deciding) continue;
      for (const player of acting) this.decide(community, state, rule, player, now);
    }
  }

  /** The circuit breaker: true (and the rule paused) when acting on `acting` would go past it. */
  private tripped(community: string, state: CommunityRules, rule: CompiledRule, acting: readonly string[], now: number, noticed: boolean): boolean {
    const since = now - HOUR_MS;
    const players = new Set(acting);
    for (const [player, fold] of state.players) {
      if (fold.sanctions.some((s) => s.rule === rule.name && s.time > since) || fold.proposals.some((p) => p.rule === rule.name && p.time > since)) players.add(player);
    }
    let active = 0;
    for (const [, last] of state.seen.values()) if (last > since) active++;
    const limit = Math.max(rule.breaker.minPlayers, Math.floor(rule.breaker.share * active));
    if (players.size <= limit) return false;
    const until = now + rule.breaker.pauseHours * HOUR_MS;
    state.paused.set(rule.name, { since: now, until });
    state.trips.set(rule.name, (state.trips.get(rule.name) ?? 0) + 1);
    if (noticed) this.notes.push({ community, rule: rule.name, kind: 'paused', time: now, players: players.size, active, limit, until });
    return true;
  }

  private decide(community: string, state: CommunityRules, rule: CompiledRule, player: string, now: number): void {
    const step = rule.action === 'propose' ? 0 : offencesBefore(state.players.get(player), rule.name, now, rule.offenceMs);
    const base = { id: ruleEventId(community, rule.name, player, now), time: now, community, player, moderator: `${RULE_MODERATOR_PREFIX}${rule.name}` };
    const why = `${rule.label}: ${rule.reason}`;
    let raw: Record<string, unknown>;
    if (rule.action === 'propose') raw = { ...base, type: 'note', text: why };
    else if (rule.dryRun || state.stateOf(rule.name) === 'dry-run') raw = { ...base, type: 'note', text: `${why} (dry run: would ${describe(rule, step)}, offence ${step + 1})` };
    else {
      const ms = rule.ladderMs.length === 0 ? undefined : rule.ladderMs[Math.min(step, rule.ladderMs.length - 1)]!;
      raw = { ...base, type: 'sanction', action: rule.action, ...(ms === undefined ? {} : { until: now + ms }), reason: `${why} (offence ${step + 1}: ${describe(rule, step)})` };
    }
    state.decided(validateEvent(raw), rule.name, step);
    this.decidedIn.add(community);
  }
}

/** The last action of `rule` on the player: its newest sanction or proposal. */
function lastAction(fold: PlayerFold | undefined, rule: string): { kind: 'sanction' | 'proposal'; time: number; id: string } | undefined {
  if (fold === undefined) return undefined;
  let last: { kind: 'sanction' | 'proposal'; time: number; id: string } | undefined;
  for (const s of fold.sanctions) if (s.rule === rule && (last === undefined || s.time >= last.time)) last = { kind: 'sanction', time: s.time, id: s.id };
  for (const p of fold.proposals) if (p.rule === rule && (last === undefined || p.time >= last.time)) last = { kind: 'proposal', time: p.time, id: p.id };
  return last;
}

/** Whether the rule's last action still stands: its sanction in force, or its proposal not yet handled. */
function stillActing(last: { kind: 'sanction' | 'proposal'; time: number; id: string }, fold: PlayerFold, now: number): boolean {
  if (last.kind === 'sanction') {
    const sanction = fold.sanctions.find((s) => s.id === last.id)!;
    return sanction.action !== 'warn' && activeAt(sanction, now); // a warning is given once, never in force
  }
  return !((fold.handledAt ?? -Infinity) > last.time);
}

/** A rule's own action in a log: a sanction (not a lift) or a note by `rule:<name>`. */
function isRuleEvent(event: StandingEvent): boolean {
  return ((event.type === 'sanction' && event.action !== 'lift') || event.type === 'note') && ruleOf(event.moderator) !== undefined;
}
