/**
 * CONDA Dota 2 chat (../shared/data/conda-dota2-chat, Weld et al. 2021): each utterance becomes
 * a `chat` event from its player to the other players seen in the same match. The data has no
 * absolute time, so matches are laid out two hours apart in matchId order, starting 2021-01-01,
 * and an utterance's time is its match's slot plus 600 s plus `chatTime` (which may be negative,
 * down to −492 s, for pre-game chat). Within a match, events follow chatTime, then the row Id.
 *
 * A player is named by nickname (`playerId`): the only id that spans matches, though nicknames
 * can collide. The characters an id refuses (../events/id-characters.ts) are dropped from a
 * nickname (three hold them: a soft hyphen, a byte-order mark, and one made of nothing but ten
 * U+2062, which is left blank). A blank nickname (a dozen rows), or a spreadsheet error value that replaced one
 * (`#NAME?` and `#ERROR!` each stand for many players in ten matches), falls back to the
 * sender's seat in that match, `dota2-<matchId>-slot<playerSlot>`. The receivers are everyone else who chatted in the match; the data does not say
 * whether a line went to the team or to all. The utterance and its intent label (train/valid)
 * are kept as the extra fields `text` and `intent`.
 */
import { parse } from 'csv-parse';
import type { Readable } from 'node:stream';
import { EventValidationError, InputError } from '../errors.js';
import { withoutRefusedIdCharacters } from '../events/id-characters.js';
import type { ChatEvent } from '../events/types.js';

const BASE = Date.UTC(2021, 0, 1);
const MATCH_SPACING_MS = 2 * 3_600_000;
const PRE_GAME_MS = 600_000;

interface Utterance {
  readonly id: number;
  readonly match: number;
  readonly seconds: number;
  readonly player: string;
  readonly text: string;
  readonly intent: string | undefined;
}

/** Values a spreadsheet wrote in place of the nickname: not anyone's name. */
const SPREADSHEET_ERRORS: ReadonlySet<string> = new Set(['#NAME?', '#ERROR!', '#VALUE!', '#REF!', '#DIV/0!', '#N/A', '#NUM!', '#NULL!']);

const REQUIRED = ['Id', 'matchId', 'utterance', 'chatTime', 'playerSlot', 'playerId'] as const;

function integerCell(row: Record<string, string>, column: string, place: { source: string; line: number }): number {
  const value = Number(row[column]);
  if (row[column] === undefined || row[column]!.trim() === '' || !Number.isInteger(value)) {
    throw new EventValidationError(place, column, `must be an integer, got "${row[column] ?? ''}"`);
  }
  return value;
}

/** Reads every utterance (the receivers of one depend on the whole match), then yields events match by match. */
export async function* importConda(stream: Readable, source: string, community?: string): AsyncGenerator<ChatEvent[]> {
  const byMatch = new Map<number, Utterance[]>();
  const parser = stream.pipe(parse({ columns: true, skip_empty_lines: true, info: true }));
  let checked = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      const place = { source, line: info.lines };
      if (!checked) {
        const missing = REQUIRED.filter((column) => !(column in record));
        if (missing.length > 0) throw new EventValidationError(place, missing[0]!, 'is a missing column: not a CONDA CSV');
        checked = true;
      }
      const match = integerCell(record, 'matchId', place);
      const nickname = withoutRefusedIdCharacters(record.playerId ?? '').trim();
      const player = nickname !== '' && !SPREADSHEET_ERRORS.has(nickname) ? nickname : `dota2-${match}-slot${integerCell(record, 'playerSlot', place)}`;
      const utterance: Utterance = {
        id: integerCell(record, 'Id', place),
        match,
        seconds: integerCell(record, 'chatTime', place),
        player,
        text: record.utterance ?? '',
        intent: record.intentClass === undefined || record.intentClass === '' ? undefined : record.intentClass,
      };
      const list = byMatch.get(utterance.match);
      if (list === undefined) byMatch.set(utterance.match, [utterance]);
      else list.push(utterance);
    }
  } catch (error) {
    if (error instanceof EventValidationError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(source, code === 'ENOENT' ? 'no such file' : (error as Error).message);
  }
  for (const match of [...byMatch.keys()].sort((a, b) => a - b)) {
    const utterances = byMatch.get(match)!.sort((a, b) => a.seconds - b.seconds || a.id - b.id);
    const players = [...new Set(utterances.map((u) => u.player))];
    const events: ChatEvent[] = [];
    for (const u of utterances) {
      const to = players.filter((p) => p !== u.player);
      if (to.length === 0) continue; // nobody else chatted in this match: no receiver
      events.push({
        type: 'chat',
        id: `conda-${u.id}`,
        time: BASE + match * MATCH_SPACING_MS + PRE_GAME_MS + u.seconds * 1000,
        community: community ?? 'default',
        from: u.player,
        to,
        match: `dota2-${match}`,
        text: u.text,
        ...(u.intent === undefined ? {} : { intent: u.intent }),
      });
    }
    if (events.length > 0) yield events;
  }
}
