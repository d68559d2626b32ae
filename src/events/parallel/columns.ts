/**
 * Validated events in columns, so a parse thread can hand them to the main thread for the price
 * of a few typed arrays and one string, where cloning event objects costs more than parsing
 * them did. An event whose values are all strings, numbers or arrays of strings is written as
 * its shape (its keys in order and each value's kind) plus its values: numbers into a
 * Float64Array (−0 kept), strings into one concatenated string and a length table. Any other
 * event (an object payload, a boolean, a null) travels as itself, structured-cloned. Decoding
 * rebuilds objects equal to the originals, key order included. Beside them, per event, the hash
 * of its community and id (../../util/id-hash.ts, pairHash), so the main thread's check for
 * repeated ids does not hash them again.
 */
import { idHash, pairHash } from '../../util/id-hash.js';
import { withLength } from '../../util/typed-arrays.js';

/** Value kinds in a shape: a string, a number, or an array of strings; letters for the main thread. */
const STRING = 1;
const NUMBER = 2;
const STRINGS = 3;
const KIND_LETTERS = ['', 's', 'n', 'a'] as const;
/** Events with more keys than this travel in `others`. */
const MAX_SHAPE_KEYS = 15;
/** Shapes per batch; events of further shapes travel in `others`. */
const MAX_SHAPES = 32;
/** Shapes a decoder keeps compiled before it starts over. */
const MAX_DECODED_SHAPES = 1024;
/** Shapes an encoder tries before working out an event's shape from its keys. */
const RECENT_SHAPES = 4;
/** Entries of the encoder's cache of recent strings (a power of two). */
const RECENT_STRINGS = 1 << 12;
/** The place of an array's items in `lastAt`, after every key's. */
const ITEMS_PLACE = MAX_SHAPE_KEYS + 1;
/** The place of a value that is not looked up: an event's id (they are nearly all distinct). */
const UNIQUE = -1;

/** The first line of a chunk that did not parse: its 0-based index in the chunk, and its text. */
export interface ChunkFailure {
  readonly line: number;
  readonly text: string;
}

/** Returned by a parse thread for one chunk of whole lines. */
export interface EncodedBatch {
  /** Lines in the chunk, blank ones included. */
  readonly lines: number;
  /** Per event: its 0-based line index in the chunk. */
  readonly eventLines: Int32Array;
  /** Per event: its shape's index in `shapes`, or -1 when it is in `others`. */
  readonly shapeOf: Int32Array;
  /** Per event: pairHash(community, id) when it has an id (a string), else 0. */
  readonly idHashes: Int32Array;
  /** Shapes used by this batch, as `kinds` + NUL + JSON array of keys. */
  readonly shapes: readonly string[];
  /** String values as indices into the string table; an array value is its length, then its items. */
  readonly refs: Int32Array;
  readonly numbers: Float64Array;
  /** The string table: `text` cut at `lengths`. */
  readonly text: string;
  readonly lengths: Int32Array;
  /** Events that have no shape, in order. */
  readonly others: readonly object[];
  /** The first line that failed to parse or validate, as its index and text; the batch stops before it. */
  readonly failure: ChunkFailure | undefined;
}

/** The typed arrays of a batch, to transfer rather than copy. */
export function transferables(batch: EncodedBatch): ArrayBuffer[] {
  return [batch.eventLines, batch.shapeOf, batch.idHashes, batch.refs, batch.numbers, batch.lengths].map((a) => a.buffer as ArrayBuffer);
}

/** Growable typed-array column. */
class Column<A extends Int32Array | Float64Array> {
  length = 0;
  constructor(public data: A) {}

  push(value: number): void {
    if (this.length === this.data.length) this.data = withLength(this.data, 2 * this.data.length);
    this.data[this.length++] = value;
  }

  done(): A {
    return this.data.slice(0, this.length) as A;
  }
}

/** Builds one batch on the parse thread. */
export class BatchEncoder {
  private readonly eventLines = new Column(new Int32Array(1024));
  private readonly shapeOf = new Column(new Int32Array(1024));
  private readonly idHashes = new Column(new Int32Array(1024));
  private readonly refs = new Column(new Int32Array(4096));
  private readonly numbers = new Column(new Float64Array(2048));
  private readonly lengths = new Column(new Int32Array(4096));
  private readonly strings: string[] = [];
  /** By the low bits of a string's idHash: the table index of the last string seen with them (-1: none). */
  private readonly recent = new Int32Array(RECENT_STRINGS).fill(-1);
  /** By a value's place in its event (array items last): the table index of the last string there (-1: none). */
  private readonly lastAt = new Int32Array(ITEMS_PLACE + 1).fill(-1);
  private readonly shapes: string[] = [];
  private readonly shapeKeys: (readonly string[])[] = [];
  private readonly shapeCodes: number[] = [];
  private readonly others: object[] = [];

