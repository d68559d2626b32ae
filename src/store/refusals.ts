/**
 * The cluster's refused messages (../cluster/partition-runner.ts): a part of a batch the owning
 * worker refused whole after the event log had stored it (a quality domain's conflict, a second
 * open appeal, a check the gateway is configured without). Each is recorded, fenced, in the same
 * transaction that records the partition's stream sequence past it, so no later owner applies it
 * and an operator can list every one (GET /v1/refusals on a gateway, migration 9). The events
 * themselves are not kept: their communities, count, problems and the players they name are.
 */
import type { BatchProblem } from '../errors.js';

/** A refused message, as recorded. */
export interface NewRefusal {
  /** The stream sequence of the refused message. */
  readonly streamSequence: number;
  /** The communities its events name, by name. */
  readonly communities: readonly string[];
  /** How many events it held. */
  readonly events: number;
  /** Why, each problem's index counted in the message's events. */
  readonly problems: readonly BatchProblem[];
  /** The players its events name (player, from, to, players, bots): an erasure of one forgets the refusal. */
  readonly players: readonly string[];
}

export interface StoredRefusal extends Omit<NewRefusal, 'players'> {
  /** Increasing with each refusal recorded. */
  readonly id: number;
  readonly stream: string;
  readonly partition: number;
  /** When the worker refused it (ISO 8601). */
  readonly refusedAt: string;
}

/** Migration 9 (PostgreSQL only: refusals happen in a cluster). */
export const REFUSALS_MIGRATION: readonly string[] = [
  `CREATE TABLE refusals (
     id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     stream TEXT COLLATE "C" NOT NULL,
     partition INTEGER NOT NULL,
     stream_sequence BIGINT NOT NULL,
     refused_at TEXT NOT NULL,
     communities TEXT[] NOT NULL,
     events INTEGER NOT NULL,
     problems TEXT NOT NULL,
     players TEXT[] NOT NULL)`,
];

export const INSERT_REFUSAL = `INSERT INTO refusals (stream, partition, stream_sequence, refused_at, communities, events, problems, players) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

export const LIST_REFUSALS = `SELECT id, stream, partition, stream_sequence, refused_at, communities, events, problems FROM refusals WHERE id > $1 ORDER BY id LIMIT $2`;

/** Refused events by problem code (each event counted once, under its first problem's code). */
export const REFUSED_BY_CODE = `SELECT code, sum(n)::bigint AS events FROM (
    SELECT (problems::jsonb -> 0 ->> 'code') AS code, events AS n FROM refusals
  ) r GROUP BY code ORDER BY code`;

/** An erasure forgets every refusal of the partition whose events named the player. */
export const FORGET_REFUSALS = `DELETE FROM refusals WHERE stream = $1 AND partition = $2 AND $3 = ANY(players)`;

const PLAYER_FIELDS = ['player', 'from', 'to', 'players', 'bots'] as const;

/** The players `events` name, as a refusal keeps them (the events may be invalid: any string found there counts). */
export function playersNamed(events: readonly unknown[]): string[] {
  const names = new Set<string>();
  for (const event of events) {
    if (typeof event !== 'object' || event === null) continue;
    for (const field of PLAYER_FIELDS) {
      const value = (event as Record<string, unknown>)[field];
      for (const name of Array.isArray(value) ? value : [value]) if (typeof name === 'string') names.add(name);
    }
  }
  return [...names].sort();
}

export interface RefusalRow {
  id: string;
  stream: string;
  partition: number;
  stream_sequence: string;
  refused_at: string;
  communities: string[];
  events: number;
  problems: string;
}

export function refusalFromRow(row: RefusalRow): StoredRefusal {
  return {
    id: Number(row.id),
    stream: row.stream,
    partition: row.partition,
    streamSequence: Number(row.stream_sequence),
    refusedAt: row.refused_at,
    communities: row.communities,
    events: row.events,
    problems: JSON.parse(row.problems) as BatchProblem[],
  };
}
