/**
 * The moderation book: per community and player, the moderator events of the log folded into
 * what a moderator reads (sanctions with whether they are active, appeals with their decisions,
 * notes, verdicts) and the facts the attention queue needs. Built at start from the store's
 * moderation index, kept current from the live engine's commits, rebuilt for a community after an
 * erasure (docs/service.md#moderation).
 *
 * Events are folded in log order (sequence). A sanction is active from when it is recorded until
 * `until`, a lift, or a granted appeal against it, whichever comes first; expiry is judged at
 * `now`, the community's clock (`clock`: the latest event time seen, which never goes back), never
 * by the wall clock. An event without an `id` (from a log file) is named `#<sequence>`.
 *
 * A case a rule proposed (a note, verdict or sanction by a moderator named `rule:<name>`) is
 * followed until a moderator handles it: an upheld verdict or a sanction handles it at once; with
 * `secondDismissal` (fourEyes.ruleDismissals), a dismissal counts as handling only once two
 * moderators have dismissed it (docs/moderation.md#four-eyes).
 *
 * The book holds no free text (reasons, notes' and appeals' texts: up to 4,000 characters each,
 * and a game may open appeals): `record` reads them from the store for the one player asked for.
 * `version` counts the changes of a community's record, for the caches built on it.
 */
import type { AppealEvent, SanctionEvent, StandingEvent, VerdictEvent } from '../events/types.js';
import type { AppliedChange, EventLog, ModerationEntry, ModerationIndex, StoredEvent } from '../store/types.js';
import { SpillMap } from '../util/spill-map.js';
import type { TeamPlayer } from './team.js';

export interface SanctionView {
  id: string;
  action: 'warn' | 'mute' | 'suspend' | 'ban';
  time: number;
  until?: number;
  reason: string;
  moderator?: string;
  active: boolean;
  endedBy?: { kind: 'expired' | 'lifted' | 'appeal'; time: number; id?: string; moderator?: string };
}
export interface AppealView {
  id: string;
  time: number;
  sanction?: string;
  text?: string;
  status: 'open' | 'granted' | 'denied';
  decided?: { time: number; id: string; moderator?: string; reason?: string };
}
export interface NoteView {
  id: string;
  time: number;
  text: string;
  moderator?: string;
}
export interface VerdictView {
  id: string;
  time: number;
  on: 'player' | 'report';
  outcome: 'upheld' | 'dismissed';
  reason?: string;
  moderator?: string;
  report?: string;
  from?: string;
  /** A verdict on the reports of a reporter since erased: kept without them (docs/service.md#erasure). */
  reporterErased?: true;
}
/** Newest first. */
export interface PlayerRecord {
  sanctions: SanctionView[];
  appeals: AppealView[];
  notes: NoteView[];
  verdicts: VerdictView[];
}
/** A rule's proposal (a note by `rule:<name>`) no handling came after. */
export interface OpenProposal {
  readonly rule: string;
  readonly time: number;
}
export interface QueueFacts {
  /** Event time of the last handling action (a verdict on the player, or a sanction other than lift); undefined: never handled. */
  handledAt?: number;
  /** A rule's proposal one moderator dismissed, waiting for a second (fourEyes.ruleDismissals). */
  secondOpinion?: SecondOpinion;
  /** The rules' proposals no handling came after, oldest first (absent: none). */
  proposals?: readonly OpenProposal[];
  /** When the last handling was a rule's sanction: the rule and the action (absent otherwise). */
  handledByRule?: { readonly rule: string; readonly action: string };
  /** Appeals of the player still open (the queue weighs at most one). */
  openAppeals: number;
  /** Active sanctions, by action. */
  activeSanctions: readonly string[];
}

/** A rule's proposal on a player and the moderators who dismissed it since. */
export interface SecondOpinion {
  /** The rule's moderator name, `rule:<name>`. */
  readonly rule: string;
  readonly dismissedBy: readonly string[];
}

/** The prefix of the moderator name a rule's events carry. */
const RULE_PREFIX = 'rule:';

/** Whether a moderator event was made by a rule. */
export const byRule = (moderator: string | undefined): boolean => moderator?.startsWith(RULE_PREFIX) === true;