  /**
   * The shapes of the latest events, most recent first (at most RECENT_SHAPES): a log's events
   * take turns among a few shapes (a match's start and end), and one found here costs no array
   * of keys.
   */
  private readonly recentShapes: number[] = [];

  /** Adds a validated event found on line `line` (0-based in the chunk). */
  add(event: Readonly<Record<string, unknown>>, line: number): void {
    this.eventLines.push(line);
    const id = event.id;
    this.idHashes.push(typeof id === 'string' ? pairHash(event.community as string, id) : 0);
    const recent = this.recentShapes;
    for (let i = 0; i < recent.length; i++) {
      const shape = recent[i]!;
      if (!this.hasShape(event, shape)) continue;
      for (let j = i; j > 0; j--) recent[j] = recent[j - 1]!;
      recent[0] = shape;
      this.shapeOf.push(shape);
      this.addValues(event, this.shapeCodes[shape]!);
      return;
    }
    const keys = Object.keys(event);
    // Two bits per key (STRING, NUMBER, STRINGS), so a shape compares as one integer and its keys.
    let code = 0;
    for (let k = 0; k < keys.length && code >= 0; k++) {
      const kind = keys[k] === '__proto__' ? 0 : kindOf(event[keys[k]!]);
      code = kind === 0 || k === MAX_SHAPE_KEYS ? -1 : code | (kind << (2 * k));
    }
    const shape = code < 0 ? -1 : this.shapeFor(code, keys);
    if (shape < 0) {
      this.shapeOf.push(-1);
      this.others.push(event);
      return;
    }
    this.shapeOf.push(shape);
    if (recent.length < RECENT_SHAPES) recent.push(shape);
    for (let j = recent.length - 1; j > 0; j--) recent[j] = recent[j - 1]!;
    recent[0] = shape;
    for (let k = 0; k < keys.length; k++) this.addValue(event[keys[k]!], (code >>> (2 * k)) & 3, keys[k] === 'id' ? UNIQUE : k);
  }

  /**
   * Whether `event` has shape `shape`: the same keys in order, each value of the same kind.
   * Walked with for-in, which V8 serves from the object's enum cache, so a log of a few shapes
   * costs no array of keys per event. (A `__proto__` key is never in a shape, so it never matches.)
   */
  private hasShape(event: Readonly<Record<string, unknown>>, shape: number): boolean {
    const keys = this.shapeKeys[shape]!;
    const code = this.shapeCodes[shape]!;
    let k = 0;
    for (const key in event) {
      if (k === keys.length || key !== keys[k] || kindOf(event[key]) !== ((code >>> (2 * k)) & 3)) return false;
      k++;
    }
    return k === keys.length;
  }

  /** The values of an event of a known shape (hasShape said so), in key order, into the columns. */
  private addValues(event: Readonly<Record<string, unknown>>, code: number): void {
    let k = 0;
    for (const key in event) {
      this.addValue(event[key], (code >>> (2 * k)) & 3, key === 'id' ? UNIQUE : k);
      k++;
    }
  }

  /** One value of kind `kind`, the event's `place`-th (UNIQUE: its id). */
  private addValue(value: unknown, kind: number, place: number): void {
    if (kind === NUMBER) this.numbers.push(value as number);
    else if (kind === STRING) this.refs.push(this.stringRef(value as string, place));
    else {
      const items = value as readonly string[];
      this.refs.push(items.length);
      for (let i = 0; i < items.length; i++) this.refs.push(this.stringRef(items[i]!, ITEMS_PLACE));
    }
  }

  finish(lines: number, failure: EncodedBatch['failure']): EncodedBatch {
    return {
      lines,
      eventLines: this.eventLines.done(),
      shapeOf: this.shapeOf.done(),
      idHashes: this.idHashes.done(),
      shapes: this.shapes,
      refs: this.refs.done(),
      numbers: this.numbers.done(),
      text: this.strings.join(''),
      lengths: this.lengths.done(),
      others: this.others,
      failure,
    };
  }

