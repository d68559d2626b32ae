/**
 * Checkpoints as rows (both backends): a set's sequence in checkpoint_sets, and each state's text
 * in checkpoint_chunks, part by part, each part cut into chunks of at most `chunkChars`
 * characters. Reading joins the chunks of a part (a part was one string when saved), never the
 * parts of a state.
 */
import { PART_CHARS, type TextParts } from '../util/json-parts.js';
import type { CheckpointSet } from './types.js';

/**
 * 16 Mi characters (at most 64 MB of UTF-8): far below SQLite's and PostgreSQL's value limits. The
 * size of a snapshot's parts (PART_CHARS), so a part is never cut again into chunks.
 */
export const CHECKPOINT_CHUNK_CHARS = PART_CHARS;

export interface ChunkRow {
  readonly community: string;
  readonly name: string;
  readonly part: number;
  readonly chunk: number;
  readonly text: string;
}

export interface StoredChunkRow extends ChunkRow {
  readonly sequence: number | string;
}

/** The columns of a chunk row in insert order. */
export const CHUNK_COLUMNS = ['community', 'name', 'part', 'chunk', 'text'] as const;

/**
 * Reads chunk rows with their set's sequence, in the order checkpointSets needs; `where` picks the
 * communities of checkpoint_sets `s` (and, for PostgreSQL's planner, of checkpoint_chunks `c` too).
 */
export const chunksSql = (where: string): string =>
  `SELECT s.community, s.sequence, c.name, c.part, c.chunk, c.text FROM checkpoint_sets s JOIN checkpoint_chunks c ON c.community = s.community
   WHERE ${where} ORDER BY s.community, c.name, c.part, c.chunk`;

/** `text` cut into pieces of at most `size` characters, never between the halves of a surrogate pair. */
export function chunksOf(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + size);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && end - at > 1 && code >= 0xd800 && code <= 0xdbff) end--;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/** The rows that store `checkpoints`, state by state, part by part, chunk by chunk. */
export function* chunkRows(checkpoints: ReadonlyMap<string, CheckpointSet>, chunkChars: number): Generator<ChunkRow> {
  for (const [community, checkpoint] of checkpoints) {
    for (const [name, state] of Object.entries(checkpoint.states)) {
      const parts = typeof state === 'string' ? [state] : state;
      for (let part = 0; part < parts.length; part++) {
        const chunks = chunksOf(parts[part]!, chunkChars);
        for (let chunk = 0; chunk < chunks.length; chunk++) yield { community, name, part, chunk, text: chunks[chunk]! };
      }
    }
  }
}

/** Chunk rows (ordered as chunksSql orders them) gathered into one set per community. */
export function checkpointSets(rows: Iterable<StoredChunkRow>): Map<string, CheckpointSet> {
  /** Per community: its sequence, and per state name each part's chunks. */
  const gathered = new Map<string, { sequence: number; states: Map<string, string[][]> }>();
  for (const row of rows) {
    let set = gathered.get(row.community);
    if (set === undefined) gathered.set(row.community, (set = { sequence: Number(row.sequence), states: new Map() }));
    let parts = set.states.get(row.name);
    if (parts === undefined) set.states.set(row.name, (parts = []));
    (parts[row.part] ??= []).push(row.text);
  }
  const sets = new Map<string, CheckpointSet>();
  for (const [community, { sequence, states }] of gathered) {
    const texts: [string, TextParts][] = [...states].map(([name, parts]) => {
      const joined = parts.map((chunks) => (chunks.length === 1 ? chunks[0]! : chunks.join('')));
      return [name, joined.length === 1 ? joined[0]! : joined];
    });
    sets.set(community, { sequence, states: Object.fromEntries(texts) });
  }
  return sets;
}