/** A sanction as folded: its end by a lift or an appeal, if any (expiry is judged when read). */
interface SanctionState {
  readonly id: string;
  readonly sequence: number;
  /** What the book needs of the event: no `reason` (`record` reads it from the store), no extra field. */
  readonly event: { readonly time: number; readonly action: SanctionEvent['action']; readonly until?: number; readonly moderator?: string };
  ended?: { kind: 'lifted' | 'appeal'; time: number; id: string; moderator?: string };
}
interface AppealState {
  readonly id: string;
  readonly sequence: number;
  /** What the book needs of the opening event: no `text` (`record` reads it from the store), no extra field. */
  readonly event: { readonly time: number; readonly sanction?: string };
  decided?: { status: 'granted' | 'denied'; time: number; id: string; sequence: number; moderator?: string };
}
interface Dated<T> {
  readonly sequence: number;
  /** The view without its free text (`text`, `reason`). */
  readonly view: T;
}
interface PlayerLog {
  readonly sanctions: SanctionState[];
  readonly appeals: AppealState[];
  readonly notes: Dated<Omit<NoteView, 'text'>>[];
  readonly verdicts: Dated<VerdictView>[];
  handledAt?: number;
  /** A rule's proposal no moderator handled yet, and who dismissed it since. */
  proposal?: { rule: string; dismissedBy: string[] };
  /** The rule and action of the last handling when a rule's sanction made it. */
  handledByRule?: { rule: string; action: string };
}

const idOf = (event: StandingEvent, sequence: number): string => event.id ?? `#${sequence}`;
const withModerator = <T extends object>(view: T, moderator: string | undefined): T => (moderator === undefined ? view : { ...view, moderator });

/** Whether the sanction is in force at `now`: recorded, not ended, not expired. */
function activeAt(s: SanctionState, now: number): boolean {
  return s.ended === undefined && (s.event.until === undefined || s.event.until > now);
}

/** Free texts by sequence (`record` fills them in from the store). */
type Texts = ReadonlyMap<number, { text?: string; reason?: string }>;
const NO_TEXTS: Texts = new Map();

function sanctionView(s: SanctionState, now: number, texts: Texts = NO_TEXTS): SanctionView {
  const e = s.event;
  const view: SanctionView = withModerator(
    { id: s.id, action: e.action as SanctionView['action'], time: e.time, ...(e.until === undefined ? {} : { until: e.until }), reason: texts.get(s.sequence)?.reason ?? '', active: activeAt(s, now) },
    e.moderator,
  );
  const expired = e.until !== undefined && e.until <= now && (s.ended === undefined || e.until <= s.ended.time);
  if (expired) return { ...view, endedBy: { kind: 'expired', time: e.until } };
  if (s.ended !== undefined) return { ...view, endedBy: withModerator({ kind: s.ended.kind, time: s.ended.time, id: s.ended.id }, s.ended.moderator) };
  return view;
}

function appealView(a: AppealState, texts: Texts = NO_TEXTS): AppealView {
  const e = a.event;
  const text = texts.get(a.sequence)?.text;
  const view: AppealView = {
    id: a.id,
    time: e.time,
    ...(e.sanction === undefined ? {} : { sanction: e.sanction }),
    ...(text === undefined ? {} : { text }),
    status: a.decided?.status ?? 'open',
  };
  if (a.decided === undefined) return view;
  const { time, id, moderator, sequence } = a.decided;
  const reason = texts.get(sequence)?.reason;
  return { ...view, decided: { time, id, ...(moderator === undefined ? {} : { moderator }), ...(reason === undefined ? {} : { reason }) } };
}

/** Records a handling at `time` (the latest counts), by a rule's sanction or not. */
function handled(log: PlayerLog, time: number, byRule: { rule: string; action: string } | undefined): void {
  if (log.handledAt !== undefined && log.handledAt > time) return;
  log.handledAt = time;
  if (byRule === undefined) delete log.handledByRule;
  else log.handledByRule = byRule;
}

/** The rules' proposals (notes by `rule:<name>`) dated after the player's last handling, oldest first. */
function openProposals(log: PlayerLog): OpenProposal[] {
  const out: OpenProposal[] = [];
  for (const note of log.notes) {
    const moderator = note.view.moderator;
    if (moderator === undefined || !moderator.startsWith('rule:') || note.view.time <= (log.handledAt ?? -Infinity)) continue;
    out.push({ rule: moderator.slice('rule:'.length), time: note.view.time });
  }
  return out;
}

const newestFirst = <T extends { sequence: number }>(list: readonly T[]): T[] => [...list].reverse();

