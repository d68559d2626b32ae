/**
 * The moderation endpoints (scope `moderate`): the bodies of the actions that record moderator
 * events, what they answer, the audit log and GET /v1/me. docs/service.md#moderation.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_MODERATOR_TEXT_LENGTH } from '../../events/limits.js';
import { FreeObject, Id, NO_NUL, refTo, StringEnum } from './common.js';

const Text = (description: string) => Type.String({ minLength: 1, maxLength: MAX_MODERATOR_TEXT_LENGTH, pattern: NO_NUL, description });
const Reason = Text('why, for the player and the other moderators (not blank)');

/** What every action's body may carry besides its own fields. */
const Common = {
  community: Type.Optional(Id('default "default"')),
  id: Type.Optional(Id('an idempotency key: an action sent again with the same id is answered 200 with the event stored the first time (default: a new random id)')),
};

export const PlayerVerdictBody = Type.Object(
  { ...Common, outcome: StringEnum(['upheld', 'dismissed'] as const, { description: 'upheld: the concern about the player is confirmed; dismissed: nothing to act on' }), reason: Reason },
  { $id: 'PlayerVerdictBody', additionalProperties: false },
);
export type PlayerVerdictBody = Static<typeof PlayerVerdictBody>;

export const ReportVerdictBody = Type.Object(
  {
    ...Common,
    report: Type.Optional(Id('the id of the report event judged')),
    from: Type.Optional(Id('with `to`: every report `from` filed about `to` so far')),
    to: Type.Optional(Id('the reported player, with `from`')),
    outcome: StringEnum(['upheld', 'dismissed'] as const, { description: 'upheld: the report was right; dismissed: it was not' }),
    reason: Reason,
  },
  { $id: 'ReportVerdictBody', additionalProperties: false, description: 'Either `report`, or `from` and `to`' },
);
export type ReportVerdictBody = Static<typeof ReportVerdictBody>;

export const NoteBody = Type.Object({ ...Common, text: Text('the note') }, { $id: 'NoteBody', additionalProperties: false });
export type NoteBody = Static<typeof NoteBody>;

export const SanctionBody = Type.Object(
  {
    ...Common,
    action: StringEnum(['warn', 'mute', 'suspend', 'ban', 'lift'] as const, { description: 'lift ends the sanction named by `sanction`, or every active sanction of the player' }),
    until: Type.Optional(Type.Union([Type.Number(), Type.String()], { description: 'when it ends: ISO-8601 with a zone, or epoch ms; required for suspend, optional for mute, refused otherwise' })),
    reason: Reason,
    sanction: Type.Optional(Id('lift only: the id of the sanction to end')),
  },
  { $id: 'SanctionBody', additionalProperties: false },
);
export type SanctionBody = Static<typeof SanctionBody>;

export const AppealBody = Type.Object(
  {
    ...Common,
    text: Type.Optional(Text("the player's words")),
    sanction: Type.Optional(Id('the id of the sanction appealed against')),
  },
  { $id: 'AppealBody', additionalProperties: false },
);
export type AppealBody = Static<typeof AppealBody>;

export const DecisionBody = Type.Object(
  { ...Common, outcome: StringEnum(['granted', 'denied'] as const, { description: 'granted lifts the sanction the appeal is against' }), reason: Reason },
  { $id: 'DecisionBody', additionalProperties: false },
);
export type DecisionBody = Static<typeof DecisionBody>;

export const AppealParams = Type.Object(
  { id: Id('the player id'), appeal: Id("the id of the appeal's opening event") },
  { $id: 'AppealParams', additionalProperties: false },
);

export const Recorded = Type.Object(
  {
    community: Type.String(),
    sequence: Type.Integer({ minimum: 1, description: "the event's sequence in its community" }),
    duplicate: Type.Boolean({ description: 'true when the id was already recorded: `event` is the one stored then' }),
    event: FreeObject('the moderator event as stored (docs/events.md#moderator-events), `time`, `moderator` and `moderatorKey` set by the service'),
    secondOpinion: Type.Optional(
      Type.Object(
        {
          rule: Type.String({ description: 'the rule that proposed the case, `rule:<name>`' }),
          dismissedBy: Type.Array(Type.String(), { description: 'the moderators who dismissed it so far' }),
        },
        { additionalProperties: false, description: 'fourEyes.ruleDismissals: this dismissal of a case a rule proposed waits for a second moderator\'s' },
      ),
    ),
  },
  { $id: 'Recorded', additionalProperties: false },
);
export type Recorded = Static<typeof Recorded>;

