/**
 * The team figures in /metrics (docs/moderation.md#in-metrics), summed over every community
 * (../service/team.ts): the record's figures computed from the moderation record, so they survive
 * a restart and match a replay (a counter may go down when an erasure removes what it counted:
 * Prometheus reads that as a counter reset); the queue's from the queues the service holds,
 * computed for a read — a scrape computes no queue.
 *
 * Labels stay bounded whatever the record holds: the `TOP` moderators with the most decisions
 * get a series each, everyone else (and decisions recorded without a moderator) is `other`;
 * likewise the `TOP` rules with the most firings. The `case`, `by`, `kind` labels have fixed
 * values. GET /v1/team has every moderator and rule of one community.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { noDecisions, quantile, totalDecisions, type CaseKind, type DecidedBy, type DecisionCounts, type QueueTeam, type RecordTeam } from '../moderation/team.js';
import type { TeamFigures } from '../service/team.js';
import { WAIT_BUCKETS_SECONDS } from './schemas/team.js';

/** Moderators (and rules) with a series of their own; the rest are `other`. */
export const TOP = 20;
export const OTHER = 'other';

const KINDS = ['verdicts', 'reportVerdicts', 'sanctions', 'lifts', 'appealDecisions'] as const satisfies readonly (keyof DecisionCounts)[];
const KIND_LABEL: Readonly<Record<(typeof KINDS)[number], string>> = { verdicts: 'verdict', reportVerdicts: 'report_verdict', sanctions: 'sanction', lifts: 'lift', appealDecisions: 'appeal_decision' };

/** Every community's figures summed. */
interface Totals {
  readonly decisions: DecisionCounts;
  readonly moderators: Map<string, { decisions: DecisionCounts; granted: number }>;
  readonly rules: Map<string, { sanctions: number; proposals: number; overturned: number }>;
  readonly waits: Record<CaseKind, Record<DecidedBy, number[]>>;
  readonly queue: { length: number; ages: number[] };
}

function sum(records: readonly RecordTeam[], queues: readonly QueueTeam[]): Totals {
  const totals: Totals = { decisions: noDecisions(), moderators: new Map(), rules: new Map(), waits: { player: { moderator: [], rule: [] }, appeal: { moderator: [], rule: [] } }, queue: { length: 0, ages: [] } };
  for (const team of records) {
    for (const kind of KINDS) totals.decisions[kind] += team.decisions[kind];
    for (const [name, t] of team.moderators) {
      let m = totals.moderators.get(name);
      if (m === undefined) totals.moderators.set(name, (m = { decisions: noDecisions(), granted: 0 }));
      for (const kind of KINDS) m.decisions[kind] += t[kind];
      m.granted += t.appealsGranted;
    }
    for (const [name, t] of team.rules) {
      const r = totals.rules.get(name) ?? { sanctions: 0, proposals: 0, overturned: 0 };
      totals.rules.set(name, { sanctions: r.sanctions + t.sanctions, proposals: r.proposals + t.proposals, overturned: r.overturned + t.overturned });
    }
    for (const kind of ['player', 'appeal'] as const) for (const by of ['moderator', 'rule'] as const) totals.waits[kind][by].push(...team.waits[kind][by]);
  }
  for (const queue of queues) {
    totals.queue.length += queue.length;
    totals.queue.ages.push(...queue.ages);
  }
  return totals;
}

/** The `TOP` names with the largest `size`, then by name. */
function top<T>(map: ReadonlyMap<string, T>, size: (value: T) => number): Set<string> {
  return new Set(
    [...map]
      .sort(([a, x], [b, y]) => size(y) - size(x) || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, TOP)
      .map(([name]) => name),
  );
}