/** Inserts `item` in sequence order (items mostly arrive in order: from the end). */
function insertInOrder<T extends { sequence: number }>(list: T[], item: T): void {
  let at = list.length;
  while (at > 0 && list[at - 1]!.sequence > item.sequence) at--;
  list.splice(at, 0, item);
}

class CommunityBook {
  /** @param secondDismissal a rule's proposal is dismissed only by two moderators (fourEyes.ruleDismissals) */
  constructor(private readonly secondDismissal: boolean) {}

  readonly players = new SpillMap<string, PlayerLog>();
  /** Players with an open appeal, and how many (a game may open appeals for any number of players). */
  readonly openAppeals = new SpillMap<string, number>();
  /** Changes folded in (`ModerationBook.version`). */
  changes = 0;

  log(player: string): PlayerLog {
    let log = this.players.get(player);
    if (log === undefined) this.players.set(player, (log = { sanctions: [], appeals: [], notes: [], verdicts: [] }));
    return log;
  }

  apply(event: StandingEvent, sequence: number, player: string | undefined): void {
    if (player === undefined) return;
    const id = idOf(event, sequence);
    this.changes++;
    switch (event.type) {
      case 'note':
        insertInOrder(this.log(player).notes, { sequence, view: withModerator({ id, time: event.time }, event.moderator) });
        if (byRule(event.moderator)) this.log(player).proposal = { rule: event.moderator!, dismissedBy: [] };
        return;
      case 'verdict':
        this.verdict(this.log(player), event, id, sequence);
        return;
      case 'sanction':
        this.sanction(this.log(player), event, id, sequence);
        return;
      case 'appeal':
        this.appeal(player, event, id, sequence);
        return;
      default:
        return;
    }
  }

  private verdict(log: PlayerLog, event: VerdictEvent, id: string, sequence: number): void {
    const view: VerdictView = withModerator(
      {
        id,
        time: event.time,
        on: event.on,
        outcome: event.outcome,
        ...(event.report === undefined ? {} : { report: event.report }),
        ...(event.from === undefined ? {} : { from: event.from }),
        ...(event.reporterErased === true ? { reporterErased: true as const } : {}),
      },
      event.moderator,
    );
    insertInOrder(log.verdicts, { sequence, view });
    if (event.on !== 'player') return;
    if (byRule(event.moderator)) log.proposal = { rule: event.moderator!, dismissedBy: [] };
    else if (log.proposal !== undefined && event.outcome === 'dismissed') {
      const name = event.moderator ?? '';
      if (!log.proposal.dismissedBy.includes(name)) log.proposal.dismissedBy.push(name);
      if (this.secondDismissal && log.proposal.dismissedBy.length < 2) return; // not handled until a second moderator dismisses it
      log.proposal = undefined;
    } else log.proposal = undefined;
    handled(log, event.time, undefined);
  }

  private sanction(log: PlayerLog, event: SanctionEvent, id: string, sequence: number): void {
    if (event.action !== 'lift') {
      const kept = { time: event.time, action: event.action, ...(event.until === undefined ? {} : { until: event.until }), ...(event.moderator === undefined ? {} : { moderator: event.moderator }) };
      log.sanctions.push({ id, sequence, event: kept });
      const rule = event.moderator?.startsWith('rule:') === true ? event.moderator.slice('rule:'.length) : undefined;
      handled(log, event.time, rule === undefined ? undefined : { rule, action: event.action });
      log.proposal = byRule(event.moderator) ? { rule: event.moderator!, dismissedBy: [] } : undefined;
      return;
    }
    const ended = withModerator({ kind: 'lifted' as const, time: event.time, id }, event.moderator);
    for (const s of log.sanctions) {
      if ((event.sanction === undefined || s.id === event.sanction) && activeAt(s, event.time)) s.ended = ended;
    }
  }

  private appeal(player: string, event: AppealEvent, id: string, sequence: number): void {
    const log = this.log(player);
    if (event.status === 'opened') {
      log.appeals.push({ id, sequence, event: { time: event.time, ...(event.sanction === undefined ? {} : { sanction: event.sanction }) } });
      this.openAppeals.set(player, (this.openAppeals.get(player) ?? 0) + 1);
      return;
    }
    const appeal = log.appeals.find((a) => a.id === event.appeal);
    if (appeal === undefined || appeal.decided !== undefined) return; // a decision on nothing open changes nothing
    appeal.decided = { status: event.status, time: event.time, id, sequence, ...(event.moderator === undefined ? {} : { moderator: event.moderator }) };
    const open = (this.openAppeals.get(player) ?? 1) - 1;
    if (open === 0) this.openAppeals.delete(player);
    else this.openAppeals.set(player, open);
    if (event.status !== 'granted' || appeal.event.sanction === undefined) return;
    const sanction = log.sanctions.find((s) => s.id === appeal.event.sanction);
    if (sanction !== undefined && activeAt(sanction, event.time)) sanction.ended = withModerator({ kind: 'appeal' as const, time: event.time, id }, event.moderator);
  }
}

