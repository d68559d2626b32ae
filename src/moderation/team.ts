/**
 * The team figures of one community (docs/moderation.md#team-figures), folded from its moderation
 * record and the reports its players received: decisions per moderator, the wait from entering the
 * queue to a decision, appeals granted against each moderator's sanctions, each rule's firings and
 * how many were overturned, and how long the players in the attention queue have waited. Pure: the
 * same record, reports and queue give the same figures, so they survive a restart and match a
 * replay of the store.
 *
 * A player's case opens at the first signal about them after their last handling — a report
 * received, or a rule's proposal — and the next handling (a verdict on the player, or a sanction
 * other than a lift) closes it: its wait is the time between the two, in event time. A handling
 * with no signal since the one before (a second action on one case, a player listed on their
 * scores or alerts alone) closes no case. An appeal is a case of its own, from its opening to its
 * decision.
 */

/** The moderator name prefix of a rule's automatic events (`rule:<name>`). */
export const RULE_PREFIX = 'rule:';

export type Sanctioning = 'warn' | 'mute' | 'suspend' | 'ban';

/** A sanction as the team figures read it (no reason). */
export interface TeamSanction {
  readonly id: string;
  readonly sequence: number;
  readonly time: number;
  readonly action: Sanctioning;
  readonly moderator?: string;
  /** How it ended before its `until`: a lift (its event id) or a granted appeal. */
  readonly ended?: { readonly kind: 'lifted' | 'appeal'; readonly id: string; readonly time: number; readonly moderator?: string };
}

export interface TeamAppeal {
  readonly id: string;
  readonly sequence: number;
  readonly time: number;
  readonly sanction?: string;
  readonly decided?: { readonly status: 'granted' | 'denied'; readonly time: number; readonly sequence: number; readonly moderator?: string };
}

export interface TeamVerdict {
  readonly sequence: number;
  readonly time: number;
  readonly on: 'player' | 'report';
  readonly outcome: 'upheld' | 'dismissed';
  readonly moderator?: string;
}

/** A note: by a rule (`rule:<name>`), a proposal. */
export interface TeamNote {
  readonly sequence: number;
  readonly time: number;
  readonly moderator?: string;
}

/** One player's moderation record, without free text. */
export interface TeamPlayer {
  readonly player: string;
  readonly sanctions: readonly TeamSanction[];
  readonly appeals: readonly TeamAppeal[];
  readonly verdicts: readonly TeamVerdict[];
  readonly notes: readonly TeamNote[];
}

export interface TeamInput {
  /** Every player with a moderation record. */
  readonly players: Iterable<TeamPlayer>;
  /** Event times of the reports `player` received, in any order. */
  reportTimes(player: string): readonly number[];
  /** The attention queue's rows: who is in it, and when each was last handled. */
  readonly queue: readonly { readonly player: string; readonly handledAt?: number }[];
  /** The community's clock (event time, epoch ms). */
  readonly now: number;
}

export type CaseKind = 'player' | 'appeal';
export type DecidedBy = 'moderator' | 'rule';

/** Decisions by kind. Notes and appeal openings are not decisions. */
export interface DecisionCounts {
  /** Verdicts on a player. */
  verdicts: number;
  /** Verdicts on a report. */
  reportVerdicts: number;
  /** Warn, mute, suspend, ban. */
  sanctions: number;
  /** Lift events (one however many sanctions it ended). */
  lifts: number;
  /** Appeals granted or denied. */
  appealDecisions: number;
}

export interface ModeratorTally extends DecisionCounts {
  /** Their sanctions that an appeal named. */
  sanctionsAppealed: number;
  /** Appeals granted against their sanctions. */
  appealsGranted: number;
  /** The waits (ms) of the cases they closed. */
  readonly waits: number[];
}

export interface RuleTally {
  /** Sanctions imposed and other events (proposals) recorded by the rule. */
  sanctions: number;
  proposals: number;
  /** Firings overturned: an appeal against the sanction granted, or the next handling by a moderator a dismissed verdict. */
  overturned: number;
}

