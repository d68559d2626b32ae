/**
 * `standing backtest --rules FILE LOG`: what the rules of a configuration file would have done on
 * a log, per rule (../../moderation/rules/backtest.ts), as a table or JSON; `--compare OTHER`
 * replays the log with a second file's rules and sets the two side by side. The configuration's
 * modules (the service's) are imported when the command runs, so help does not load them.
 */
import type { Command } from 'commander';
import { openEventSource } from '../../events/ndjson.js';
import type { BacktestOutcome } from '../../service/backtest.js';
import type { RuleReport } from '../../moderation/rules/report.js';
import { formatNumber, renderTable } from '../../util/text-table.js';
import { UsageError } from '../errors.js';
import { print, printJson } from '../output.js';

interface BacktestFlags {
  rules: string;
  compare?: string;
  format: string;
  community?: string;
}

/** What a rule does, in a few words: `propose`, `warn`, `mute 10m, 1h, 1d`, `mute (dry run)`. */
function actionText(report: RuleReport): string {
  const ladder = report.ladder.length === 0 ? '' : ` ${report.ladder.join(', ')}`;
  return `${report.action}${ladder}${report.dryRun && report.action !== 'propose' ? ' (dry run)' : ''}`;
}

const share = (value: number | null) => (value === null ? '—' : formatNumber(Math.round(value * 1000) / 1000));

function reportTable(outcome: BacktestOutcome): string {
  if (outcome.reports.length === 0) return '(no rules)';
  return renderTable(
    [
      { title: 'rule' },
      { title: 'action' },
      { title: 'actions', align: 'right' },
      { title: 'players', align: 'right' },
      { title: 'escalations', align: 'right' },
      { title: 'overturned', align: 'right' },
      { title: 'trips', align: 'right' },
      { title: 'judged', align: 'right' },
      { title: 'precision', align: 'right' },
      { title: 'recall', align: 'right' },
    ],
    outcome.reports.map((r) => [r.name, actionText(r), String(r.actions), String(r.players), String(r.escalations), String(r.overturned), String(r.trips), String(r.verdicts.judged), share(r.precision), share(r.recall)]),
  );
}

/** Per rule name of either set: the two reports side by side, and the players only one of them acted on. */
export function compareOutcomes(a: BacktestOutcome, b: BacktestOutcome) {
  const names = [...new Set([...a.reports.map((r) => r.name), ...b.reports.map((r) => r.name)])];
  const acted = (outcome: BacktestOutcome, rule: string) => new Set(outcome.decisions.filter((d) => d.rule === rule).map((d) => `${d.community}\u0000${d.player}`));
  return names.map((name) => {
    const ra = a.reports.find((r) => r.name === name);
    const rb = b.reports.find((r) => r.name === name);
    const pa = acted(a, name);
    const pb = acted(b, name);
    return {
      rule: name,
      in: ra !== undefined && rb !== undefined ? 'both' : ra !== undefined ? 'rules' : 'compare',
      actions: [ra?.actions ?? null, rb?.actions ?? null],
      players: [ra?.players ?? null, rb?.players ?? null],
      precision: [ra?.precision ?? null, rb?.precision ?? null],
      recall: [ra?.recall ?? null, rb?.recall ?? null],
      onlyRules: [...pa].filter((p) => !pb.has(p)).length,
      onlyCompare: [...pb].filter((p) => !pa.has(p)).length,
    };
  });
}

const pair = (values: readonly (number | null)[], format: (v: number | null) => string = (v) => (v === null ? '—' : String(v))) => `${format(values[0]!)} → ${format(values[1]!)}`;

export function registerBacktest(program: Command): void {
  program
    .command('backtest')
    .description("replay a log with a configuration's moderation rules and report what each would have done")
    .argument('<log>', 'NDJSON event log, or - for standard input')
    .requiredOption('--rules <file>', 'the configuration file holding the rules (as `standing serve --config` takes it: its scorers, defences, quality and rules are used)')
    .option('--compare <file>', "another configuration file: its rules are replayed too and set beside the first's")
    .option('--community <name>', 'report on this community only')
    .option('--format <format>', 'table or json', 'table')
    .addHelpText(
      'after',
      ['', 'Examples:', '  standing backtest --rules rules.json game.ndjson', '  standing backtest --rules rules.json --compare stricter.json game.ndjson --format json'].join('\n'),
    )
    .action(async (log: string, flags: BacktestFlags) => {
      if (flags.format !== 'table' && flags.format !== 'json') throw new UsageError(`--format expects table or json, got "${flags.format}"`);
      if (log === '-' && flags.compare !== undefined) throw new UsageError('--compare replays the log twice: give a file, not standard input');
      const { backtest } = await import('../../service/backtest.js');
      const { configFromFile } = await import('../../service/load-config.js');
      const options = flags.community === undefined ? {} : { community: flags.community };
      const first = await backtest(configFromFile(flags.rules, '--rules'), openEventSource(log), options);
      const second = flags.compare === undefined ? undefined : await backtest(configFromFile(flags.compare, '--compare'), openEventSource(log), options);
      if (flags.format === 'json') {
        printJson({
          log,
          rules: { file: flags.rules, ...first },
          ...(second === undefined ? {} : { compare: { file: flags.compare, ...second }, diff: compareOutcomes(first, second) }),
        });
        return;
      }
      const lines = [`standing backtest: ${first.events} events of ${log === '-' ? 'standard input' : log}, ${first.communities.length} ${first.communities.length === 1 ? 'community' : 'communities'}${flags.community === undefined ? '' : ` (--community ${flags.community})`}`, '', `rules of ${flags.rules}:`, reportTable(first)];
      for (const notice of first.notices) if (notice.kind === 'paused') lines.push(`  ${notice.rule} paused in community ${notice.community} at ${new Date(notice.time).toISOString()}: it would have acted on ${notice.players} players within an hour, over its limit of ${notice.limit} (of ${notice.active} active)`);
      if (second !== undefined) {
        lines.push('', `rules of ${flags.compare}:`, reportTable(second));
        for (const notice of second.notices) if (notice.kind === 'paused') lines.push(`  ${notice.rule} paused in community ${notice.community} at ${new Date(notice.time).toISOString()}: it would have acted on ${notice.players} players within an hour, over its limit of ${notice.limit} (of ${notice.active} active)`);
        lines.push(
          '',
          `${flags.rules} → ${flags.compare}:`,
          renderTable(
            [{ title: 'rule' }, { title: 'actions' }, { title: 'players' }, { title: 'precision' }, { title: 'recall' }, { title: 'acted on only by the first', align: 'right' }, { title: 'only by the second', align: 'right' }],
            compareOutcomes(first, second).map((d) => [d.rule, pair(d.actions), pair(d.players), pair(d.precision, share), pair(d.recall, share), String(d.onlyRules), String(d.onlyCompare)]),
          ),
        );
      }
      lines.push('', 'judged: players acted on that a person gave a verdict on; precision: the share of them upheld; recall: the share of the players a person upheld that the rule acted on.');
      print(lines.join('\n'));
    });
}