/** A player's log as the team figures read it. */
function teamRecordOf(player: string, log: PlayerLog): TeamPlayer {
  return {
    player,
    sanctions: log.sanctions.map((s) => ({
      id: s.id,
      sequence: s.sequence,
      time: s.event.time,
      action: s.event.action as TeamPlayer['sanctions'][number]['action'],
      ...(s.event.moderator === undefined ? {} : { moderator: s.event.moderator }),
      ...(s.ended === undefined ? {} : { ended: { kind: s.ended.kind, id: s.ended.id, time: s.ended.time, ...(s.ended.moderator === undefined ? {} : { moderator: s.ended.moderator }) } }),
    })),
    appeals: log.appeals.map((a) => ({
      id: a.id,
      sequence: a.sequence,
      time: a.event.time,
      ...(a.event.sanction === undefined ? {} : { sanction: a.event.sanction }),
      ...(a.decided === undefined
        ? {}
        : { decided: { status: a.decided.status, time: a.decided.time, sequence: a.decided.sequence, ...(a.decided.moderator === undefined ? {} : { moderator: a.decided.moderator }) } }),
    })),
    verdicts: log.verdicts.map(({ sequence, view }) => ({ sequence, time: view.time, on: view.on, outcome: view.outcome, ...(view.moderator === undefined ? {} : { moderator: view.moderator }) })),
    notes: log.notes.map(({ sequence, view }) => ({ sequence, time: view.time, ...(view.moderator === undefined ? {} : { moderator: view.moderator }) })),
  };
}

/** A player's verdicts and sanctions, in log order. */
export interface Decisions {
  readonly verdicts: readonly { readonly sequence: number; readonly view: VerdictView }[];
  readonly sanctions: readonly { readonly sequence: number; readonly action: string }[];
}

/** How the book folds what four-eyes rules change (docs/moderation.md#four-eyes). */
export interface BookOptions {
  /** fourEyes.ruleDismissals: a case a rule proposed is handled by a dismissal only once two moderators dismissed it. */
  readonly secondDismissal: boolean;
}

/** Entries read per page while building. */
const PAGE = 5_000;

export class ModerationBook {
  private readonly books = new Map<string, CommunityBook>();
  /** Per community, the latest event time seen: the clock sanctions expire by. Never goes back. */
  private readonly clocks = new Map<string, number>();
  /** Per community, changes before the current CommunityBook (a rebuild replaces it). */
  private readonly bases = new Map<string, number>();
  /** Work that must finish before the book is current (lookups, rebuilds), one after another. */
  private pending: Promise<void> = Promise.resolve();
  /** How many of those are waiting: while any is, later changes wait behind them, in order. */
  private waiting = 0;

  private constructor(
    private readonly store: ModerationIndex,
    private readonly options: BookOptions,
  ) {}

  /** Reads every moderator event of the store into a new book; the clocks start at the later of each community's last event and its latest moderator event. */
  static async build(store: EventLog & ModerationIndex, options: BookOptions = { secondDismissal: false }): Promise<ModerationBook> {
    const book = new ModerationBook(store, options);
    for (const [community, last] of await store.lastEvents()) book.advance(community, last.time);
    for (const entry of await book.entries()) {
      book.community(entry.community).apply(entry.event, entry.sequence, entry.player);
      book.advance(entry.community, entry.event.time);
    }
    return book;
  }

  /** Keeps the book current from `live`'s commits and erasures. */
  follow(live: { onApplied(listener: (change: AppliedChange) => void): void }): void {
    live.onApplied((change) => this.applied(change));
  }

  /** Resolves once every change heard so far is in the book. */
  whenCurrent(): Promise<void> {
    return this.pending;
  }

  /** The community's clock: the latest event time seen (0 for a community without events). It never goes back, whatever the time of a later event. */
  clock(community: string): number {
    return this.clocks.get(community) ?? 0;
  }