export interface CommunityTeam {
  readonly decisions: DecisionCounts;
  /** Per case kind and who decided, the waits (ms) of the closed cases. */
  readonly waits: Readonly<Record<CaseKind, Readonly<Record<DecidedBy, number[]>>>>;
  readonly moderators: ReadonlyMap<string, ModeratorTally>;
  readonly rules: ReadonlyMap<string, RuleTally>;
  /** The attention queue: its length, and the waits so far (ms) of the players in it whose case is dated. */
  readonly queue: { readonly length: number; readonly ages: number[] };
}

export const isRule = (moderator: string | undefined): boolean => moderator !== undefined && moderator.startsWith(RULE_PREFIX);
const decidedBy = (moderator: string | undefined): DecidedBy => (isRule(moderator) ? 'rule' : 'moderator');

export const noDecisions = (): DecisionCounts => ({ verdicts: 0, reportVerdicts: 0, sanctions: 0, lifts: 0, appealDecisions: 0 });

/** A handling of the player: a verdict on them, or a sanction other than a lift. */
interface Handling {
  readonly sequence: number;
  readonly time: number;
  readonly moderator?: string;
  readonly dismissed: boolean;
}

/** The first time in `sorted` (ascending) after `after` and at or before `until`. */
function firstBetween(sorted: readonly number[], after: number, until: number): number | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]! <= until ? sorted[lo] : undefined;
}

/** What the record alone gives: every figure but the queue's. */
export type RecordTeam = Omit<CommunityTeam, 'queue'>;

/** The queue's length and the waits so far (ms) of its players whose case is dated. */
export interface QueueTeam {
  readonly length: number;
  readonly ages: number[];
}

/** The figures of `input`: the record's and the queue's. */
export function communityTeam(input: TeamInput): CommunityTeam {
  const records = new Map<string, TeamPlayer>();
  for (const record of input.players) records.set(record.player, record);
  return { ...recordTeam(records.values(), input.reportTimes), queue: queueTeam(input.queue, (player) => records.get(player), input.reportTimes, input.now) };
}

