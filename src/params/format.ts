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
