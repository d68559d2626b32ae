/**
 * The moderation actions (scope `moderate`): each records one moderator event through the live
 * engine, with `time` (now), `moderator` (the acting key's label) and `moderatorKey` (its id) set
 * here, never from the body.
 * An action whose `id` is already recorded is answered 200 with the stored event before any check
 * (a retry of a lift or a decision that took effect is not a conflict). Checks against the
 * moderation book (unknown report, sanction or appeal → 404, a decision on a decided appeal, a
 * lift of nothing active or a second open appeal on one sanction → 409) and the recording run one
 * action at a time, so two moderators cannot both decide one appeal. An action's community is the
 * one its body names (default "default"); a query string naming another is refused (400,
 * ../request-community.ts). docs/service.md#moderation.
 *
 * Roles and second opinions (docs/moderation.md#roles): suspending, banning, lifting a suspension
 * or a ban and deciding appeals need `senior`; with fourEyes.appeals an appeal is decided by
 * another moderator than the one who imposed its sanction, with fourEyes.ruleDismissals a case a
 * rule proposed is dismissed by two (409 FOUR_EYES); a case another moderator claimed is theirs
 * to act on (409 CASE_CLAIMED, ./case-claims.ts). A player appeals their own active sanction with
 * a player token or a `player-view` key (POST /v1/players/:id/standing/appeals): recorded as a
 * game's appeal opening is, without a moderator.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BatchRejectedError, EventValidationError } from '../../errors.js';
import { reservedId } from '../../events/batch.js';
import { DEFAULT_COMMUNITY, type StandingEvent } from '../../events/types.js';
import { validateEvent } from '../../events/validate.js';
import { secondAppeal } from '../../moderation/appeal-openings.js';
import { allows, moderatorName } from '../../service/keys.js';
import type { Scope } from '../../store/types.js';
import { verifiedKey } from '../auth.js';
import type { HttpContext } from '../context.js';
import { declared, register } from '../declared.js';
import { documented } from '../documented.js';
import { HttpProblem } from '../errors.js';
import type { OneAtATime } from '../one-at-a-time.js';
import { refuseSecondCommunity } from '../request-community.js';
import { refTo } from '../schemas/common.js';
import { answer, type ErrorTable } from '../schemas/errors.js';
import {
  AppealBody,
  AppealParams,
  DecisionBody,
  NoteBody,
  PlayerVerdictBody,
  Recorded,
  ReportVerdictBody,
  SanctionBody,
  type AppealBody as AppealBodyType,
  type DecisionBody as DecisionBodyType,
  type NoteBody as NoteBodyType,
  type PlayerVerdictBody as PlayerVerdictBodyType,
  type Recorded as RecordedType,
  type ReportVerdictBody as ReportVerdictBodyType,
  type SanctionBody as SanctionBodyType,
} from '../schemas/moderation.js';
import { PlayerParams } from '../schemas/players.js';
import { OwnAppealBody, type OwnAppealBody as OwnAppealBodyType } from '../schemas/access.js';
import { refuseIfClaimedByAnother } from './case-claims.js';

type Answer = RecordedType & { status: number };

/** What every action may answer; those that name a report, sanction or appeal also 404. */
const ERRORS: ErrorTable = { 400: ['REQUEST_INVALID', 'BODY_UNREADABLE'], 409: ['MODERATION_CONFLICT'], 413: ['BODY_TOO_LARGE'], 415: ['BODY_UNREADABLE'], 503: ['STORE_BUSY'] };
const NAMING: ErrorTable = { ...ERRORS, 404: ['NOT_FOUND'] };
/** What the actions a claim holds back (./case-claims.ts) may answer. */
const CLAIMED: ErrorTable = { ...NAMING, 409: ['MODERATION_CONFLICT', 'CASE_CLAIMED'] };

function action(operationId: string, summary: string, body: Parameters<typeof refTo>[0], description: string, errors: ErrorTable, params: Parameters<typeof refTo>[0] = PlayerParams, scope: Scope = 'moderate') {
  return documented(scope, {
    operationId,
    summary,
    description: `${description} The service sets \`time\` (now), \`moderator\` (the key's label, or its id when the label is empty) and \`moderatorKey\` (the key's id); a body naming either is refused. The community is the body's \`community\` (default \`default\`); a query string naming another is refused (400).`,
    tags: ['moderation'],
    params: refTo(params),
    body: refTo(body),
    response: { 201: answer(Recorded, 'recorded'), 200: answer(Recorded, 'already recorded under this id: the stored event') },
    errors,
  });
}

