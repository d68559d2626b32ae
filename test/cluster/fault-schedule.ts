/**
 * The faults of the fault tier, drawn from a seeded generator and injected one at a time for a
 * bounded phase: a worker or a gateway SIGKILLed and started again, a NATS node SIGKILLed and
 * started again on its configuration and store (it rejoins), the namespaced NATS node cut off from
 * the others and its clients and then reconnected (../support/netns-nats.ts). Every kind comes
 * once in the first four faults (in a seeded order), then any; each fault is followed by a pause.
 * What was done is written to `journal`, for the report of a failure.
 */
import type { NetnsNatsCluster } from '../support/netns-nats.js';
import type { Rng } from '../../src/util/random.js';
import type { Role } from './fault-roles.js';

export type FaultKind = 'worker' | 'gateway' | 'nats-kill' | 'nats-cut';
const KINDS: readonly FaultKind[] = ['worker', 'gateway', 'nats-kill', 'nats-cut'];

export interface FaultTargets {
  readonly workers: readonly Role[];
  readonly gateways: readonly Role[];
  readonly nats: NetnsNatsCluster;
}

export interface FaultTimes {
  /** How long the phase lasts: no fault starts after it (ms). */
  readonly phaseMs: number;
  /** A process stays down between this and twice this (ms). */
  readonly processDownMs: number;
  /** A NATS node stays down, or cut off, between this and twice this (ms). */
  readonly natsDownMs: number;
  /** The pause after each fault, between this and twice this (ms). */
  readonly pauseMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const between = (rng: Rng, ms: number) => Math.round(ms + rng() * ms);

/** A seeded order of every kind. */
function shuffled(rng: Rng): FaultKind[] {
  const kinds = [...KINDS];
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  return kinds;
}

/**
 * Injects faults until the phase ends or `halted()` (a client failed); every process and node runs
 * and the pair is up when it resolves.
 */
export async function injectFaults(rng: Rng, targets: FaultTargets, times: FaultTimes, journal: string[], halted: () => boolean): Promise<void> {
  const started = Date.now();
  const at = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const first = shuffled(rng);
  for (let i = 0; Date.now() - started < times.phaseMs && !halted(); i++) {
    const kind = first[i] ?? pick(rng, KINDS);
    if (kind === 'worker' || kind === 'gateway') {
      const role = pick(rng, kind === 'worker' ? targets.workers : targets.gateways);
      const down = between(rng, times.processDownMs);
      journal.push(`${at()}: SIGKILL ${role.name}, down for ${down} ms`);
      await role.kill();
      await sleep(down);
      await role.start();
      journal.push(`${at()}: ${role.name} runs again`);
    } else if (kind === 'nats-kill') {
      const node = Math.floor(rng() * 3);
      const down = between(rng, times.natsDownMs);
      journal.push(`${at()}: SIGKILL NATS node n${node + 1}, down for ${down} ms`);
      await targets.nats.kill(node);
      await sleep(down);
      targets.nats.start(node);
      journal.push(`${at()}: NATS node n${node + 1} started again`);
    } else {
      const down = between(rng, times.natsDownMs);
      journal.push(`${at()}: NATS node n3 cut off (namespace ${targets.nats.namespace}) for ${down} ms`);
      targets.nats.cut();
      await sleep(down);
      targets.nats.restore();
      journal.push(`${at()}: NATS node n3 reconnected`);
    }
    await sleep(between(rng, times.pauseMs));
  }
}
