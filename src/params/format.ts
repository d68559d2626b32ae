/** Parameters as text and back: `key=value` as written on the command line (`--set`) and in query strings (`params=`). */

/** `T=8,x=10,k=4`: parameters as text; a function by its name, a list comma-joined. */
export function formatParams(params: object, separator = ','): string {
  return Object.entries(params)
    .map(([key, value]) => {
      const text = typeof value === 'function' ? (value as { name: string }).name || 'custom' : Array.isArray(value) ? value.join(',') : String(value);
      return `${key}=${text}`;
    })
    .join(separator);
}

/** Parameters as people read them in output: `T=8 x=10 k=4`. */
export function describeParams(params: object): string {
  return formatParams(params, ' ');
}

/** `" T = 8 "` → `{key: 'T', value: '8'}` (both trimmed); undefined when there is no key before an `=`. */
export function splitAssignment(text: string): { key: string; value: string } | undefined {
  const at = text.indexOf('=');
  if (at <= 0) return undefined;
  return { key: text.slice(0, at).trim(), value: text.slice(at + 1).trim() };
}
