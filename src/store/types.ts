/**
 * The store behind the service, with two backends (./sqlite.ts, the embedded default, and
 * ./postgres.ts) and one conformance suite per port (standing/testing). `EventStore` is every port
 * at once: the append-only event log per community with a gapless sequence and idempotency by
 * event `id` (EventLog); checkpoints of every scorer's state per community (CheckpointStore); API
 * keys (KeyStore); the alerts the service raised (AlertStore); the moderator events as the audit
 * log lists them (ModerationIndex); erasure of a player (ErasureStore); and the schema version,
 * holds and closing (StoreLifecycle). Code that needs one concern takes its port.
 */
import type { ReportEvent, StandingEvent } from '../events/types.js';
import type { TextParts } from '../util/json-parts.js';

export interface StoredEvent {
  readonly community: string;
  /** 1, 2, 3, … within the community, in the order events were accepted. */
  readonly sequence: number;
  readonly event: StandingEvent;
}

/**
 * A stored event as a skimmed read gives it (EventLog.read with `whole`): the whole event, or, for an
 * event whose body the reader did not want, only its type and event time.
 */
export type SkimmedEvent = StoredEvent | { readonly community: string; readonly sequence: number; readonly type: string; readonly time: number };

/** Which events a skimming read gives whole: those of `types`, and every action naming a domain when `domainActions`. */
export interface WholeEvents {
  readonly types: readonly string[];
  readonly domainActions: boolean;
}

/** What the live engine's listeners hear after a group of batches is durable and applied (../service/live-engine.ts). */
export interface AppliedChange {
  /** Communities with new events, and the event time of the last one in each. */
  readonly communities: ReadonlyMap<string, { sequence: number; time: number }>;
  /** The events the group stored, in order (none after an erasure). */
  readonly events: readonly StoredEvent[];
  /** The change is an erasure: the communities' logs were rewritten, not appended to. */
  readonly erased?: boolean;
}

export interface AppendOutcome {
  /** The events stored by this call, with their sequences, in input order. */
  readonly appended: readonly StoredEvent[];
  /** Events ignored because their `id` was already accepted (or repeated in the batch). */
  readonly duplicates: number;
}

/** The states of one community, all taken after the same event. */
export interface CheckpointSet {
  /** The last sequence the states include. */
  readonly sequence: number;
  /**
   * Serialized state by name (a scorer instance, or the quality stage): one text, or a text in
   * parts when it is too long for one string. A store gives back the parts it was given (one
   * part as a string), whatever chunks it keeps them in.
   */
  readonly states: Readonly<Record<string, TextParts>>;
}

/**
 * `moderate` allows the moderation routes and everything `read` allows; `senior` (a senior
 * moderator) what `moderate` allows and suspending, banning, lifting those and deciding appeals;
 * `player-view` one player's own view, the outcomes of their reports, their own appeals and
 * player tokens (docs/service.md#scopes); `admin` allows everything.
 */
export type Scope = 'ingest' | 'read' | 'moderate' | 'senior' | 'player-view' | 'admin';

export interface StoredKey {
  /** The public part of the key, shown in lists and logs. */
  readonly id: string;
  /** SHA-256 of the secret part, hex. */
  readonly hash: string;
  readonly scopes: readonly Scope[];
  readonly label: string;
  readonly createdAt: string;
  readonly revokedAt?: string;
  /** The only communities the key may read or act in; absent: every community. */
  readonly communities?: readonly string[];
}

export interface NewAlert {
  readonly community: string;
  /** The scorer instance name (for example `cqr T=8,x=10,k=4`). */
  readonly scorer: string;
  readonly player: string;
  /** The threshold's name from the configuration. */
  readonly threshold: string;
  /** `raised` when the player crossed below the threshold, `cleared` when back above it. */
  readonly kind: 'raised' | 'cleared';
  readonly score: number;
  /** The community sequence the scores were evaluated at. */
  readonly sequence: number;
  /** Event time of that event, epoch milliseconds. */
  readonly time: number;
}

export interface StoredAlert extends NewAlert {
  /** Increasing over the whole store. */
  readonly id: number;
  readonly createdAt: string;
}

export interface AlertQuery {
  /** Only alerts with a larger id. */
  readonly after?: number;
  readonly limit?: number;
  readonly community?: string;
  readonly scorer?: string;
  readonly player?: string;
  /** Newest first (the last `limit` alerts) instead of oldest first. */
  readonly newestFirst?: boolean;
}

/** The stable key of a moderator event in the moderation listing: event time, community, sequence. */
export interface ModerationCursor {
  readonly time: number;
  readonly community: string;
  readonly sequence: number;
}

