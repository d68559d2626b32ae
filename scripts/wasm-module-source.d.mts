export function wasmModuleSource(wat: URL, name: string): Promise<string>;