  /** Counts the changes of the community's record: equal versions, the same record and facts (at the same clock). */
  version(community: string): number {
    return (this.bases.get(community) ?? 0) + (this.books.get(community)?.changes ?? 0);
  }

  /** The player's record at `now`, its free texts read from the store. */
  async record(community: string, player: string, now: number): Promise<PlayerRecord> {
    const log = this.books.get(community)?.players.get(player);
    if (log === undefined) return { sanctions: [], appeals: [], notes: [], verdicts: [] };
    const texts = await this.texts(community, player);
    return {
      sanctions: newestFirst(log.sanctions).map((s) => sanctionView(s, now, texts)),
      appeals: newestFirst(log.appeals).map((a) => appealView(a, texts)),
      notes: newestFirst(log.notes).map((n) => ({ ...n.view, text: texts.get(n.sequence)?.text ?? '' })),
      verdicts: newestFirst(log.verdicts).map((v) => {
        const reason = texts.get(v.sequence)?.reason;
        return reason === undefined ? v.view : { ...v.view, reason };
      }),
    };
  }

  facts(community: string, player: string, now: number): QueueFacts {
    const log = this.books.get(community)?.players.get(player);
    if (log === undefined) return { openAppeals: 0, activeSanctions: [] };
    const activeSanctions = log.sanctions.filter((s) => activeAt(s, now)).map((s) => s.event.action);
    const openAppeals = log.appeals.filter((a) => a.decided === undefined).length;
    const proposals = openProposals(log);
    const waiting = this.secondOpinion(community, player);
    return {
      ...(log.handledAt === undefined ? {} : { handledAt: log.handledAt }),
      ...(log.handledByRule === undefined ? {} : { handledByRule: log.handledByRule }),
      ...(proposals.length === 0 ? {} : { proposals }),
      ...(waiting === undefined ? {} : { secondOpinion: waiting }),
      openAppeals,
      activeSanctions,
    };
  }

  /** The rule's proposal on the player no moderator handled yet, with who dismissed it since; undefined when there is none. */
  proposal(community: string, player: string): SecondOpinion | undefined {
    const proposal = this.books.get(community)?.players.get(player)?.proposal;
    return proposal === undefined ? undefined : { rule: proposal.rule, dismissedBy: [...proposal.dismissedBy] };
  }

  /** With fourEyes.ruleDismissals: a rule's proposal one moderator dismissed, waiting for a second; undefined otherwise. */
  secondOpinion(community: string, player: string): SecondOpinion | undefined {
    if (!this.options.secondDismissal) return undefined;
    const proposal = this.proposal(community, player);
    return proposal === undefined || proposal.dismissedBy.length === 0 ? undefined : proposal;
  }
  /** Players of the community with a rule's proposal no handling came after (the queue lists them). */
  withOpenProposals(community: string): string[] {
    const book = this.books.get(community);
    if (book === undefined) return [];
    const out: string[] = [];
    for (const [player, log] of book.players.entries()) if (openProposals(log).length > 0) out.push(player);
    return out.sort();
  }

  /** Players of the community with any open appeal (the queue lists them even with good scores). */
  withOpenAppeals(community: string): string[] {
    const open = this.books.get(community)?.openAppeals;
    return open === undefined ? [] : [...open.entries()].map(([player]) => player).sort();
  }

  /** The player's verdicts and sanctions (not lifts) in log order, without texts: what the outcome of a report about them is read from. */
  decisions(community: string, player: string): Decisions {
    const log = this.books.get(community)?.players.get(player);
    if (log === undefined) return { verdicts: [], sanctions: [] };
    return { verdicts: log.verdicts, sanctions: log.sanctions.map((s) => ({ sequence: s.sequence, action: s.event.action })) };
  }

  /** The sanction of `player` with event id `id`, as at `now` (without its reason); undefined when there is none. */
  sanction(community: string, player: string, id: string, now: number): SanctionView | undefined {
    const s = this.books.get(community)?.players.get(player)?.sanctions.find((x) => x.id === id);
    return s === undefined ? undefined : sanctionView(s, now);
  }

  /** Whether `player` has a sanction (active or not) with event id `id`. */
  hasSanction(community: string, player: string, id: string): boolean {
    return this.books.get(community)?.players.get(player)?.sanctions.some((x) => x.id === id) === true;
  }

  /** The appeal of `player` whose opening event has id `id` (without its texts); undefined when there is none. */
  appeal(community: string, player: string, id: string): AppealView | undefined {
    const a = this.books.get(community)?.players.get(player)?.appeals.find((x) => x.id === id);
    return a === undefined ? undefined : appealView(a);
  }

