/**
 * Rewrites the generated parts of docs/abuse.md, and its figures in docs/abuse/, from the attack
 * suite's JSON: `node scripts/abuse-doc.mjs [suite.json]`. Without a file it runs
 * `standing simulate attacks --format json --data DIR` from dist/ (build first), DIR being
 * STANDING_DATA or ../shared/data. Each generated part sits between `<!-- abuse:NAME -->` and
 * `<!-- /abuse:NAME -->`; the prose around them is left as it is.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const page = `${root}docs/abuse.md`;
const figures = `${root}docs/abuse`;
const data = process.env.STANDING_DATA ?? fileURLToPath(new URL('../../shared/data', import.meta.url));
const text =
  process.argv[2] === undefined
    ? execFileSync(process.execPath, [`${root}dist/cli/main.js`, 'simulate', 'attacks', '--format', 'json', '--data', data], { maxBuffer: 1 << 28 }).toString()
    : readFileSync(process.argv[2], 'utf8');
const suite = JSON.parse(text);
const { lineChart } = await import('../dist/plots/svg.js');

const number = (v) => (v === null ? 'never' : Number.isInteger(v) ? v.toLocaleString('en-US') : String(Number(v.toFixed(3))));
const ratio = (v) => (v === null ? '—' : v.toFixed(3));
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const cost = (c) =>
  Object.entries(c)
    .map(([k, v]) => `${v.toLocaleString('en-US')} ${k.replace(/[A-Z]/g, (m) => ` ${m.toLowerCase()}`)}`)
    .join(', ');
const params = (p) =>
  Object.entries(p)
    .map(([k, v]) => `\`${k}=${v}\``)
    .join(' ');

const c = suite.community;
const parts = {
  community: `Seed ${c.seed}: ${c.players.toLocaleString('en-US')} players (${c.trulyBad} truly bad), ${c.matches.toLocaleString('en-US')} matches and ${c.events.toLocaleString('en-US')} events over ${c.days} days (${Object.entries(c.eventsByType)
    .map(([t, n]) => `${n.toLocaleString('en-US')} \`${t}\``)
    .join(', ')}).`,
  recommended: table(
    ['scorer', 'recommended parameters'],
    [...new Map(suite.attacks.filter((r) => r.defence === 'recommended').map((r) => [r.attack.split('/')[0], params(r.params)]))].map(([s, p]) => [`\`${s}\``, p]),
  ),
  attacks: table(
    ['attack', 'defence', 'cost', 'effect', 'measure', 'goal', 'met'],
    suite.attacks.map((r) => [
      `\`${r.attack}\``,
      r.defence === 'recommended' ? '**recommended**' : r.defence,
      cost(r.cost),
      number(r.effect.value),
      r.effect.measure,
      r.goal ?? '',
      r.met === null ? '' : r.met ? 'yes' : '**no**',
    ]),
  ),
  stronger: table(
    ['attack', 'stronger attacker', 'defence', 'effect'],
    suite.attacks.filter((r) => r.defence === 'published' || r.defence === 'recommended').flatMap((r) => {
      const out = [];
      if ('withFreshAccountsEveryMatch' in r.effect) out.push([`\`${r.attack}\``, 'fresh established accounts for every match', r.defence, `${number(r.effect.withFreshAccountsEveryMatch)} shared matches until the innocent outranks the weakest truly bad player`]);
      if ('withTrustedEndorsers' in r.effect) out.push([`\`${r.attack}\` (${r.effect.ring.toLocaleString('en-US')} fakes)`, 'endorsers from the most trusted tenth', r.defence, `${number(r.effect.withTrustedEndorsers)} accepted fakes per attack edge`]);
      return out;
    }),
  ),
  honest: table(
    ['scorer', 'defence', 'Spearman with published', 'detection AUC'],
    suite.honest.map((h) => [`\`${h.scorer}\``, h.defence, ratio(h.spearman), ratio(h.auc)]),
  ),
  'real-data': table(
    ['data set', 'scorer', 'events', 'players', 'Spearman with published', 'goal', 'met'],
    (suite.realData ?? []).map((r) => [r.dataSet, `\`${r.scorer}\``, number(r.events), number(r.players), ratio(r.spearman), r.goal, r.met ? 'yes' : '**no**']),
  ),
  figures: suite.curves.map((k) => `![${k.title}](abuse/${k.name}.svg)`).join('\n\n'),
};

mkdirSync(figures, { recursive: true });
for (const k of suite.curves) writeFileSync(`${figures}/${k.name}.svg`, lineChart({ title: k.title, xLabel: k.xLabel, yLabel: k.yLabel, series: k.series }));

let doc = readFileSync(page, 'utf8');
for (const [name, body] of Object.entries(parts)) {
  const pattern = new RegExp(`(<!-- abuse:${name} -->)[\\s\\S]*?(<!-- /abuse:${name} -->)`);
  if (!pattern.test(doc)) throw new Error(`docs/abuse.md has no <!-- abuse:${name} --> block`);
  doc = doc.replace(pattern, (_m, open, close) => `${open}\n${body}\n${close}`);
}
writeFileSync(page, doc);
console.log(`wrote ${page} and ${suite.curves.length} figures in ${figures}`);
