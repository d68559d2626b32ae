/** Writing command output; a closed pipe (`standing rank … | head`) ends quietly. */

export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function printJson(value: unknown): void {
  print(JSON.stringify(value, (_key, v: unknown) => (v === Infinity ? 'Infinity' : v), 2));
}
