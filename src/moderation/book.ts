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
 * The book holds no free text (reasons, notes' and appeals' texts: up to 4,000 characters each,
 * and a game may open appeals): `record` reads them from the store for the one player asked for.
 * `version` counts the changes of a community's record, for the caches built on it.
 */
import type { AppealEvent, SanctionEvent, StandingEvent, VerdictEvent } from '../events/types.js';
import type { AppliedChange, EventLog, ModerationEntry, ModerationIndex, StoredEvent } from '../store/types.js';
import { SpillMap } from '../util/spill-map.js';

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
  /** The rules' proposals no handling came after, oldest first (absent: none). */
  proposals?: readonly OpenProposal[];
  /** When the last handling was a rule's sanction: the rule and the action (absent otherwise). */
  handledByRule?: { readonly rule: string; readonly action: string };
  /** Appeals of the player still open (the queue weighs at most one). */
  openAppeals: number;
  /** Active sanctions, by action. */
  activeSanctions: readonly string[];
}

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
      },
      event.moderator,
    );
    insertInOrder(log.verdicts, { sequence, view });
    if (event.on === 'player') handled(log, event.time, undefined);
  }

  private sanction(log: PlayerLog, event: SanctionEvent, id: string, sequence: number): void {
    if (event.action !== 'lift') {
      const kept = { time: event.time, action: event.action, ...(event.until === undefined ? {} : { until: event.until }), ...(event.moderator === undefined ? {} : { moderator: event.moderator }) };
      log.sanctions.push({ id, sequence, event: kept });
      const rule = event.moderator?.startsWith('rule:') === true ? event.moderator.slice('rule:'.length) : undefined;
      handled(log, event.time, rule === undefined ? undefined : { rule, action: event.action });
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

  private constructor(private readonly store: ModerationIndex) {}

  /** Reads every moderator event of the store into a new book; the clocks start at the later of each community's last event and its latest moderator event. */
  static async build(store: EventLog & ModerationIndex): Promise<ModerationBook> {
    const book = new ModerationBook(store);
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
    return {
      ...(log.handledAt === undefined ? {} : { handledAt: log.handledAt }),
      ...(log.handledByRule === undefined ? {} : { handledByRule: log.handledByRule }),
      ...(proposals.length === 0 ? {} : { proposals }),
      openAppeals,
      activeSanctions,
    };
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

  /** The sanction of `player` with event id `id`, as at `now` (without its reason); undefined when there is none. */
  sanction(community: string, player: string, id: string, now: number): SanctionView | undefined {
    const s = this.books.get(community)?.players.get(player)?.sanctions.find((x) => x.id === id);
    return s === undefined ? undefined : sanctionView(s, now);
  }

  /** The appeal of `player` whose opening event has id `id` (without its texts); undefined when there is none. */
  appeal(community: string, player: string, id: string): AppealView | undefined {
    const a = this.books.get(community)?.players.get(player)?.appeals.find((x) => x.id === id);
    return a === undefined ? undefined : appealView(a);
  }

  /** The id of the player's open appeal against `sanction` (against no sanction when undefined), if there is one. */
  openAppealOn(community: string, player: string, sanction: string | undefined): string | undefined {
    return this.books.get(community)?.players.get(player)?.appeals.find((a) => a.decided === undefined && a.event.sanction === sanction)?.id;
  }

  private community(name: string): CommunityBook {
    let book = this.books.get(name);
    if (book === undefined) this.books.set(name, (book = new CommunityBook()));
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
    const book = new CommunityBook();
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
