/** `key=value` as written on the command line (`--set`) and in query strings (`params=`). */

/** `" T = 8 "` → `{key: 'T', value: '8'}` (both trimmed); undefined when there is no key before an `=`. */
export function splitAssignment(text: string): { key: string; value: string } | undefined {
  const at = text.indexOf('=');
  if (at <= 0) return undefined;
  return { key: text.slice(0, at).trim(), value: text.slice(at + 1).trim() };
}