export const AUDIT_FORMATS = ['json', 'ndjson', 'csv'] as const;

export const AuditQuery = Type.Object(
  {
    community: Type.Optional(Id()),
    player: Type.Optional(Id('the player the event is about (a verdict on a report: the reported player)')),
    moderator: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: NO_NUL, description: "the moderator's name (the acting key's label)" })),
    action: Type.Optional(
      Type.String({ pattern: '^(verdict|note|sanction|appeal|rule)(\\.[a-z-]+)?$', description: 'verdict, note, sanction, appeal, rule, or finer: sanction.suspend, appeal.granted, verdict.upheld, rule.paused, …' }),
    ),
    since: Type.Optional(Type.String({ maxLength: 64, description: 'event time at or after: ISO-8601 with a zone, or epoch ms' })),
    until: Type.Optional(Type.String({ maxLength: 64, description: 'event time before: ISO-8601 with a zone, or epoch ms' })),
    after: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: "an entry's cursor (or `next`): the entries after it" })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'entries per page (JSON); NDJSON and CSV give every matching entry' })),
    order: Type.Optional(StringEnum(['newest', 'oldest'] as const, { default: 'newest', description: 'newest first (default) or oldest first' })),
    format: Type.Optional(StringEnum(AUDIT_FORMATS, { description: 'json (default, paged), ndjson or csv (every matching entry); also chosen by Accept' })),
  },
  { $id: 'AuditQuery', additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditEntry = Type.Object(
  {
    cursor: Type.String({ description: 'its place in the listing, for `after`' }),
    community: Type.String(),
    sequence: Type.Integer({ minimum: 1 }),
    time: Type.Number({ description: 'event time, epoch ms' }),
    moderator: Type.Optional(Type.String({ description: 'who made it: the label of the key it was made with (absent for an appeal the player opened)' })),
    moderatorKey: Type.Optional(Type.String({ description: 'the id of the key it was made with, which no other key has (absent for an appeal the player opened, and in events from a log file)' })),
    action: Type.String({ description: 'note, or the type and its detail: sanction.ban, appeal.opened, verdict.dismissed, …' }),
    player: Type.Optional(Type.String({ description: 'whom it is about' })),
    event: FreeObject('the moderator event as stored'),
  },
  { $id: 'AuditEntry', additionalProperties: false },
);
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditPage = Type.Object(
  {
    entries: Type.Array(refTo(AuditEntry)),
    next: Type.Optional(Type.String({ description: 'the cursor of the next page (`after`); absent on the last page' })),
  },
  { $id: 'AuditPage', additionalProperties: false },
);
export type AuditPage = Static<typeof AuditPage>;

export const AuditLines = Type.String({ $id: 'AuditLines', description: 'NDJSON: one AuditEntry per line, every matching entry' });
export const AuditCsv = Type.String({
  $id: 'AuditCsv',
  description: 'CSV (RFC 4180, CRLF): a header row (time, community, sequence, moderator, moderatorKey, action, player, id, reason, text, until, event), then one row per matching entry; a cell starting with =, +, -, @, tab or CR gets a leading apostrophe',
});

export const Me = Type.Object(
  {
    key: Type.Optional(Type.String({ description: "the key's id (absent for a read without a key)" })),
    label: Type.Optional(Type.String()),
    scopes: Type.Array(StringEnum(['ingest', 'read', 'moderate', 'senior', 'player-view', 'admin'] as const), {
      description: 'as granted (moderate includes read and player-view; senior includes moderate; admin allows everything)',
    }),
    communities: Type.Optional(Type.Array(Type.String(), { description: 'the only communities the key may reach (absent: every community)' })),
    moderator: Type.Optional(Type.String({ description: 'the name moderator events made with this key carry (keys with moderate, senior or admin)' })),
  },
  { $id: 'Me', additionalProperties: false },
);
export type Me = Static<typeof Me>;
