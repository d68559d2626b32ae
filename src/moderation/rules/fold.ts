/**
 * What the rules keep of one community, folded from its events in log order (./stage.ts feeds
 * them): the community's clock, when each player was first and last named by an event, the
 * players named since the last evaluation, and per player the moderation facts a rule needs —
 * sanctions (whose, active or how they ended, the ladder step of a rule's), the rules' proposals,
 * the last handling and the last verdict of a person — and how a senior moderator set each rule
 * to run there (a `rule` event: live, dry-run or paused). The rules' own decisions are folded when
 * they are made; when their event comes back through the log it is recognised by its id and not
 * folded twice. Saved with the scorers' states in each checkpoint (snapshot/restore). Pure.
 */
import type { RuleState, StandingEvent } from '../../events/types.js';

export const RULE_MODERATOR_PREFIX = 'rule:';

/** The rule a moderator name stands for (`rule:<name>`), or undefined for a person. */
export function ruleOf(moderator: string | undefined): string | undefined {
  return moderator !== undefined && moderator.startsWith(RULE_MODERATOR_PREFIX) ? moderator.slice(RULE_MODERATOR_PREFIX.length) : undefined;
}

export interface FoldedSanction {
  readonly id: string;
  /** The rule that imposed it; undefined for a person's. */
  readonly rule?: string;
  readonly action: 'warn' | 'mute' | 'suspend' | 'ban';
  readonly time: number;
  readonly until?: number;
  /** A rule's: its earlier offences counted (0 for a first offence). */
  readonly step?: number;
  ended?: { readonly kind: 'lifted' | 'appeal'; readonly time: number };
}

/** The last change of a rule's state in the community: a `rule` event by a senior moderator. */
export interface FoldedRuleState {
  readonly state: RuleState;
  readonly id: string;
  readonly time: number;
  readonly reason: string;
  readonly moderator?: string;
  readonly moderatorKey?: string;
}

export interface FoldedProposal {
  readonly id: string;
  readonly rule: string;
  readonly time: number;
}

export interface PlayerFold {
  readonly sanctions: FoldedSanction[];
  readonly proposals: FoldedProposal[];
  /** Open appeals: opening id → the sanction it is against. */
  readonly appeals: Map<string, string | undefined>;
  /** Event time of the last handling: a verdict on the player, or a sanction other than a lift. */
  handledAt?: number;
  /** The last verdict on the player by a person (not a rule). */
  verdict?: { readonly outcome: 'upheld' | 'dismissed'; readonly time: number };
}

/** Whether `s` is in force at `now`. */
export function activeAt(s: FoldedSanction, now: number): boolean {
  return s.ended === undefined && (s.until === undefined || s.until > now);
}

/** The earlier offences of `rule` on a player at `time`: its sanctions within `windowMs` before it, those a granted appeal overturned left out. */
export function offencesBefore(fold: PlayerFold | undefined, rule: string, time: number, windowMs: number): number {
  if (fold === undefined) return 0;
  let n = 0;
  for (const s of fold.sanctions) if (s.rule === rule && s.time <= time && s.time > time - windowMs && s.ended?.kind !== 'appeal') n++;
  return n;
}

const idOf = (event: StandingEvent, sequence: number | undefined): string => event.id ?? `#${sequence ?? 0}`;

/** The players an event names, as a player's activity: who acted or was acted on (not moderator events). */
export function namedPlayers(event: StandingEvent): readonly string[] {
  switch (event.type) {
    case 'action':
    case 'disconnect':
    case 'played':
      return [event.player];
    case 'match.start':
      return [...event.players, ...(event.bots ?? [])];
    case 'rating':
    case 'report':
      return [event.from, event.to];
    case 'chat':
      return [event.from, ...event.to];
    default:
      return [];
  }
}

export class CommunityRules {
  /** `offenceMs(rule)`: the offence window a rule's sanction read from the log is stepped with. */
  constructor(private readonly offenceMs: (rule: string) => number) {}

  /** The latest event time seen; undefined before the first event. */
  clock: number | undefined;
  /** When each player was first and last named by an event: [first, last]. */
  readonly seen = new Map<string, [number, number]>();
  /** Players named since the last evaluation. */
  readonly touched = new Set<string>();
  readonly players = new Map<string, PlayerFold>();
  /** Rules paused by their circuit breaker: since when, until when (event time). */
  readonly paused = new Map<string, { since: number; until: number }>();
  /** How many times each rule's breaker tripped. */
  readonly trips = new Map<string, number>();
  /**
   * The state a senior moderator last set each rule to, by rule name (absent: live). A name no
   * configured rule has is kept and never read, so a log replayed under other rules ignores it.
   */
  readonly states = new Map<string, FoldedRuleState>();
  /** Decided events not yet stored. */
  pending: StandingEvent[] = [];

  fold(player: string): PlayerFold {
    let fold = this.players.get(player);
    if (fold === undefined) this.players.set(player, (fold = { sanctions: [], proposals: [], appeals: new Map() }));
    return fold;
  }

