/**
 * Which scorer instance a view names. Links use instance names (`trust(observers=F1,F2)`), but
 * people type scorer ids (`#/rankings/trust`), as the API accepts: a name that is no instance's
 * names the only instance of that scorer id.
 */
import type { Scorer } from './api.js';

export type Found = { instance: Scorer } | { missing: string };

export function findInstance(list: readonly Scorer[], name: string): Found {
  const byName = list.find((s) => s.name === name);
  if (byName !== undefined) return { instance: byName };
  const ofId = list.filter((s) => s.scorer === name);
  if (ofId.length === 1) return { instance: ofId[0]! };
  const names = list.map((s) => `“${s.name}”`).join(', ');
  if (ofId.length > 1) return { missing: `${name} runs as ${ofId.map((s) => `“${s.name}”`).join(', ')}: pick one.` };
  return { missing: `No scorer instance “${name}” (configured: ${names}).` };
}
