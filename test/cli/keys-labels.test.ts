/** issue 28: `standing keys create` refuses a label that cannot name one moderator, through the built binary. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('issue 28: standing keys create and labels', () => {
  it('refuses a label with a bidirectional, zero-width or control character (exit 2, naming --label and the code point), and a label a live key has; a revoked key frees it', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'standing-cli-keys-')), 'keys.sqlite');
    const spoof = await runCli(['keys', 'create', '--scope', 'moderate', '--label', 'adm\u202Enimda\u202C', '--db', db]);
    expect({ code: spoof.code, stdout: spoof.stdout }).toEqual({ code: 2, stdout: '' });
    expect(spoof.stderr).toBe('standing: --label: "adm\\u202enimda\\u202c" contains U+202E (a bidirectional control) at position 3: ids and labels hold no control, format (bidirectional, zero-width) or line-separator character, which would render invisibly or reorder the text around it\n');
    expect((await runCli(['keys', 'create', '--scope', 'moderate', '--label', 'mi\u200Ba', '--db', db])).stderr).toContain('contains U+200B (a zero-width character) at position 2');

    const mia = await runCli(['keys', 'create', '--scope', 'moderate', '--label', 'Mia', '--db', db]);
    expect(mia.code).toBe(0);
    const id = mia.stdout.trim().slice(4, 16);
    const twin = await runCli(['keys', 'create', '--scope', 'moderate', '--label', 'Mia ', '--db', db]);
    expect({ code: twin.code, stdout: twin.stdout }).toEqual({ code: 2, stdout: '' });
    expect(twin.stderr).toBe(`standing: key label "Mia " is the label of live key ${id}: two moderators under one name could not be told apart; revoke that key first (standing keys revoke ${id}) or choose another label; no key was made\n`);
    expect((await runCli(['keys', 'list', '--db', db])).stdout.split('\n').filter((line) => line.includes('Mia'))).toHaveLength(1);
    expect((await runCli(['keys', 'revoke', id, '--db', db])).code).toBe(0);
    expect((await runCli(['keys', 'create', '--scope', 'moderate', '--label', 'Mia', '--db', db])).code).toBe(0);
  });
});