/** Refuses, 403 naming what needs it, an action the key's scopes do not reach to (`senior`: suspend, ban, lifting those). */
export function requireSenior(request: FastifyRequest, doing: string): void {
  const key = verifiedKey(request)!;
  if (!allows(key, 'senior')) throw new HttpProblem(403, 'FORBIDDEN', `key ${key.id} lacks scope "senior": ${doing} needs a senior moderator (it has ${key.scopes.join(', ')})`);
}

/** The sanctions only a senior moderator imposes or lifts. */
export const SENIOR_SANCTIONS: ReadonlySet<string> = new Set(['suspend', 'ban']);

/** A body naming the moderator or their key is refused by name (the schema would only say "additional properties"). */
export async function refuseModerator(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (typeof body !== 'object' || body === null) return;
  if (Object.hasOwn(body, 'moderator')) throw new HttpProblem(400, 'REQUEST_INVALID', "body/moderator is set by the service from the acting key's label; a request cannot name the moderator");
  if (Object.hasOwn(body, 'moderatorKey')) throw new HttpProblem(400, 'REQUEST_INVALID', "body/moderatorKey is set by the service: the acting key's id; a request cannot name it");
}

/** Where a field of a recorded event came from in the request: the path's ids, else the body. */
const PATH_FIELDS: Readonly<Record<string, string>> = { player: 'params/id', appeal: 'params/appeal' };
const requestField = (field: string): string => PATH_FIELDS[field] ?? `body/${field}`;

export const MODERATION_ROUTES = {
  playerVerdict: declared(
    'POST',
    '/v1/players/:id/verdicts',
    {
      ...action(
        'recordVerdict',
        'Record a verdict on a player',
        PlayerVerdictBody,
        "Upheld: the concern about the player is confirmed; dismissed: nothing to act on. With reports' accuracyPrior defence on, it judges every report about the player filed before it. With fourEyes.ruleDismissals, a case a rule proposed is dismissed once two moderators have dismissed it: the first dismissal is recorded and answered with `secondOpinion`, the same moderator's second is refused 409 FOUR_EYES. 409 CASE_CLAIMED when another moderator claimed the case.",
        { ...ERRORS, 409: ['MODERATION_CONFLICT', 'CASE_CLAIMED', 'FOUR_EYES'] },
      ),
      preValidation: [refuseModerator, refuseSecondCommunity],
    },
  ),
  reportVerdict: declared(
    'POST',
    '/v1/reports/verdicts',
    {
      ...documented('moderate', {
        operationId: 'recordReportVerdict',
        summary: 'Record a verdict on a report',
        description:
          "Names the report by `report` (its event id; 404 when the community holds no such id) or by `from` and `to` (every report `from` filed about `to` so far). The service sets `time`, `moderator` and `moderatorKey`; a body naming either of the last two is refused. The community is the body's `community` (default `default`); a query string naming another is refused (400).",
        tags: ['moderation'],
        body: refTo(ReportVerdictBody),
        response: { 201: answer(Recorded, 'recorded'), 200: answer(Recorded, 'already recorded under this id: the stored event') },
        errors: CLAIMED,
      }),
      preValidation: [refuseModerator, refuseSecondCommunity],
    },
  ),
  note: declared(
    'POST',
    '/v1/players/:id/notes',
    { ...action('addNote', 'Add a note on a player', NoteBody, 'A note for the other moderators; it changes no score.', ERRORS), preValidation: [refuseModerator, refuseSecondCommunity] },
  ),
  sanction: declared(
    'POST',
    '/v1/players/:id/sanctions',
    {
      ...action(
        'sanction',
        'Sanction a player (warn, mute, suspend, ban) or lift a sanction',
        SanctionBody,
        '`until` is required for suspend, optional for mute, refused otherwise. `lift` ends the sanction named by `sanction` (404 when the player has none with that id, 409 when it is no longer active), or every active sanction of the player (409 when none is). Suspending, banning and a lift that would end a suspension or a ban need `senior` (403). 409 CASE_CLAIMED when another moderator claimed the case.',
        CLAIMED,
      ),
      preValidation: [refuseModerator, refuseSecondCommunity],
    },
  ),
  appeal: declared(
    'POST',
    '/v1/players/:id/appeals',
    {
      ...action('openAppeal', "Open an appeal on the player's behalf", AppealBody, 'A game may also post `{type: "appeal", status: "opened"}` with an ingest key to POST /v1/events. 404 when `sanction` names no sanction of the player; 409 when the player already has an open appeal on that sanction (or, without `sanction`, one naming none).', NAMING),
      preValidation: [refuseModerator, refuseSecondCommunity],
    },
  ),
  decision: declared(
    'POST',
    '/v1/players/:id/appeals/:appeal/decision',
    {
      ...action(
        'decideAppeal',
        'Grant or deny an appeal',
        DecisionBody,
        'Granting an appeal against a sanction lifts it. 404 for an unknown appeal, 409 for one already decided. With fourEyes.appeals, the moderator who imposed the sanction cannot decide the appeal against it (409 FOUR_EYES). 409 CASE_CLAIMED when another moderator claimed the case.',
        { ...NAMING, 409: ['MODERATION_CONFLICT', 'CASE_CLAIMED', 'FOUR_EYES'] },
        AppealParams,
        'senior',
      ),
      preValidation: [refuseModerator, refuseSecondCommunity],
    },
  ),
  ownAppeal: declared('POST', '/v1/players/:id/standing/appeals', {
    ...documented('player-view', {
      operationId: 'appealOwnSanction',
      summary: 'The player appeals one of their own active sanctions',
      description:
        "With a player token bound to the player and the community, or a `player-view` key (a game server acting for the player). Recorded as a game's appeal opening is: `{type: \"appeal\", status: \"opened\"}`, with no moderator. 404 when `sanction` names no sanction of the player; 409 when it is no longer active, or already has an open appeal. The community is the body's `community` (default `default`).",
      tags: ['players'],
      params: refTo(PlayerParams),
      body: refTo(OwnAppealBody),
      response: { 201: answer(Recorded, 'the appeal is open'), 200: answer(Recorded, 'already recorded under this id: the stored event') },
      errors: NAMING,
    }),
    preValidation: [refuseModerator, refuseSecondCommunity],
  }),
};

