/**
 * POST /v1/moderation/bulk (scope `moderate`): one verdict or sanction for up to
 * MAX_BULK_PLAYERS players of one community, each recorded as its own moderator event — its own
 * id, `<bulk id>:<the first 32 hex digits of SHA-256 of the player id>`, its `bulk` the request's
 * id, the acting key's moderator name — so each is in the audit log, and the request sent again
 * records nothing twice: the players already recorded under it are answered with their stored
 * events. Every check runs before anything is stored, and the new events are stored in one
 * commit, all or none, whatever `maxBatchEvents` (so `standing serve` and a cluster's workers
 * answer alike); checks and store run among the other moderation writes, one at a time.
 * docs/service.md#bulk-actions.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BatchRejectedError, EventValidationError } from '../../errors.js';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { validateEvent } from '../../events/validate.js';
import { moderatorName } from '../../service/keys.js';
import type { ModerationEntry, StoredEvent } from '../../store/types.js';
import { verifiedKey } from '../auth.js';
import type { HttpContext } from '../context.js';
import { declared, register } from '../declared.js';
import { documented } from '../documented.js';
import { HttpProblem } from '../errors.js';
import type { OneAtATime } from '../one-at-a-time.js';
import { refuseSecondCommunity } from '../request-community.js';
import { BulkBody, BulkRecorded, MAX_BULK_PLAYERS, type BulkBody as BulkBodyType, type BulkRecorded as BulkRecordedType } from '../schemas/bulk.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { refuseIfClaimedByAnother } from './case-claims.js';
import { refuseModerator, requireSenior, SENIOR_SANCTIONS } from './moderation.js';

/** Refuses more than MAX_BULK_PLAYERS players, and a player named twice, by place, before the schema's terser words. */
async function refusePlayers(request: FastifyRequest): Promise<void> {
  const players = (request.body as { players?: unknown } | null | undefined)?.players;
  if (!Array.isArray(players)) return;
  if (players.length > MAX_BULK_PLAYERS) {
    throw new HttpProblem(400, 'REQUEST_INVALID', `body/players names ${players.length} players, over the limit of ${MAX_BULK_PLAYERS} per bulk request: send them in several requests, each with its own id`, MAX_BULK_PLAYERS);
  }
  const seen = new Map<unknown, number>();
  players.forEach((player, index) => {
    const first = seen.get(player);
    if (first !== undefined && typeof player === 'string') throw new HttpProblem(400, 'REQUEST_INVALID', `body/players/${index} repeats ${JSON.stringify(player)} (body/players/${first}): name each player once`);
    seen.set(player, index);
  });
}

export const BULK_ROUTES = {
  bulk: declared('POST', '/v1/moderation/bulk', {
    ...documented('moderate', {
      operationId: 'bulk',
      summary: 'Record one verdict or sanction for several players of a community, each as its own audited event',
      description: `At most ${MAX_BULK_PLAYERS} players, each named once. Each player's event has its own id, made from the request's \`id\` and the player, and carries \`bulk\` (the request's id): sent again, the request records nothing twice (the players already recorded are answered \`duplicate: true\` with their stored events; 200 when every one was). Everything is checked before anything is stored; the new events are stored all or none. The service sets \`time\`, \`moderator\` (the key's label, or its id) and \`moderatorKey\` (the key's id); a body naming either is refused. Suspending or banning needs \`senior\` (403), as one by one; 409 CASE_CLAIMED when another moderator claimed one of the players' cases (nothing is recorded). The community is the body's \`community\` (default \`default\`); a query string naming another is refused (400).`,
      tags: ['moderation'],
      body: refTo(BulkBody),
      response: { 201: answer(BulkRecorded, 'recorded (some players may be duplicates of an earlier sending)'), 200: answer(BulkRecorded, 'every player was already recorded under this id') },
      errors: { 400: ['REQUEST_INVALID', 'BODY_UNREADABLE'], 409: ['MODERATION_CONFLICT', 'CASE_CLAIMED'], 413: ['BODY_TOO_LARGE'], 415: ['BODY_UNREADABLE'], 503: ['STORE_BUSY'] },
    }),
    preValidation: [refuseModerator, refuseSecondCommunity, refusePlayers],
  }),
};

/** The event id of `player`'s event of bulk request `id`. */
export const bulkEventId = (id: string, player: string): string => `${id}:${createHash('sha256').update(player, 'utf8').digest('hex').slice(0, 32)}`;

type Result = BulkRecordedType['results'][number];

