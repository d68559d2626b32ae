/**
 * Rewrites the generated parts of docs/moderation.md's "The queue's measured worth" from
 * `standing simulate queue`'s JSON: `node scripts/queue-doc.mjs [queue.json]`. Without a file it
 * runs `standing simulate queue --format json` from dist/ (build first). Each generated part sits
 * between `<!-- queue:NAME -->` and `<!-- /queue:NAME -->`; the prose around them is left as it is.
 * The table's cells are the CLI's (dist/simulations/queue/table.js), set as Markdown.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const page = `${root}docs/moderation.md`;
const text =
  process.argv[2] === undefined
    ? execFileSync(process.execPath, [`${root}dist/cli/main.js`, 'simulate', 'queue', '--format', 'json'], { maxBuffer: 1 << 26 }).toString()
    : readFileSync(process.argv[2], 'utf8');
const result = JSON.parse(text);
const { queueTable } = await import('../dist/simulations/queue/table.js');

const table = queueTable(result);
const markdown = (titles, rows) => [`| ${titles.join(' | ')} |`, `|${titles.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const c = result.community;
const unmet = result.targets.filter((t) => !t.met);
const parts = {
  community: `Seed ${c.seed}: ${c.players.toLocaleString('en-US')} players (${c.trulyBad} truly bad), ${c.matches.toLocaleString('en-US')} matches and ${c.events.toLocaleString('en-US')} events over ${c.days} days.`,
  scenarios: result.scenarios.map((s) => `- \`${s.name}\`: ${s.description}${s.events > 0 ? ` (${s.events.toLocaleString('en-US')} events)` : ''}.`).join('\n'),
  table: markdown(
    table.titles,
    table.rows.map((row) => row.map((cell, i) => (i === 0 ? `\`${cell}\`` : i === 1 && cell.startsWith('queue, recommended') ? `**${cell}**` : cell))),
  ),
  target: markdown(
    ['scenario', `P@${c.trulyBad}, queue (recommended)`, `P@${c.trulyBad}, most reports`, 'lead checked', 'innocents in the first 50', 'met'],
    result.targets.map((t) => [`\`${t.scenario}\``, t.precision.toFixed(3), t.mostReports.toFixed(3), t.leadChecked ? 'yes' : '', t.innocentsInCutoff === null ? '' : String(t.innocentsInCutoff), t.met ? 'yes' : '**no**']),
  ) + `\n\nTarget: ${result.goal}. ${unmet.length === 0 ? 'Met in every scenario.' : `Not met under ${unmet.map((t) => `\`${t.scenario}\``).join(', ')}.`}`,
};

let doc = readFileSync(page, 'utf8');
for (const [name, body] of Object.entries(parts)) {
  const pattern = new RegExp(`(<!-- queue:${name} -->)[\\s\\S]*?(<!-- /queue:${name} -->)`);
  if (!pattern.test(doc)) throw new Error(`docs/moderation.md has no <!-- queue:${name} --> block`);
  doc = doc.replace(pattern, (_m, open, close) => `${open}\n${body}\n${close}`);
}
writeFileSync(page, doc);
console.log(`wrote ${page}`);
