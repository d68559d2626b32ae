#!/usr/bin/env bash
# The package as a user gets it: `npm pack`, installed into an empty project, runs
# `npx standing rank` and imports the core without loading the service stack.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npm pack --silent --pack-destination "$work" > /dev/null
mkdir "$work/project"
cp examples/cqr-table1.ndjson "$work/project/"
cd "$work/project"
npm init -y > /dev/null
npm install --silent --no-audit --no-fund "$work"/standing-*.tgz
npx standing rank cqr cqr-table1.ndjson --top 1 --format json | grep -q '"player": "f1"'
node --input-type=module -e "
  import { createRequire } from 'node:module';
  const core = await import('standing');
  const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('node_modules'));
  if (loaded.length > 0 || typeof core.validateEvent !== 'function') { console.error('the core loaded', loaded); process.exit(1); }
  const { openStore } = await import('standing/store');
  const store = await openStore('store.sqlite');
  await store.close();
  const { StandingClient } = await import('standing/client');
  if (typeof new StandingClient({ url: 'http://127.0.0.1:1' }).ranking !== 'function') { console.error('standing/client has no client'); process.exit(1); }
"
echo "pack: npx standing rank, the light core, standing/store and standing/client work from the packed package"
