/**
 * GET /v1/audit (scope `moderate`): the moderator events of the log, filtered and paged (JSON),
 * or every matching one streamed as NDJSON or CSV (an export); and GET /v1/me: what the calling
 * key may do. docs/service.md#audit-log.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseTime } from '../../events/time.js';
import { decodeCursor } from '../../store/moderation-rows.js';
import type { ModerationEntry, ModerationQuery } from '../../store/types.js';
import { allows, moderatorName } from '../../service/keys.js';
import { verifiedKey } from '../auth.js';
import type { HttpContext } from '../context.js';
import { documented } from '../documented.js';
import { HttpProblem } from '../errors.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { AuditCsv, AuditLines, AuditPage, AuditQuery, Me, type AuditQuery as AuditQueryType, type Me as MeType } from '../schemas/moderation.js';
import { csvHeader, csvRow } from './audit-csv.js';

/** Entries read from the store at a time while exporting. */
const EXPORT_PAGE = 1000;

/** `text` as event time (epoch ms, or ISO-8601 with a zone); a 400 naming `field` otherwise. */
function timeOf(text: string | undefined, field: string): number | undefined {
  if (text === undefined) return undefined;
  const time = parseTime(/^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text);
  if (typeof time === 'string') throw new HttpProblem(400, 'REQUEST_INVALID', `querystring/${field} ${time}`);
  return time;
}

function formatOf(request: FastifyRequest<{ Querystring: AuditQueryType }>): 'json' | 'ndjson' | 'csv' {
  if (request.query.format !== undefined) return request.query.format;
  const accept = request.headers.accept ?? '';
  if (accept.includes('application/x-ndjson')) return 'ndjson';
  if (accept.includes('text/csv')) return 'csv';
  return 'json';
}

function entryJson(entry: ModerationEntry): Record<string, unknown> {
  return { ...entry };
}

export function auditRoutes(app: FastifyInstance, { store }: Pick<HttpContext, 'store'>): void {
  app.get<{ Querystring: AuditQueryType }>(
    '/v1/audit',
    documented('moderate', {
      operationId: 'audit',
      summary: 'The audit log: who did what to whom and when (moderator events), filtered; paged JSON, or every matching entry as NDJSON or CSV',
      description:
        'Append-only as the event log is; erasing a player removes the entries about them. `format` (or Accept: application/x-ndjson, text/csv) chooses the form. CSV has a header row, RFC 4180 quoting, and a cell that starts with =, +, -, @, a tab or a carriage return gets a leading apostrophe so a spreadsheet shows it as text.',
      tags: ['moderation'],
      querystring: refTo(AuditQuery),
      response: {
        200: {
          description: 'the entries',
          content: {
            'application/json': { schema: refTo(AuditPage) },
            'application/x-ndjson': { schema: refTo(AuditLines) },
            'text/csv': { schema: refTo(AuditCsv) },
          },
        },
      },
      errors: { 400: ['REQUEST_INVALID'] },
    }, 'named'),
    async (request, reply) => {
      const q = request.query;
      const after = q.after === undefined ? undefined : decodeCursor(q.after);
      if (q.after !== undefined && after === undefined) throw new HttpProblem(400, 'REQUEST_INVALID', 'querystring/after is not a cursor this service gave (an entry\'s `cursor` or a page\'s `next`)');
      const since = timeOf(q.since, 'since');
      const until = timeOf(q.until, 'until');
      const query: ModerationQuery = {
        ...(q.community === undefined ? {} : { community: q.community }),
        ...(q.player === undefined ? {} : { player: q.player }),
        ...(q.moderator === undefined ? {} : { moderator: q.moderator }),
        ...(q.action === undefined ? {} : { action: q.action }),
        ...(since === undefined ? {} : { since }),
        ...(until === undefined ? {} : { until }),
        newestFirst: (q.order ?? 'newest') === 'newest',
      };
      const format = formatOf(request);
      if (format === 'json') {
        const limit = q.limit ?? 100;
        const page = await store.moderationEvents({ ...query, ...(after === undefined ? {} : { after }), limit: limit + 1 });
        const entries = page.slice(0, limit).map(entryJson);
        return page.length > limit ? { entries, next: page[limit - 1]!.cursor } : { entries };
      }
      async function* lines(): AsyncGenerator<string> {
        if (format === 'csv') yield csvHeader();
        for (let from = after; ; ) {
          const page = await store.moderationEvents({ ...query, ...(from === undefined ? {} : { after: from }), limit: EXPORT_PAGE });
          for (const entry of page) yield format === 'csv' ? csvRow(entry) : `${JSON.stringify(entry)}\n`;
          if (page.length < EXPORT_PAGE) return;
          const last = page[page.length - 1]!;
          from = { time: last.time, community: last.community, sequence: last.sequence };
        }
      }
      const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8';
      if (format === 'csv') reply.header('content-disposition', 'attachment; filename="audit.csv"');
      return reply.type(type).send(Readable.from(lines()));
    },
  );

  app.get(
    '/v1/me',
    {
      ...documented(undefined, {
        operationId: 'me',
        summary: 'What the calling key may do: its id, label, scopes and the communities it is restricted to',
        description: 'Any valid key (401 for none, or an unknown or revoked one; 403 for a player token); without a key when reads are public, the read scope.',
        tags: ['system'],
        response: { 200: answer(Me, 'the key') },
        errors: { 401: ['UNAUTHORIZED'], 403: ['FORBIDDEN'] },
      }),
      config: { anyKey: true, reach: 'none' },
    },
    async (request): Promise<MeType> => {
      const key = verifiedKey(request);
      if (key === undefined) return { scopes: ['read'] };
      const canModerate = allows(key, 'moderate');
      return {
        key: key.id,
        label: key.label,
        scopes: [...key.scopes],
        ...(key.communities === undefined ? {} : { communities: [...key.communities] }),
        ...(canModerate ? { moderator: moderatorName(key) } : {}),
      };
    },
  );
}