const same = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function registerTeamMetrics(registry: Registry, team: Pick<TeamFigures, 'metrics'>): void {
  // One sum while nothing changes: the parts are kept objects, reused until what they are made of changes.
  let memo: { records: readonly RecordTeam[]; queues: readonly QueueTeam[]; totals: Totals } | undefined;
  const totals = (): Totals => {
    const { records, queues } = team.metrics();
    if (memo === undefined || !same(memo.records, records) || !same(memo.queues, queues)) memo = { records, queues, totals: sum(records, queues) };
    return memo.totals;
  };
  const registers = [registry];

  new Counter({
    name: 'standing_team_decisions_total',
    help: `Moderator decisions, by moderator (the ${TOP} with the most decisions; the rest, and decisions without a moderator, are "${OTHER}") and kind (verdict, report_verdict, sanction, lift, appeal_decision); rules are moderators named rule:<name>`,
    labelNames: ['moderator', 'kind'] as const,
    registers,
    collect() {
      const t = totals();
      this.reset();
      const named = top(t.moderators, (m) => totalDecisions(m.decisions));
      for (const kind of KINDS) {
        let rest = t.decisions[kind];
        for (const name of named) {
          const n = t.moderators.get(name)!.decisions[kind];
          this.inc({ moderator: name, kind: KIND_LABEL[kind] }, n);
          rest -= n;
        }
        this.inc({ moderator: OTHER, kind: KIND_LABEL[kind] }, rest);
      }
    },
  });

  new Counter({
    name: 'standing_team_appeals_granted_total',
    help: `Appeals granted against a moderator's sanctions, by the moderator who imposed them (the same ${TOP} as standing_team_decisions_total; the rest "${OTHER}")`,
    labelNames: ['moderator'] as const,
    registers,
    collect() {
      const t = totals();
      this.reset();
      const named = top(t.moderators, (m) => totalDecisions(m.decisions));
      let rest = 0;
      for (const [name, m] of t.moderators) {
        if (named.has(name)) this.inc({ moderator: name }, m.granted);
        else rest += m.granted;
      }
      this.inc({ moderator: OTHER }, rest);
    },
  });

  new Histogram({
    name: 'standing_team_decision_wait_seconds',
    help: "Wait from entering the queue to a decision, in event time, per case (player: from the first signal after the player's last handling to the next handling; appeal: from opening to decision) and who decided (moderator, rule)",
    labelNames: ['case', 'by'] as const,
    buckets: [...WAIT_BUCKETS_SECONDS],
    registers,
    collect() {
      const t = totals();
      this.reset();
      for (const kind of ['player', 'appeal'] as const) {
        for (const by of ['moderator', 'rule'] as const) {
          this.zero({ case: kind, by });
          for (const ms of t.waits[kind][by]) this.observe({ case: kind, by }, ms / 1000);
        }
      }
    },
  });

  new Counter({
    name: 'standing_team_rule_firings_total',
    help: `Rule firings, by rule (the ${TOP} with the most firings; the rest "${OTHER}") and kind (sanction, proposal)`,
    labelNames: ['rule', 'kind'] as const,
    registers,
    collect() {
      const t = totals();
      this.reset();
      const named = top(t.rules, (r) => r.sanctions + r.proposals);
      const rest = { sanctions: 0, proposals: 0 };
      for (const [name, r] of t.rules) {
        if (named.has(name)) {
          this.inc({ rule: name, kind: 'sanction' }, r.sanctions);
          this.inc({ rule: name, kind: 'proposal' }, r.proposals);
        } else {
          rest.sanctions += r.sanctions;
          rest.proposals += r.proposals;
        }
      }
      if (t.rules.size > named.size) {
        this.inc({ rule: OTHER, kind: 'sanction' }, rest.sanctions);
        this.inc({ rule: OTHER, kind: 'proposal' }, rest.proposals);
      }
    },
  });

  new Counter({
    name: 'standing_team_rule_overturned_total',
    help: `Rule firings overturned (an appeal against the sanction granted, or the next handling by a moderator a dismissed verdict), by rule (as standing_team_rule_firings_total)`,
    labelNames: ['rule'] as const,
    registers,
    collect() {
      const t = totals();
      this.reset();
      const named = top(t.rules, (r) => r.sanctions + r.proposals);
      let rest = 0;
      for (const [name, r] of t.rules) {
        if (named.has(name)) this.inc({ rule: name }, r.overturned);
        else rest += r.overturned;
      }
      if (t.rules.size > named.size) this.inc({ rule: OTHER }, rest);
    },
  });

  new Gauge({
    name: 'standing_team_queue_players',
    help: 'Players in the attention queues the service holds (computed for a read: GET /v1/queue, a case, GET /v1/team, the dashboard), over their communities',
    registers,
    collect() {
      this.set(totals().queue.length);
    },
  });

  new Gauge({
    name: 'standing_team_queue_dated_players',
    help: 'Of the players in the attention queues the service holds, those whose wait so far is known (a signal after their last handling, or an open appeal)',
    registers,
    collect() {
      this.set(totals().queue.ages.length);
    },
  });

  new Gauge({
    name: 'standing_team_queue_wait_seconds',
    help: 'Wait so far of the dated players in the attention queues the service holds, in event time at each queue\'s computation: the median (quantile 0.5) and the longest (quantile 1); absent while none is dated',
    labelNames: ['quantile'] as const,
    registers,
    collect() {
      this.reset();
      const ages = [...totals().queue.ages].sort((a, b) => a - b);
      if (ages.length === 0) return;
      this.set({ quantile: '0.5' }, quantile(ages, 0.5) / 1000);
      this.set({ quantile: '1' }, ages[ages.length - 1]! / 1000);
    },
  });
}