  /** Every player of `community` with a moderation record, as the team figures read it (./team.ts): no free text. */
  *teamRecords(community: string): Generator<TeamPlayer> {
    const book = this.books.get(community);
    if (book === undefined) return;
    for (const [player, log] of book.players.entries()) yield teamRecordOf(player, log);
  }

  /** The record of `player` in `community` as the team figures read it; undefined without one. */
  teamRecord(community: string, player: string): TeamPlayer | undefined {
    const log = this.books.get(community)?.players.get(player);
    return log === undefined ? undefined : teamRecordOf(player, log);
  }

  /** The id of the player's open appeal against `sanction` (against no sanction when undefined), if there is one. */
  openAppealOn(community: string, player: string, sanction: string | undefined): string | undefined {
    return this.books.get(community)?.players.get(player)?.appeals.find((a) => a.decided === undefined && a.event.sanction === sanction)?.id;
  }

  private community(name: string): CommunityBook {
    let book = this.books.get(name);
    if (book === undefined) this.books.set(name, (book = new CommunityBook(this.options.secondDismissal)));
    return book;
  }

  private advance(community: string, time: number): void {
    if (time > (this.clocks.get(community) ?? -Infinity)) this.clocks.set(community, time);
  }

  /** The free texts of the player's moderator events, by sequence. */
  private async texts(community: string, player: string): Promise<Texts> {
    const texts = new Map<number, { text?: string; reason?: string }>();
    for (let after: ModerationEntry | undefined; ; ) {
      const page = await this.store.moderationEvents({ community, player, limit: PAGE, ...(after === undefined ? {} : { after }) });
      for (const { sequence, event } of page) {
        const { text, reason } = event as { text?: unknown; reason?: unknown };
        texts.set(sequence, { ...(typeof text === 'string' ? { text } : {}), ...(typeof reason === 'string' ? { reason } : {}) });
      }
      if (page.length < PAGE) return texts;
      after = page[page.length - 1];
    }
  }

  /** Every moderator event of `community` (of all when undefined), in log order. */
  private async entries(community?: string): Promise<ModerationEntry[]> {
    const all: ModerationEntry[] = [];
    for (;;) {
      const last = all[all.length - 1];
      const page = await this.store.moderationEvents({ ...(community === undefined ? {} : { community }), limit: PAGE, ...(last === undefined ? {} : { after: last }) });
      all.push(...page);
      if (page.length < PAGE) break;
    }
    return all.sort((a, b) => (a.community < b.community ? -1 : a.community > b.community ? 1 : a.sequence - b.sequence));
  }

  private applied(change: AppliedChange): void {
    for (const [community, last] of change.communities) this.advance(community, last.time);
    for (const stored of change.events) this.advance(stored.community, stored.event.time);
    if (change.erased === true) {
      for (const community of change.communities.keys()) this.later(() => this.rebuild(community));
      return;
    }
    for (const stored of change.events) {
      if (this.waiting > 0) this.later(async () => this.applyStored(stored));
      else this.applyStored(stored);
    }
  }

  private applyStored({ community, sequence, event }: StoredEvent): void {
    if (event.type !== 'verdict' && event.type !== 'note' && event.type !== 'sanction' && event.type !== 'appeal') return;
    const fields = event as { player?: string; to?: string };
    const player = fields.player ?? fields.to;
    if (player !== undefined || event.type !== 'verdict') {
      this.community(community).apply(event, sequence, player);
      return;
    }
    // A verdict naming its report by id: the store knows whom that report is about.
    this.later(async () => {
      const [entry] = await this.store.moderationEvents({ community, after: { time: event.time, community, sequence: sequence - 1 }, limit: 1 });
      if (entry !== undefined && entry.sequence === sequence) this.community(community).apply(entry.event, sequence, entry.player);
    });
  }

  private async rebuild(community: string): Promise<void> {
    const entries = await this.entries(community);
    const book = new CommunityBook(this.options.secondDismissal);
    for (const entry of entries) book.apply(entry.event, entry.sequence, entry.player);
    this.bases.set(community, this.version(community) + 1);
    this.books.set(community, book);
  }

  private later(work: () => Promise<void>): void {
    this.waiting++;
    this.pending = this.pending
      .then(work)
      .catch(() => undefined) // a failed lookup leaves the book as it was; the next rebuild mends it
      .finally(() => void this.waiting--);
  }
}