  /** Folds one event of the log (its sequence, when known, names an event without an id). */
  applied(event: StandingEvent, sequence?: number): void {
    for (const player of namedPlayers(event)) {
      const seen = this.seen.get(player);
      if (seen === undefined) this.seen.set(player, [event.time, event.time]);
      else seen[1] = Math.max(seen[1], event.time);
      this.touched.add(player);
    }
    switch (event.type) {
      case 'sanction':
        this.sanction(event, idOf(event, sequence));
        return;
      case 'note': {
        const rule = ruleOf(event.moderator);
        if (rule === undefined) return;
        const fold = this.fold(event.player);
        const id = idOf(event, sequence);
        if (!fold.proposals.some((p) => p.id === id)) fold.proposals.push({ id, rule, time: event.time });
        return;
      }
      case 'verdict': {
        if (event.on !== 'player' || event.player === undefined) return;
        const fold = this.fold(event.player);
        fold.handledAt = Math.max(fold.handledAt ?? -Infinity, event.time);
        if (ruleOf(event.moderator) === undefined) fold.verdict = { outcome: event.outcome, time: event.time };
        return;
      }
      case 'rule': {
        const { moderator, moderatorKey } = event;
        this.states.set(event.rule, {
          state: event.state,
          id: idOf(event, sequence),
          time: event.time,
          reason: event.reason,
          ...(moderator === undefined ? {} : { moderator }),
          ...(moderatorKey === undefined ? {} : { moderatorKey }),
        });
        // Resuming ends a circuit breaker's pause early.
        if (event.state === 'live') this.paused.delete(event.rule);
        return;
      }
      case 'appeal': {
        const fold = this.fold(event.player);
        if (event.status === 'opened') {
          fold.appeals.set(idOf(event, sequence), event.sanction);
          return;
        }
        if (event.appeal === undefined || !fold.appeals.has(event.appeal)) return;
        const against = fold.appeals.get(event.appeal);
        fold.appeals.delete(event.appeal);
        if (event.status !== 'granted' || against === undefined) return;
        const s = fold.sanctions.find((x) => x.id === against);
        if (s !== undefined && activeAt(s, event.time)) s.ended = { kind: 'appeal', time: event.time };
        return;
      }
      default:
        return;
    }
  }

  private sanction(event: Extract<StandingEvent, { type: 'sanction' }>, id: string): void {
    const fold = this.fold(event.player);
    if (event.action === 'lift') {
      for (const s of fold.sanctions) if ((event.sanction === undefined || s.id === event.sanction) && activeAt(s, event.time)) s.ended = { kind: 'lifted', time: event.time };
      return;
    }
    if (fold.sanctions.some((s) => s.id === id)) return; // a rule's own, folded when decided
    const rule = ruleOf(event.moderator);
    fold.handledAt = Math.max(fold.handledAt ?? -Infinity, event.time);
    fold.sanctions.push({
      id,
      action: event.action,
      time: event.time,
      ...(event.until === undefined ? {} : { until: event.until }),
      ...(rule === undefined ? {} : { rule, step: offencesBefore(fold, rule, event.time, this.offenceMs(rule)) }),
    });
  }

  /** Folds a rule's decision when it is made (its event, when stored, is then recognised by id). */
  decided(event: StandingEvent, rule: string, step: number): void {
    if (event.type === 'note') {
      this.fold(event.player).proposals.push({ id: event.id!, rule, time: event.time });
    } else if (event.type === 'sanction' && event.action !== 'lift') {
      const fold = this.fold(event.player);
      fold.handledAt = Math.max(fold.handledAt ?? -Infinity, event.time);
      fold.sanctions.push({ id: event.id!, rule, action: event.action, time: event.time, ...(event.until === undefined ? {} : { until: event.until }), step });
    }
    this.pending.push(event);
  }

  /** How `rule` runs in the community now: as a senior moderator last set it, else live. */
  stateOf(rule: string): RuleState {
    return this.states.get(rule)?.state ?? 'live';
  }

  /** The state as text (a checkpoint's), with `digest`: the rules it was evaluated under. */
  snapshot(digest: string): string {
    return JSON.stringify({
      v: 1,
      digest,
      clock: this.clock ?? null,
      seen: [...this.seen],
      touched: [...this.touched],
      players: [...this.players].map(([player, f]) => [player, { s: f.sanctions, p: f.proposals, a: [...f.appeals], h: f.handledAt ?? null, v: f.verdict ?? null }]),
      paused: [...this.paused],
      trips: [...this.trips],
      states: [...this.states],
      pending: this.pending,
    });
  }

  /** The state `snapshot` wrote, and the digest it was written under. */
  static restore(text: string, offenceMs: (rule: string) => number): { rules: CommunityRules; digest: string } {
    const saved = JSON.parse(text) as {
      v: number;
      digest: string;
      clock: number | null;
      seen: [string, [number, number]][];
      touched: string[];
      players: [string, { s: FoldedSanction[]; p: FoldedProposal[]; a: [string, string | null][]; h: number | null; v: PlayerFold['verdict'] | null }][];
      paused: [string, { since: number; until: number }][];
      trips: [string, number][];
      /** Absent in a state saved before rule states were folded. */
      states?: [string, FoldedRuleState][];
      pending: StandingEvent[];
    };
    if (saved.v !== 1) throw new Error(`rule state of version ${saved.v}, expected 1`);
    const rules = new CommunityRules(offenceMs);
    if (saved.clock !== null) rules.clock = saved.clock;
    for (const [player, seen] of saved.seen) rules.seen.set(player, seen);
    for (const player of saved.touched) rules.touched.add(player);
    for (const [player, f] of saved.players) {
      const fold: PlayerFold = { sanctions: f.s, proposals: f.p, appeals: new Map(f.a.map(([id, s]) => [id, s ?? undefined])) };
      if (f.h !== null) fold.handledAt = f.h;
      if (f.v !== null) fold.verdict = f.v;
      rules.players.set(player, fold);
    }
    for (const [rule, pause] of saved.paused) rules.paused.set(rule, pause);
    for (const [rule, n] of saved.trips) rules.trips.set(rule, n);
    for (const [rule, set] of saved.states ?? []) rules.states.set(rule, set);
    rules.pending = saved.pending;
    return { rules, digest: saved.digest };
  }
}
