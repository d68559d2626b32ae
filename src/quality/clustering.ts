/**
 * `clustering`: the collaborative clustering game (Quesada & Villacorta §III.7, eq. 11; docs/spec.md §2.2).
 *
 *   Q = −Σ_c mean_{d∈c} dist(d, centroid(c)) + Σ_{c1≠c2} mean_{d1∈c1, d2∈c2} dist(d1, d2)
 *
 * Euclidean distance; the second sum runs over ordered pairs of colours, so each unordered pair
 * counts twice. A move costs O(number of dots): only the moved colour's intra term and the
 * moved dot's distances to the other colours change. `quality` costs O(colours²): the state
 * keeps each colour's intra term and the pairwise distance sum of every pair of colours.
 */
import { EventConflictError } from '../errors.js';
import { defineParams } from '../params/define.js';
import type { QualityDomain } from './domain.js';
import { finiteField, idField, optionalIdField } from './payload.js';

/** The domain has no options. */
export type ClusteringOptions = Record<never, never>;

interface Colour {
  readonly name: string;
  /** Positions of the colour's dots, by slot. */
  readonly xs: number[];
  readonly ys: number[];
  /** mean_{d∈c} dist(d, centroid(c)) for the current positions. */
  intra: number;
}

export interface ClusteringState {
  /** Dot id → [colour index, slot in that colour]. */
  readonly dots: Map<string, readonly [number, number]>;
  readonly colourIndex: Map<string, number>;
  readonly colours: Colour[];
  /** pairSums[a][b] = Σ_{d1∈a, d2∈b} dist(d1, d2), kept for both orders (a ≠ b). */
  readonly pairSums: number[][];
}

interface ClusteringSnapshot {
  readonly dots: [string, number, number][];
  readonly colours: [string, number[], number[], number][];
  readonly pairSums: number[][];
}

/** mean distance of a colour's dots to their centroid: O(|c|). */
function intraTerm(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < n; i++) {
    cx += xs[i]!;
    cy += ys[i]!;
  }
  cx /= n;
  cy /= n;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.hypot(xs[i]! - cx, ys[i]! - cy);
  return sum / n;
}

/** Σ_{d∈colour} dist((x, y), d). */
function distanceSum(colour: Colour, x: number, y: number): number {
  const { xs, ys } = colour;
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += Math.hypot(xs[i]! - x, ys[i]! - y);
  return sum;
}

/** Σ_{d∈colour} (dist((x1, y1), d) − dist((x0, y0), d)), term by term for precision. */
function distanceChange(colour: Colour, x0: number, y0: number, x1: number, y1: number): number {
  const { xs, ys } = colour;
  let sum = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    sum += Math.hypot(x - x1, y - y1) - Math.hypot(x - x0, y - y0);
  }
  return sum;
}

/** Puts a new dot on the board: not a player's contribution, so no Δ. */
function place(state: ClusteringState, dot: string, colourName: string, x: number, y: number): void {
  let c = state.colourIndex.get(colourName);
  if (c === undefined) {
    c = state.colours.length;
    state.colourIndex.set(colourName, c);
    state.colours.push({ name: colourName, xs: [], ys: [], intra: 0 });
    for (const row of state.pairSums) row.push(0);
    state.pairSums.push(new Array<number>(c + 1).fill(0));
  }
  const colour = state.colours[c]!;
  const sums = state.pairSums[c]!;
  for (let c2 = 0; c2 < state.colours.length; c2++) {
    if (c2 === c) continue;
    const added = distanceSum(state.colours[c2]!, x, y);
    sums[c2]! += added;
    state.pairSums[c2]![c]! += added;
  }
  colour.xs.push(x);
  colour.ys.push(y);
  colour.intra = intraTerm(colour.xs, colour.ys);
  state.dots.set(dot, [c, colour.xs.length - 1]);
}

/**
 * Moves a dot and returns Δ = intra(c) − intra'(c) + 2 Σ_{c2≠c} change(c2) / (|c|·|c2|),
 * where change(c2) = Σ_{d2∈c2} dist(p', d2) − dist(p, d2): the factor 2 is the ordered pairs.
 */
function move(state: ClusteringState, c: number, slot: number, x: number, y: number): number {
  const colour = state.colours[c]!;
  const x0 = colour.xs[slot]!;
  const y0 = colour.ys[slot]!;
  const n = colour.xs.length;
  const sums = state.pairSums[c]!;
  let inter = 0;
  for (let c2 = 0; c2 < state.colours.length; c2++) {
    if (c2 === c) continue;
    const other = state.colours[c2]!;
    const change = distanceChange(other, x0, y0, x, y);
    sums[c2]! += change;
    state.pairSums[c2]![c]! += change;
    inter += change / (n * other.xs.length);
  }
  colour.xs[slot] = x;
  colour.ys[slot] = y;
  const before = colour.intra;
  colour.intra = intraTerm(colour.xs, colour.ys);
  return before - colour.intra + 2 * inter;
}

export const clustering: QualityDomain<ClusteringOptions, ClusteringState> = {
  name: 'clustering',
  options: defineParams<ClusteringOptions>('clustering', {}, {}),

  initialState() {
    return { dots: new Map(), colourIndex: new Map(), colours: [], pairSums: [] };
  },

  apply(state, action) {
    const dot = idField(action, 'dot');
    const x = finiteField(action, 'x');
    const y = finiteField(action, 'y');
    const colourName = optionalIdField(action, 'color');
    const known = state.dots.get(dot);
    if (known === undefined) {
      if (colourName === undefined) {
        throw new EventConflictError(undefined, 'dot', `"${dot}" is not on the board (placing it needs "color")`);
      }
      place(state, dot, colourName, x, y);
      return null;
    }
    const [c, slot] = known;
    const colour = state.colours[c]!;
    if (colourName !== undefined && colourName !== colour.name) {
      throw new EventConflictError(undefined, 'color', `"${colourName}" differs from dot "${dot}"'s colour "${colour.name}"`);
    }
    return move(state, c, slot, x, y);
  },

  quality(state) {
    const { colours, pairSums } = state;
    let q = 0;
    for (let a = 0; a < colours.length; a++) {
      const na = colours[a]!.xs.length;
      q -= colours[a]!.intra;
      for (let b = a + 1; b < colours.length; b++) {
        q += (2 * pairSums[a]![b]!) / (na * colours[b]!.xs.length);
      }
    }
    return q;
  },

  snapshot(state) {
    const dots = [...state.dots].map(([dot, [c, slot]]) => [dot, c, slot]);
    const colours = state.colours.map((c) => [c.name, c.xs, c.ys, c.intra]);
    return { dots, colours, pairSums: state.pairSums };
  },

  restore(_options, data) {
    const saved = data as ClusteringSnapshot;
    const colours = saved.colours.map(([name, xs, ys, intra]) => ({ name, xs, ys, intra }));
    return {
      dots: new Map(saved.dots.map(([dot, c, slot]) => [dot, [c, slot] as const])),
      colourIndex: new Map(colours.map((c, i) => [c.name, i])),
      colours,
      pairSums: saved.pairSums,
    };
  },
};