/** Which moderator events to read (ModerationIndex.moderationEvents); every filter is optional. */
export interface ModerationQuery {
  readonly community?: string;
  /** The player the event is about: its `player`, or the reported player of a verdict on a report (`to`, or the `to` of the report its `report` names). */
  readonly player?: string;
  /** The event's `moderator`. */
  readonly moderator?: string;
  /** A type (`verdict`, `note`, `sanction`, `appeal`) or a type and its detail: `sanction.suspend`, `appeal.granted`, `verdict.upheld`. */
  readonly action?: string;
  /** Event time at or after (epoch ms). */
  readonly since?: number;
  /** Event time before (epoch ms). */
  readonly until?: number;
  /** Only entries past this one in the listing's order. */
  readonly after?: ModerationCursor;
  /** At most this many (default 1,000, at most 10,000). */
  readonly limit?: number;
  /** Newest first (event time descending) instead of oldest first. */
  readonly newestFirst?: boolean;
}

/** A moderator event as the audit log lists it. */
export interface ModerationEntry {
  /** Its place in the listing, for `after`. */
  readonly cursor: string;
  readonly community: string;
  readonly sequence: number;
  readonly time: number;
  readonly moderator?: string;
  /** The id of the API key that recorded it (with `moderator`, its label): keys are told apart however they are labelled. */
  readonly moderatorKey?: string;
  /** `note`, or the type and its detail: `sanction.ban`, `appeal.opened`, `verdict.dismissed`. */
  readonly action: string;
  /** Whom it is about (undefined for a verdict naming a report the log no longer holds). */
  readonly player?: string;
  readonly event: StandingEvent;
}

export interface ErasureOutcome {
  /** Communities whose log changed (their checkpoints were dropped). */
  readonly communities: readonly string[];
  readonly removed: number;
  readonly rewritten: number;
}

/**
 * Who holds a store (StoreLifecycle.hold): `serve` (a `standing serve` service) and `worker` (a
 * cluster worker) hold it shared, for as long as they run, so any number of them can; `erase`
 * (`standing erase`) holds it alone, and only while no one else does.
 */
export type HoldRole = 'serve' | 'worker' | 'erase';

/** A hold on a store, until released (releasing twice is harmless). */
export interface StoreHold {
  release(): Promise<void>;
}

/**
 * What erasure does to one stored event: keep it (`undefined`), replace it, or remove it (`null`).
 * A verdict that names a report the erasure removes by `report` is passed again with that report
 * (`removedReport`): the verdict itself need not mention the erased player.
 */
export type EventRewrite = (event: StandingEvent, removedReport?: ReportEvent) => StandingEvent | null | undefined;

/** The append-only event log: per community, a gapless sequence and idempotency by event `id`. */
export interface EventLog {
  /** Stores a validated batch atomically: all of it (less duplicates) or, on error, none of it. */
  append(events: readonly StandingEvent[]): Promise<AppendOutcome>;
  /** Events of `community` with sequence > `after`, in order, at most `limit`. */
  read(community: string, after?: number, limit?: number): Promise<StoredEvent[]>;
  /**
   * The same, skimmed: only the events `whole` names come whole; of the others, the store may give
   * only the type and event time, neither fetching nor parsing the body (SQLite does; PostgreSQL,
   * which keeps pages of events, gives every event whole).
   */
  read(community: string, after: number, limit: number, whole: WholeEvents): Promise<SkimmedEvent[]>;
  /** Which of `ids` the log of `community` already holds (only events of type `type`, when given). */
  knownIds(community: string, ids: readonly string[], type?: string): Promise<Set<string>>;
  /** The last sequence of every community with events. */
  sequences(): Promise<Map<string, number>>;
  /** Communities with at least one event, by name. */
  communities(): Promise<string[]>;
  /**
   * The events of each community in `tails` with a sequence above the one it maps to, in one
   * read: community by community in the map's order, each in sequence order.
   */
  readTails(tails: ReadonlyMap<string, number>): Promise<StoredEvent[]>;
  /** The sequence and event time of the last stored event of every community with events, in one read. */
  lastEvents(): Promise<Map<string, { sequence: number; time: number }>>;
}

/** The checkpoint set of each community: every scorer's state, all taken after the same event. */
export interface CheckpointStore {
  /** Replaces the community's checkpoint set atomically. */
  saveCheckpoints(community: string, checkpoint: CheckpointSet): Promise<void>;
  /** Replaces the checkpoint sets of several communities, all in one transaction. */
  saveCheckpointSets(checkpoints: ReadonlyMap<string, CheckpointSet>): Promise<void>;
  loadCheckpoints(community: string): Promise<CheckpointSet | undefined>;
  /** The checkpoint sets of those of `communities` that have one, in one read. */
  loadCheckpointSets(communities: readonly string[]): Promise<Map<string, CheckpointSet>>;
}