  /**
   * The index of the shape (code, keys), or -1 past MAX_SHAPES: a log usually has a few shapes,
   * so a scan finds one at once, and a log whose keys vary line by line sends its events whole.
   */
  private shapeFor(code: number, keys: readonly string[]): number {
    const known = this.shapeKeys;
    search: for (let s = 0; s < known.length; s++) {
      const candidate = known[s]!;
      if (this.shapeCodes[s] !== code || candidate.length !== keys.length) continue;
      for (let k = 0; k < keys.length; k++) if (candidate[k] !== keys[k]) continue search;
      return s;
    }
    if (known.length === MAX_SHAPES) return -1;
    this.shapeKeys.push(keys);
    this.shapeCodes.push(code);
    let kinds = '';
    for (let k = 0; k < keys.length; k++) kinds += KIND_LETTERS[(code >>> (2 * k)) & 3];
    return this.shapes.push(`${kinds}\u0000${JSON.stringify(keys)}`) - 1;
  }

  /**
   * The table index of `value`, the event's `place`-th value. A string sent already is sent once
   * more only when neither the last string at the same place in an event (a type, a community)
   * nor the cache of recent strings (a player in a session) holds it. Event ids are nearly all
   * distinct, so they are not looked up (UNIQUE).
   */
  private stringRef(value: string, place: number): number {
    if (place === UNIQUE) return this.push(value);
    const last = this.lastAt[place]!;
    if (last >= 0 && this.strings[last] === value) return last;
    const slot = idHash(value) & (RECENT_STRINGS - 1);
    const known = this.recent[slot]!;
    const index = known >= 0 && this.strings[known] === value ? known : this.push(value);
    this.recent[slot] = index;
    this.lastAt[place] = index;
    return index;
  }

  /** Adds `value` to the string table; its index. */
  private push(value: string): number {
    this.lengths.push(value.length);
    return this.strings.push(value) - 1;
  }
}

/** A value's kind: STRING, NUMBER, STRINGS, or 0 when it has no column. */
function kindOf(value: unknown): number {
  if (typeof value === 'string') return STRING;
  if (typeof value === 'number') return NUMBER;
  if (!Array.isArray(value)) return 0;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return 0;
  return STRINGS;
}

/** Builds an object with a shape's keys, in order, from an array of its values. */
type Factory = (values: readonly unknown[]) => Record<string, unknown>;

interface DecodedShape {
  readonly kinds: string;
  readonly build: Factory;
}

/**
 * One object literal per shape: every event of a shape then shares one hidden class, as the
 * parsed ones did. Keys are written as JSON string literals (`__proto__` never reaches here).
 */
function factoryFor(keys: readonly string[]): Factory {
  const body = keys.map((key, i) => `${JSON.stringify(key)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${body} };`) as Factory;
}

/** Rebuilds batches on the main thread; shapes are compiled once per reader. */
export class BatchDecoder {
  private readonly shapes = new Map<string, DecodedShape>();

  private shape(signature: string): DecodedShape {
    let shape = this.shapes.get(signature);
    if (shape === undefined) {
      if (this.shapes.size >= MAX_DECODED_SHAPES) this.shapes.clear();
      const cut = signature.indexOf('\u0000');
      shape = { kinds: signature.slice(0, cut), build: factoryFor(JSON.parse(signature.slice(cut + 1)) as string[]) };
      this.shapes.set(signature, shape);
    }
    return shape;
  }

  /** The batch's events, in line order. */
  decode(batch: EncodedBatch): object[] {
    const table: string[] = new Array<string>(batch.lengths.length);
    for (let i = 0, at = 0; i < table.length; i++) {
      const end = at + batch.lengths[i]!;
      table[i] = batch.text.slice(at, end);
      at = end;
    }
    const shapes = batch.shapes.map((signature) => this.shape(signature));
    const { shapeOf, refs, numbers, others } = batch;
    const events: object[] = new Array<object>(shapeOf.length);
    const values: unknown[] = [];
    let r = 0;
    let n = 0;
    let o = 0;
    for (let e = 0; e < events.length; e++) {
      const s = shapeOf[e]!;
      if (s < 0) {
        events[e] = others[o++]!;
        continue;
      }
      const { kinds, build } = shapes[s]!;
      for (let k = 0; k < kinds.length; k++) {
        const kind = kinds.charCodeAt(k);
        if (kind === 110 /* n */) values[k] = numbers[n++]!;
        else if (kind === 115 /* s */) values[k] = table[refs[r++]!]!;
        else {
          const length = refs[r++]!;
          const items = new Array<string>(length);
          for (let i = 0; i < length; i++) items[i] = table[refs[r++]!]!;
          values[k] = items;
        }
      }
      events[e] = build(values);
    }
    return events;
  }
}
