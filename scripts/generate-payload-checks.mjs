/**
 * `npm run generate`: rewrites src/events/payload-checks.ts from the schemas, through the
 * compiled generator in dist/ (built just before, even if the old generated file no longer
 * type-checks). Writes a temporary file and renames it, so a failure leaves the old file whole.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const target = fileURLToPath(new URL('../src/events/payload-checks.ts', import.meta.url));
const { payloadChecksSource } = await import('../dist/events/payload-checks-source.js');
writeFileSync(`${target}.tmp`, payloadChecksSource());
renameSync(`${target}.tmp`, target);
console.log(`wrote ${target}`);
