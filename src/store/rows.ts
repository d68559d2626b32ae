/** Rows of the keys and alerts tables as the store interface returns them (both backends). */
import type { Scope, StoredAlert, StoredKey } from './types.js';

export interface KeyRow {
  id: string;
  hash: string;
  scopes: string;
  label: string;
  created_at: string;
  revoked_at: string | null;
}

export function keyFromRow(row: KeyRow): StoredKey {
  const key: StoredKey = { id: row.id, hash: row.hash, scopes: row.scopes.split(',') as Scope[], label: row.label, createdAt: row.created_at };
  return row.revoked_at === null ? key : { ...key, revokedAt: row.revoked_at };
}

export interface AlertRow {
  id: number | string;
  community: string;
  scorer: string;
  player: string;
  threshold: string;
  kind: string;
  score: number;
  sequence: number | string;
  time: number;
  created_at: string;
}

export function alertFromRow(row: AlertRow): StoredAlert {
  return {
    id: Number(row.id),
    community: row.community,
    scorer: row.scorer,
    player: row.player,
    threshold: row.threshold,
    kind: row.kind as StoredAlert['kind'],
    score: row.score,
    sequence: Number(row.sequence),
    time: row.time,
    createdAt: row.created_at,
  };
}

/** The alert columns in insert order, and an alert's values in that order. */
export const ALERT_COLUMNS = ['community', 'scorer', 'player', 'threshold', 'kind', 'score', 'sequence', 'time', 'created_at'] as const;
