/**
 * Exact JSON (./exact-json.ts) for a value whose text may be too long for one string (V8 caps a
 * string near 2^29 characters): the text comes in parts of at most `partChars` characters each,
 * and is read back part by part, never joined.
 *
 * One part is the value's exact JSON text, as stringifyExact writes it. Several parts are a
 * layout followed by the pieces it names: part 0 is {"standing-parts":1,"value":NODE}, where a
 * NODE is
 *   n                        the value is part n, exact JSON;
 *   {"array":[RUN…]}         an array: its items are those of each RUN in turn, a RUN being
 *                            {"items":n} (part n is an array of consecutive items) or {"item":NODE};
 *   {"object":[FIELDS…]}     an object: its fields are those of each FIELDS in turn,
 *                            {"fields":n} (part n is an object) or {"field":[key,NODE]};
 *   {"string":[first,last]}  a string: parts first to last are JSON strings, one after the other.
 * A value is cut only where its whole text would not fit in one part: small states stay one part.
 * The layout itself grows with the number of parts only (a few characters each) and is not cut.
 */
import { SnapshotError } from '../errors.js';
import { parseExact, stringifyExact } from './exact-json.js';

/** A serialized state: one text, or a text in parts (in order) when it is too long for one string. */
export type TextParts = string | readonly string[];

/** 16 Mi characters: far below any string or column limit, few parts for a large state. */
export const PART_CHARS = 1 << 24;

const LAYOUT = 'standing-parts';

type Node = number | { array: Run[] } | { object: Fields[] } | { string: [number, number] };
type Run = { items: number } | { item: Node };
type Fields = { fields: number } | { field: [string, Node] };

/** stringifyExact, or undefined when the text would be longer than a string can be. */
function textOf(value: unknown): string | undefined {
  try {
    return stringifyExact(value);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** The exact JSON of `value` in parts of at most `partChars` characters. */
export function stringifyExactParts(value: unknown, partChars: number = PART_CHARS): string[] {
  if (!(partChars >= 64)) throw new RangeError(`partChars must be at least 64 (a number's text is up to 24), not ${partChars}`);
  const whole = textOf(value);
  if (whole !== undefined && whole.length <= partChars) return [whole];
  const parts = [''];
  const add = (text: string): number => parts.push(text) - 1;

  /** `value`, whose text (when known) is longer than a part. */
  const node = (value: unknown, text: string | undefined): Node => {
    if (typeof value === 'string') return { string: stringPieces(value, partChars, add) };
    if (Array.isArray(value)) return { array: cuts(value.length, text, (first, end) => value.slice(first, end), (i): Run => ({ item: node(value[i], undefined) }), (n): Run => ({ items: n })) };
    if (typeof value === 'object' && value !== null) {
      const object = value as Record<string, unknown>;
      // The fields JSON writes: those whose value is not undefined, a function or a symbol.
      const keys = Object.keys(object).filter((key) => !['undefined', 'function', 'symbol'].includes(typeof object[key]));
      const group = (first: number, end: number) => {
        const fields: Record<string, unknown> = {};
        for (let k = first; k < end; k++) Object.defineProperty(fields, keys[k]!, { value: object[keys[k]!], enumerable: true, configurable: true, writable: true });
        return fields;
      };
      return { object: cuts(keys.length, text, group, (k): Fields => ({ field: [keys[k]!, node(object[keys[k]!], undefined)] }), (n): Fields => ({ fields: n })) };
    }
    throw new RangeError(`a ${typeof value} too long to write`); // numbers, booleans and null are short
  };
  /**
   * Items (or fields) 0…count in runs of consecutive ones that fit a part each, or one alone as a
   * node. A run whose text is too long is cut into as many runs as its length asks for (four when
   * even one string could not hold it), and those again if need be.
   */
  const cuts = <R>(count: number, text: string | undefined, slice: (first: number, end: number) => unknown, alone: (i: number) => R, run: (part: number) => R): R[] => {
    const out: R[] = [];
    const cut = (first: number, end: number, known: string | undefined): void => {
      const runs = known === undefined ? 4 : Math.ceil((known.length * 1.05) / partChars);
      const size = Math.ceil((end - first) / runs);
      for (let at = first; at < end; at += size) {
        const stop = Math.min(end, at + size);
        const runText = textOf(slice(at, stop));
        if (runText !== undefined && runText.length <= partChars) out.push(run(add(runText)));
        else if (stop - at === 1) out.push(alone(at));
        else cut(at, stop, runText);
      }
    };
    cut(0, count, text);
    return out;
  };

  parts[0] = JSON.stringify({ [LAYOUT]: 1, value: node(value, whole) });
  return parts;
}

/** A long string as consecutive JSON strings of at most `partChars` characters; [first, last] part. */
function stringPieces(value: string, partChars: number, add: (text: string) => number): [number, number] {
  let first = -1;
  let last = -1;
  let at = 0;
  let length = partChars - 2; // the quotes
  while (at < value.length) {
    let end = Math.min(value.length, at + length);
    // Never between the two halves of a surrogate pair.
    if (end < value.length && end > at + 1 && /[\uD800-\uDBFF]/.test(value[end - 1]!)) end--;
    const text = JSON.stringify(value.slice(at, end));
    if (text.length > partChars) {
      length = Math.max(1, Math.floor(length / 2)); // escapes made it longer: smaller pieces
      continue;
    }
    last = add(text);
    if (first < 0) first = last;
    at = end;
  }
  if (first < 0) first = last = add('""');
  return [first, last];
}

/** The value `stringifyExactParts` wrote (or `stringifyExact`, as one part). */
export function parseExactParts<T>(text: TextParts): T {
  const parts = typeof text === 'string' ? [text] : text;
  if (parts.length === 1) return parseExact<T>(parts[0]!);
  if (parts.length === 0) throw new SnapshotError('a text in parts has at least one part');
  const layout = JSON.parse(parts[0]!) as { [LAYOUT]?: unknown; value?: Node };
  if (layout[LAYOUT] !== 1) throw new SnapshotError(`a text in ${parts.length} parts whose first is not a layout this version reads`);
  const part = (n: unknown): string => {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n >= parts.length) throw new SnapshotError(`the layout names part ${JSON.stringify(n)} of ${parts.length}`);
    return parts[n]!;
  };
  const value = (node: Node): unknown => {
    if (typeof node === 'number') return parseExact(part(node));
    if ('array' in node) {
      const out: unknown[] = [];
      for (const run of node.array) {
        if ('items' in run) for (const item of parseExact<unknown[]>(part(run.items))) out.push(item);
        else out.push(value(run.item));
      }
      return out;
    }
    if ('object' in node) {
      const out: Record<string, unknown> = {};
      const set = (key: string, v: unknown) => Object.defineProperty(out, key, { value: v, enumerable: true, configurable: true, writable: true });
      for (const group of node.object) {
        if ('fields' in group) {
          const fields = parseExact<Record<string, unknown>>(part(group.fields));
          for (const key of Object.keys(fields)) set(key, fields[key]);
        } else set(group.field[0], value(group.field[1]));
      }
      return out;
    }
    if ('string' in node) {
      const [first, last] = node.string;
      const pieces: string[] = [];
      for (let n = first; n <= last; n++) pieces.push(JSON.parse(part(n)) as string);
      return pieces.join('');
    }
    throw new SnapshotError(`the layout holds a node this version does not read: ${JSON.stringify(node).slice(0, 80)}`);
  };
  return value(layout.value!) as T;
}