export function bulkRoutes(app: FastifyInstance, { live, store, moderation }: Pick<HttpContext, 'live' | 'store' | 'moderation'>, exclusive: OneAtATime): void {
  /** The stored moderator event of `community` about `player` with id `id`, if there is one. */
  async function storedAbout(community: string, player: string, id: string): Promise<ModerationEntry | undefined> {
    for (let after: ModerationEntry | undefined; ; ) {
      const page = await store.moderationEvents({ community, player, newestFirst: true, limit: 1000, ...(after === undefined ? {} : { after }) });
      const found = page.find((entry) => entry.event.id === id);
      if (found !== undefined || page.length < 1000) return found;
      after = page[page.length - 1];
    }
  }

  /** The fields every player's event shares; undefined fields left out. */
  function fieldsOf(body: BulkBodyType): Record<string, unknown> {
    const { type, outcome, action, until, reason } = body;
    if (type === 'verdict') {
      if (outcome === undefined) throw new HttpProblem(400, 'REQUEST_INVALID', 'body/outcome is required for a verdict: upheld or dismissed');
      if (action !== undefined) throw new HttpProblem(400, 'REQUEST_INVALID', 'body/action belongs to a sanction: a verdict takes outcome');
      if (until !== undefined) throw new HttpProblem(400, 'REQUEST_INVALID', 'body/until belongs to a sanction: a verdict does not end');
      return { type: 'verdict', on: 'player', outcome, reason };
    }
    if (action === undefined) throw new HttpProblem(400, 'REQUEST_INVALID', 'body/action is required for a sanction: warn, mute, suspend or ban');
    if (outcome !== undefined) throw new HttpProblem(400, 'REQUEST_INVALID', 'body/outcome belongs to a verdict: a sanction takes action');
    return { type: 'sanction', action, reason, ...(until === undefined ? {} : { until }) };
  }

  register<{ Body: BulkBodyType }>(app, BULK_ROUTES.bulk, async (request, reply) => {
    const { community = DEFAULT_COMMUNITY, id, players } = request.body;
    const fields = fieldsOf(request.body);
    const key = verifiedKey(request)!; // the route needs the moderate scope: a key was verified
    const moderator = moderatorName(key);
    const moderatorKey = key.id;
    if (fields.type === 'sanction' && SENIOR_SANCTIONS.has(String(fields.action))) requireSenior(request, fields.action === 'ban' ? 'a ban' : 'a suspension');
    const ids = players.map((player) => bulkEventId(id, player));
    const { status, ...body } = await exclusive(async () => {
      // A case another moderator claimed is theirs to act on (./case-claims.ts), in bulk as one by one.
      for (const player of players) await refuseIfClaimedByAnother(store, request, community, player);
      const known = await store.knownIds(community, ids);
      const results = new Map<string, Result>();
      for (const [i, player] of players.entries()) {
        if (!known.has(ids[i]!)) continue;
        const found = await storedAbout(community, player, ids[i]!);
        if (found === undefined) throw new HttpProblem(409, 'MODERATION_CONFLICT', `body/players/${i}: id "${ids[i]}" already names another event of community "${community}" than a moderator event about ${JSON.stringify(player)}`);
        results.set(player, { player, sequence: found.sequence, duplicate: true, event: found.event as unknown as Record<string, unknown> });
      }
      const time = Date.now();
      const fresh = players.flatMap((player, i) => (known.has(ids[i]!) ? [] : [{ ...fields, player, time, id: ids[i]!, community, moderator, moderatorKey, bulk: id }]));
      if (fresh.length > 0) {
        const before = live.sequence(community);
        let last = before;
        try {
          for (const raw of fresh) validateEvent(structuredClone(raw)); // what the store keeps: validation is deterministic
          // One commit, whatever maxBatchEvents: in parts of at most that many events.
          const parts: (typeof fresh)[] = [];
          for (let i = 0; i < fresh.length; i += live.maxBatchEvents) parts.push(fresh.slice(i, i + live.maxBatchEvents));
          for (const settled of await live.ingestGroup(parts)) {
            if (settled.status === 'rejected') throw settled.reason;
            last = Math.max(last, settled.value.sequences[community] ?? before);
          }
        } catch (error) {
          if (error instanceof EventValidationError) throw new HttpProblem(400, 'REQUEST_INVALID', `body/${error.field} ${error.reason}`);
          if (!(error instanceof BatchRejectedError)) throw error;
          const problem = error.problems[0]!;
          throw new HttpProblem(400, 'REQUEST_INVALID', `body/${problem.field} ${problem.reason}`);
        }
        await moderation.whenCurrent();
        // The request's events are among those stored since `before` (other writers' batches may share its commit).
        const stored = new Map<string, StoredEvent>((await store.read(community, before, Math.max(1, last - before))).map((s) => [s.event.id ?? '', s]));
        for (const raw of fresh) {
          const s = stored.get(raw.id);
          // Only an event stored under the same id between the check and the commit, by a write that is not a moderation action, makes this so.
          if (s === undefined || (s.event as { player?: unknown }).player !== raw.player) {
            throw new HttpProblem(409, 'MODERATION_CONFLICT', `id "${raw.id}" of ${JSON.stringify(raw.player)} was taken by another event while the request was recorded; the other players' events are stored: send the same request again to see them`);
          }
          results.set(raw.player, { player: raw.player, sequence: s.sequence, duplicate: false, event: s.event as unknown as Record<string, unknown> });
        }
      }
      return {
        status: fresh.length > 0 ? 201 : 200,
        community,
        id,
        recorded: fresh.length,
        duplicates: players.length - fresh.length,
        results: players.map((player) => results.get(player)!),
      };
    });
    reply.code(status);
    return body;
  });
}