/** What the actions record through and check against: the live engine, the store's moderator events, the moderation book. */
export type ModerationSources = Pick<HttpContext, 'live' | 'store' | 'moderation' | 'access'>;

/** How a moderator action outside this file (a rule's state, ./rules.ts) is checked, run and recorded as the actions here are. */
export interface ModerationActions {
  /** Runs one action alone: a retry by `id` is answered with the stored event, anything else by `work`. */
  run(reply: { code(status: number): unknown }, target: { community: string; id: string | undefined; player: string | undefined }, work: () => Promise<Answer>): Promise<RecordedType>;
  /** Records `fields` as a moderator event of `community` by the request's key. */
  record(request: FastifyRequest, community: string, id: string | undefined, fields: Record<string, unknown>, player: string | undefined): Promise<Answer>;
}

export function moderationRoutes(app: FastifyInstance, { live, store, moderation, access }: ModerationSources, exclusive: OneAtATime): ModerationActions {

  /**
   * Records `fields` as a moderator event of `community` by the request's key (`byPlayer`: an
   * appeal the player opened, with no moderator); 201, or 200 for a known id.
   */
  async function record(request: FastifyRequest, community: string, id: string | undefined, fields: Record<string, unknown>, player: string | undefined, byPlayer = false): Promise<Answer> {
    const key = byPlayer ? undefined : verifiedKey(request)!; // a moderator's route needs a key: one was verified
    const by = key === undefined ? {} : { moderator: moderatorName(key), moderatorKey: key.id };
    const raw = { ...fields, time: Date.now(), id: id ?? `mod-${randomUUID()}`, community, ...by };
    let event: StandingEvent;
    let outcome;
    try {
      event = validateEvent(structuredClone(raw)); // what the store keeps: validation is deterministic
      outcome = await live.ingest([raw]);
    } catch (error) {
      if (error instanceof EventValidationError) throw new HttpProblem(400, 'REQUEST_INVALID', `${requestField(error.field)} ${error.reason}`);
      if (!(error instanceof BatchRejectedError)) throw error;
      const problem = error.problems[0]!;
      throw new HttpProblem(400, 'REQUEST_INVALID', `${requestField(problem.field)} ${problem.reason}`);
    }
    await moderation.whenCurrent();
    if (outcome.accepted === 1) return { status: 201, community, sequence: outcome.sequences[community]!, duplicate: false, event };
    return stored(community, raw.id, player);
  }

  /** The moderator event of `community` with id `id` (about `player`), for a retried action. */
  async function stored(community: string, id: string, player: string | undefined): Promise<Answer> {
    for (let after: { time: number; community: string; sequence: number } | undefined; ; ) {
      const page = await store.moderationEvents({ community, ...(player === undefined ? {} : { player }), newestFirst: true, limit: 1000, ...(after === undefined ? {} : { after }) });
      const found = page.find((entry) => entry.event.id === id);
      if (found !== undefined) return { status: 200, community, sequence: found.sequence, duplicate: true, event: found.event };
      if (page.length < 1000) break;
      const last = page[page.length - 1]!;
      after = { time: last.time, community: last.community, sequence: last.sequence };
    }
    throw new HttpProblem(409, 'MODERATION_CONFLICT', `id "${id}" already names another event of community "${community}"`);
  }

  /** Whether `community` holds a `report` event with id `id`. */
  const isReport = async (community: string, id: string) => (await store.knownIds(community, [id], 'report')).size === 1;

  /** The stored event when `id` is already recorded in `community` (a retried action), else undefined. */
  async function retried(community: string, id: string | undefined, player: string | undefined): Promise<Answer | undefined> {
    if (id === undefined || (await store.knownIds(community, [id])).size === 0) return undefined;
    return stored(community, id, player);
  }

  /** Runs one action alone: a retry by `id` is answered with the stored event, anything else by `work` (its checks, then its commit). */
  const run = async (reply: { code(status: number): unknown }, target: { community: string; id: string | undefined; player: string | undefined }, work: () => Promise<Answer>) => {
    const reserved = reservedId(target.id);
    if (reserved !== undefined) throw new HttpProblem(400, 'REQUEST_INVALID', `body/id ${reserved}`);
    const { status, ...body } = await exclusive(async () => (await retried(target.community, target.id, target.player)) ?? work());
    reply.code(status);
    return body;
  };

  register<{ Params: { id: string }; Body: PlayerVerdictBodyType }>(app, MODERATION_ROUTES.playerVerdict, async (request, reply) => {
    const { community = DEFAULT_COMMUNITY, id, outcome, reason } = request.body;
    const player = request.params.id;
    return run(reply, { community, id, player }, async () => {
      await refuseIfClaimedByAnother(store, request, community, player);
      const me = moderatorName(verifiedKey(request)!);
      const proposal = outcome === 'dismissed' && access.fourEyes.ruleDismissals ? moderation.proposal(community, player) : undefined;
      if (proposal?.dismissedBy.includes(me) === true) {
        throw new HttpProblem(409, 'FOUR_EYES', `${JSON.stringify(me)} already dismissed the case ${proposal.rule} proposed on player ${JSON.stringify(player)}: a second moderator's dismissal closes it (fourEyes.ruleDismissals)`);
      }
      const answer = await record(request, community, id, { type: 'verdict', on: 'player', player, outcome, reason }, player);
      const waiting = outcome === 'dismissed' ? moderation.secondOpinion(community, player) : undefined;
      return waiting === undefined ? answer : { ...answer, secondOpinion: { rule: waiting.rule, dismissedBy: [...waiting.dismissedBy] } };
    });
  });

  register<{ Body: ReportVerdictBodyType }>(app, MODERATION_ROUTES.reportVerdict, async (request, reply) => {
    const { community = DEFAULT_COMMUNITY, id, report, from, to, outcome, reason } = request.body;
    return run(reply, { community, id, player: to }, async () => {
      if (to !== undefined) await refuseIfClaimedByAnother(store, request, community, to);
      if (report !== undefined && !(await isReport(community, report))) throw new HttpProblem(404, 'NOT_FOUND', `community "${community}" holds no report with id "${report}"`);
      const names = report !== undefined && from === undefined && to === undefined ? { report } : { ...(report === undefined ? {} : { report }), ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
      return record(request, community, id, { type: 'verdict', on: 'report', ...names, outcome, reason }, to);
    });
  });

  register<{ Params: { id: string }; Body: NoteBodyType }>(app, MODERATION_ROUTES.note, async (request, reply) => {
    const { community = DEFAULT_COMMUNITY, id, text } = request.body;
    const player = request.params.id;
    return run(reply, { community, id, player }, () => record(request, community, id, { type: 'note', player, text }, player));
  });

  register<{ Params: { id: string }; Body: SanctionBodyType }>(app, MODERATION_ROUTES.sanction, async (request, reply) => {
    const { community = DEFAULT_COMMUNITY, id, action: kind, until, reason, sanction } = request.body;
    const player = request.params.id;
    if (SENIOR_SANCTIONS.has(kind)) requireSenior(request, kind === 'ban' ? 'a ban' : 'a suspension');
    return run(reply, { community, id, player }, async () => {
      await refuseIfClaimedByAnother(store, request, community, player);
      if (kind === 'lift') {
        const now = Math.max(live.lastTime(community), Date.now());
        if (sanction !== undefined) {
          const found = moderation.sanction(community, player, sanction, now);
          if (found === undefined) throw new HttpProblem(404, 'NOT_FOUND', `player "${player}" has no sanction "${sanction}" in community "${community}"`);
          if (!found.active) throw new HttpProblem(409, 'MODERATION_CONFLICT', `sanction "${sanction}" of player "${player}" is no longer active (${found.endedBy?.kind ?? 'ended'})`);
          if (SENIOR_SANCTIONS.has(found.action)) requireSenior(request, `lifting a ${found.action}`);
        } else {
          const active = moderation.facts(community, player, now).activeSanctions;
          if (active.length === 0) throw new HttpProblem(409, 'MODERATION_CONFLICT', `player "${player}" has no active sanction in community "${community}" to lift`);
          const senior = active.find((action) => SENIOR_SANCTIONS.has(action));
          if (senior !== undefined) requireSenior(request, `lifting every active sanction, a ${senior} among them,`);
        }
      }
      const fields = { type: 'sanction', player, action: kind, reason, ...(until === undefined ? {} : { until }), ...(sanction === undefined ? {} : { sanction }) };
      return record(request, community, id, fields, player);
    });
  });

  register<{ Params: { id: string }; Body: AppealBodyType }>(app, MODERATION_ROUTES.appeal, async (request, reply) => {
    const { community = DEFAULT_COMMUNITY, id, text, sanction } = request.body;
    const player = request.params.id;
    return run(reply, { community, id, player }, async () => {
      if (sanction !== undefined && moderation.sanction(community, player, sanction, moderation.clock(community)) === undefined) {
        throw new HttpProblem(404, 'NOT_FOUND', `player "${player}" has no sanction "${sanction}" in community "${community}"`);
      }
      const second = secondAppeal(moderation, community, player, sanction, id);
      if (second !== undefined) throw new HttpProblem(409, 'MODERATION_CONFLICT', second);
      return record(request, community, id, { type: 'appeal', player, status: 'opened', ...(text === undefined ? {} : { text }), ...(sanction === undefined ? {} : { sanction }) }, player);
    });
  });

  register<{ Params: { id: string; appeal: string }; Body: DecisionBodyType }>(app, MODERATION_ROUTES.decision, async (request, reply) => {
    const { community = DEFAULT_COMMUNITY, id, outcome, reason } = request.body;
    const { id: player, appeal } = request.params;
    return run(reply, { community, id, player }, async () => {
      await refuseIfClaimedByAnother(store, request, community, player);
      const found = moderation.appeal(community, player, appeal);
      if (found === undefined) throw new HttpProblem(404, 'NOT_FOUND', `player "${player}" has no appeal "${appeal}" in community "${community}"`);
      if (found.status !== 'open') throw new HttpProblem(409, 'MODERATION_CONFLICT', `appeal "${appeal}" was already ${found.status}`);
      if (access.fourEyes.appeals && found.sanction !== undefined) {
        const me = moderatorName(verifiedKey(request)!);
        const imposed = moderation.sanction(community, player, found.sanction, moderation.clock(community));
        if (imposed?.moderator === me) {
          throw new HttpProblem(409, 'FOUR_EYES', `appeal "${appeal}" is against sanction "${found.sanction}", which ${JSON.stringify(me)} imposed: another moderator decides it (fourEyes.appeals)`);
        }
      }
      return record(request, community, id, { type: 'appeal', player, status: outcome, appeal, reason }, player);
    });
  });

  register<{ Params: { id: string }; Body: OwnAppealBodyType }>(app, MODERATION_ROUTES.ownAppeal, async (request, reply) => {
    const { community = DEFAULT_COMMUNITY, id, text, sanction } = request.body;
    const player = request.params.id;
    return run(reply, { community, id, player }, async () => {
      const found = moderation.sanction(community, player, sanction, Math.max(moderation.clock(community), live.lastTime(community)));
      if (found === undefined) throw new HttpProblem(404, 'NOT_FOUND', `player "${player}" has no sanction "${sanction}" in community "${community}"`);
      if (!found.active) throw new HttpProblem(409, 'MODERATION_CONFLICT', `sanction "${sanction}" of player "${player}" is no longer active (${found.endedBy?.kind ?? 'ended'}): there is nothing to appeal`);
      const second = secondAppeal(moderation, community, player, sanction, id);
      if (second !== undefined) throw new HttpProblem(409, 'MODERATION_CONFLICT', second);
      return record(request, community, id, { type: 'appeal', player, status: 'opened', sanction, ...(text === undefined ? {} : { text }) }, player, true);
    });
  });

  return { run, record: (request, community, id, fields, player) => record(request, community, id, fields, player) };
}