/** Decisions, waits, moderators and rules, from every player's record and the reports they received. */
export function recordTeam(players: Iterable<TeamPlayer>, reportTimes: TeamInput['reportTimes']): RecordTeam {
  const decisions = noDecisions();
  const waits: Record<CaseKind, Record<DecidedBy, number[]>> = { player: { moderator: [], rule: [] }, appeal: { moderator: [], rule: [] } };
  const moderators = new Map<string, ModeratorTally>();
  const rules = new Map<string, RuleTally>();
  const tally = (moderator: string | undefined): ModeratorTally | undefined => {
    if (moderator === undefined) return undefined;
    let t = moderators.get(moderator);
    if (t === undefined) moderators.set(moderator, (t = { ...noDecisions(), sanctionsAppealed: 0, appealsGranted: 0, waits: [] }));
    return t;
  };
  const rule = (moderator: string): RuleTally => {
    const name = moderator.slice(RULE_PREFIX.length);
    let t = rules.get(name);
    if (t === undefined) rules.set(name, (t = { sanctions: 0, proposals: 0, overturned: 0 }));
    return t;
  };
  const count = (moderator: string | undefined, kind: keyof DecisionCounts) => {
    decisions[kind]++;
    const t = tally(moderator);
    if (t !== undefined) t[kind]++;
  };

  for (const record of players) {
    const handlings: Handling[] = [];
    for (const v of record.verdicts) {
      count(v.moderator, v.on === 'player' ? 'verdicts' : 'reportVerdicts');
      if (v.on === 'player') handlings.push({ sequence: v.sequence, time: v.time, ...(v.moderator === undefined ? {} : { moderator: v.moderator }), dismissed: v.outcome === 'dismissed' });
    }
    const lifts = new Map<string, string | undefined>();
    for (const s of record.sanctions) {
      count(s.moderator, 'sanctions');
      handlings.push({ sequence: s.sequence, time: s.time, ...(s.moderator === undefined ? {} : { moderator: s.moderator }), dismissed: false });
      if (s.ended?.kind === 'lifted') lifts.set(s.ended.id, s.ended.moderator);
    }
    for (const moderator of lifts.values()) count(moderator, 'lifts');
    handlings.sort((a, b) => a.sequence - b.sequence);
    /** The first handling after `sequence` by a moderator who is not a rule. */
    const reviewAfter = (sequence: number) => handlings.find((h) => h.sequence > sequence && !isRule(h.moderator));

    // Player cases: each opened by the first signal after the last handling, closed by the next handling.
    const signals = [...reportTimes(record.player), ...record.notes.filter((n) => isRule(n.moderator)).map((n) => n.time)].sort((a, b) => a - b);
    let last = -Infinity;
    for (const h of handlings) {
      const opened = firstBetween(signals, last, h.time);
      if (opened !== undefined) {
        const wait = h.time - opened;
        waits.player[decidedBy(h.moderator)].push(wait);
        tally(h.moderator)?.waits.push(wait);
      }
      last = Math.max(last, h.time);
    }

    // Appeals: cases of their own; granted ones count against the sanction's moderator.
    const byId = new Map(record.sanctions.map((s) => [s.id, s]));
    const appealed = new Set<string>();
    for (const a of record.appeals) {
      const against = a.sanction === undefined ? undefined : byId.get(a.sanction);
      if (against !== undefined && !appealed.has(against.id)) {
        appealed.add(against.id);
        const t = tally(against.moderator);
        if (t !== undefined) t.sanctionsAppealed++;
      }
      if (a.decided === undefined) continue;
      count(a.decided.moderator, 'appealDecisions');
      const wait = Math.max(0, a.decided.time - a.time);
      waits.appeal[decidedBy(a.decided.moderator)].push(wait);
      tally(a.decided.moderator)?.waits.push(wait);
      if (a.decided.status === 'granted' && against !== undefined) {
        const t = tally(against.moderator);
        if (t !== undefined) t.appealsGranted++;
      }
    }

    // Rule firings and their overturns.
    for (const s of record.sanctions) {
      if (!isRule(s.moderator)) continue;
      const t = rule(s.moderator!);
      t.sanctions++;
      if (s.ended?.kind === 'appeal' || reviewAfter(s.sequence)?.dismissed === true) t.overturned++;
    }
    for (const n of record.notes) {
      if (!isRule(n.moderator)) continue;
      const t = rule(n.moderator!);
      t.proposals++;
      if (reviewAfter(n.sequence)?.dismissed === true) t.overturned++;
    }
  }

  return { decisions, waits, moderators, rules };
}

/** Each queued player's wait so far at `now`: from their open case (the first signal after their last handling) or their oldest open appeal, whichever is earlier. */
export function queueTeam(queue: TeamInput['queue'], recordOf: (player: string) => TeamPlayer | undefined, reportTimes: TeamInput['reportTimes'], now: number): QueueTeam {
  const ages: number[] = [];
  for (const row of queue) {
    const record = recordOf(row.player);
    const signals = [...reportTimes(row.player), ...(record?.notes ?? []).filter((n) => isRule(n.moderator)).map((n) => n.time)];
    let entered = Infinity;
    for (const time of signals) if (time > (row.handledAt ?? -Infinity) && time < entered) entered = time;
    for (const a of record?.appeals ?? []) if (a.decided === undefined && a.time < entered) entered = a.time;
    if (entered !== Infinity) ages.push(Math.max(0, now - entered));
  }
  return { length: queue.length, ages };
}

/** The smallest value with at least `q` of `sorted` (ascending, not empty) at or below it (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

export const totalDecisions = (d: DecisionCounts): number => d.verdicts + d.reportVerdicts + d.sanctions + d.lifts + d.appealDecisions;
