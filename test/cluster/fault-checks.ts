/**
 * What the fault tier checks once ingest has ended, each check returning the problems it found
 * (empty when it holds), so a failure lists them all with the seed.
 *
 * - The stored log: each community's stored events are the acknowledged ones, each once; a batch's
 *   events keep their batch order; and a batch acknowledged before another was first sent comes
 *   first in every community both touch (the order the clients could observe).
 * - The reads: through every gateway, `/v1/communities` and every scorer's ranking of every
 *   community equal what a single-process replay of the stored log gives.
 */
import { type ServiceConfig, configuredInstances } from '../../src/service/config.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import type { SentBatch } from './fault-clients.js';
import { replayRankings } from './support.js';

/** How many problems of one kind a report quotes. */
const QUOTED = 8;

function quoted(kind: string, problems: readonly string[]): string[] {
  return problems.length <= QUOTED ? [...problems] : [...problems.slice(0, QUOTED), `… and ${problems.length - QUOTED} more ${kind}`];
}

export interface StoredLog {
  /** Each community's stored ids in sequence order. */
  readonly ids: Map<string, string[]>;
  /** Each community's last stored sequence. */
  readonly last: Map<string, number>;
}

/** Every community's stored log, from PostgreSQL. */
export async function readStoredLog(db: string): Promise<StoredLog> {
  const store = await openPostgresStore(db);
  try {
    const ids = new Map<string, string[]>();
    const last = new Map<string, number>();
    for (const community of await store.communities()) {
      const stored = await store.read(community);
      ids.set(community, stored.map((s) => s.event.id!));
      last.set(community, stored.at(-1)?.sequence ?? 0);
    }
    return { ids, last };
  } finally {
    await store.close();
  }
}

/** The problems of the stored log against the acknowledged batches. */
export function logProblems(log: StoredLog, batches: readonly SentBatch[]): string[] {
  const unacknowledged = batches.filter((b) => b.ackedAt === undefined);
  const problems = unacknowledged.map((b) => `client ${b.client} batch ${b.index} was never acknowledged`);
  const acknowledged = batches.filter((b) => b.ackedAt !== undefined);
  const duplicates: string[] = [];
  const missing: string[] = [];
  const unsent: string[] = [];
  const reordered: string[] = [];
  const sentIds = new Set(batches.flatMap((b) => b.events.map((e) => e.id as string)));
  for (const [community, ids] of log.ids) {
    const position = new Map<string, number>();
    for (const [i, id] of ids.entries()) {
      if (position.has(id)) duplicates.push(`${id} stored twice in ${community} (sequences ${position.get(id)! + 1} and ${i + 1})`);
      else position.set(id, i);
      if (!sentIds.has(id)) unsent.push(`${id} stored in ${community} but never sent`);
    }
  }
  // Each acknowledged batch's span in each community it touches, its own order checked on the way.
  const spans = new Map<SentBatch, Map<string, { first: number; last: number }>>();
  for (const b of acknowledged) {
    const span = new Map<string, { first: number; last: number }>();
    for (const e of b.events) {
      const community = e.community as string;
      const at = log.ids.get(community)?.indexOf(e.id as string) ?? -1;
      if (at < 0) {
        missing.push(`${e.id as string} (client ${b.client} batch ${b.index}, acknowledged) is not stored in ${community}`);
        continue;
      }
      const s = span.get(community);
      if (s === undefined) span.set(community, { first: at, last: at });
      else if (at < s.last) reordered.push(`${e.id as string} stored before an earlier event of its batch in ${community}`);
      else s.last = at;
    }
    spans.set(b, span);
  }
  for (const a of acknowledged) {
    for (const b of acknowledged) {
      if (a.ackedAt! >= b.sentAt) continue;
      for (const [community, first] of spans.get(a)!) {
        const second = spans.get(b)!.get(community);
        if (second !== undefined && first.last >= second.first) {
          reordered.push(`client ${a.client} batch ${a.index} was acknowledged before client ${b.client} batch ${b.index} was sent, but ${community} stores one of the latter's events (sequence ${second.first + 1}) before one of the former's (${first.last + 1})`);
        }
      }
    }
  }
  return [...problems, ...quoted('duplicates', duplicates), ...quoted('missing', missing), ...quoted('never sent', unsent), ...quoted('out of order', reordered)];
}

/** Expected answers of the single-process replay: each community's rankings per scorer instance. */
export async function replayedRankings(config: ServiceConfig, communities: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  const replays = new Map<string, Record<string, unknown>>();
  for (const community of communities) replays.set(community, JSON.parse(JSON.stringify(await replayRankings(config, community))) as Record<string, unknown>);
  return replays;
}

async function getJson(url: string, key: string, path: string): Promise<{ status: number; body: unknown }> {
  try {
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(15_000) });
    return { status: response.status, body: await response.json() };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The reads through `gateways` that differ from the replay of `log` (`replays`: replayedRankings of it). */
export async function readProblems(gateways: readonly string[], key: string, config: ServiceConfig, log: StoredLog, replays: ReadonlyMap<string, Record<string, unknown>>): Promise<string[]> {
  const problems: string[] = [];
  const communities = [...log.last.keys()].sort();
  const expectedList = { communities: communities.map((community) => ({ community, sequence: log.last.get(community)! })) };
  for (const url of gateways) {
    const list = await getJson(url, key, '/v1/communities');
    if (list.status !== 200 || !same(list.body, expectedList)) problems.push(`${url}/v1/communities answered ${list.status} ${JSON.stringify(list.body)}; the replay has ${JSON.stringify(expectedList)}`);
    for (const community of communities) {
      for (const { name } of configuredInstances(config)) {
        const path = `/v1/rankings/${name}?community=${community}&limit=1000`;
        const read = await getJson(url, key, path);
        const body = read.body as { sequence?: number; total?: number; rows?: unknown[] };
        const rows = replays.get(community)![name] as unknown[];
        if (read.status !== 200 || body.sequence !== log.last.get(community) || body.total !== rows.length || !same(body.rows, rows)) {
          problems.push(`${url}${path} answered ${read.status} at sequence ${String(body.sequence)} (the log's last: ${log.last.get(community)}) ${read.status === 200 ? (same(body.rows, rows) ? 'with the replay’s rows' : `with rows ${JSON.stringify(body.rows)}; the replay’s: ${JSON.stringify(rows)}`) : JSON.stringify(read.body)}`);
        }
      }
    }
  }
  return quoted('reads differing from the replay', problems);
}