/** API keys, by id. */
export interface KeyStore {
  /**
   * Stores a new key; throws when a key with its id exists, and KeyLabelError when a live (not
   * revoked) key has its label (compared trimmed; an empty label may repeat), checked in the
   * transaction that stores it.
   */
  saveKey(key: StoredKey): Promise<void>;
  findKey(id: string): Promise<StoredKey | undefined>;
  listKeys(): Promise<StoredKey[]>;
  /** Marks a key revoked; false when there is no such key. */
  revokeKey(id: string, at: string): Promise<boolean>;
  /**
   * A number that changes with every change to a stored key (a revocation) or its removal, made
   * in the same transaction, by whichever process makes it: read after such a change committed,
   * it differs from what was read before. Creating a key need not change it.
   */
  keyRevision(): Promise<number>;
}

/** The alerts the service raised, numbered in order over the whole store. */
export interface AlertStore {
  appendAlerts(alerts: readonly NewAlert[]): Promise<StoredAlert[]>;
  readAlerts(query?: AlertQuery): Promise<StoredAlert[]>;
  /** Deletes alerts created before `before` (ISO time) that are not open; returns how many. */
  pruneAlerts(before: string): Promise<number>;
  /** For each (community, scorer, player, threshold), its last alert when that one is `raised`. */
  openAlerts(): Promise<StoredAlert[]>;
}

/** The audit log: the moderator events of the event log, from indexes. */
export interface ModerationIndex {
  /**
   * The moderator events (`verdict`, `note`, `sanction`, `appeal`) matching `query`, in the order
   * of (event time, community, sequence), from indexes: the audit log.
   */
  moderationEvents(query?: ModerationQuery): Promise<ModerationEntry[]>;
}

/** Erasing a player from everything the store keeps, in one transaction. */
export interface ErasureStore {
  /**
   * Applies `rewrite` to every event that mentions `player` (its id as a JSON string in the
   * body), then to every verdict that names a report it removed by `report` (same community) and
   * that it left as it was, with that report; drops the checkpoints of the communities that
   * changed, the player's alerts and the claims on their cases, all in one transaction.
   */
  erase(player: string, rewrite: EventRewrite): Promise<ErasureOutcome>;
}

/** A moderator's claim on a player's case: theirs alone to act on until `until` (epoch ms, wall clock). */
export interface CaseClaim {
  readonly community: string;
  readonly player: string;
  /** The moderator's name (moderator events carry the same). */
  readonly moderator: string;
  readonly claimedAt: number;
  readonly until: number;
}

/** Claims on cases (docs/moderation.md#claims); a claim whose `until` is not after `now` counts as none. */
export interface ClaimStore {
  /**
   * Claims the case for `claim.moderator` until `claim.until`, atomically: taken when nobody holds
   * it at `claim.claimedAt` or that moderator does (then renewed, keeping its first `claimedAt`).
   * Returns the claim in force afterwards: the moderator's, or the other holder's, untouched.
   * Claims past their end are deleted on the way.
   */
  claimCase(claim: CaseClaim): Promise<CaseClaim>;
  /** The claim in force on the case at `now`, if any. */
  caseClaim(community: string, player: string, now: number): Promise<CaseClaim | undefined>;
  /** Deletes the claim in force at `now` when `moderator` holds it (any holder's when undefined); returns it, or undefined when none was deleted. */
  releaseCase(community: string, player: string, moderator: string | undefined, now: number): Promise<CaseClaim | undefined>;
}

/** Secrets made once and shared by every process on the store. */
export interface SecretStore {
  /** The secret named `name` (hex): made from `make()` and stored the first time, whichever process asks first; the stored one ever after. */
  secret(name: string, make: () => string): Promise<string>;
}

/** The reports a player filed, by reporter. */
export interface ReporterIndex {
  /** The report events `reporter` filed in `community`, newest first, at most `limit`, those with a sequence below `before` when given. */
  reportsBy(community: string, reporter: string, limit: number, before?: number): Promise<StoredEvent[]>;
}

/** The store as a whole: its backend, schema version, holds and closing. */
export interface StoreLifecycle {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Holds the store for `role`, or throws StoreHeldError naming who holds it: an `erase` hold while
   * any other hold is taken, or any hold while an `erase` hold is taken. A hold ends with its
   * release, or with the process that took it (a crash leaves nothing behind), and is independent
   * of the store's other connections: it may be released after `close`.
   */
  hold(role: HoldRole): Promise<StoreHold>;
  /** The schema version the store is migrated to. */
  schemaVersion(): Promise<number>;
  /** Releases the store; closing twice is harmless. */
  close(): Promise<void>;
}

/** The whole store: every port, over one database. */
export interface EventStore extends EventLog, CheckpointStore, KeyStore, AlertStore, ModerationIndex, ErasureStore, ClaimStore, SecretStore, ReporterIndex, StoreLifecycle {}
