/**
 * The part of the WebAssembly JavaScript API that standing uses (the trust kernel). TypeScript
 * declares it only in the DOM library, which a Node project must not load.
 */
declare namespace WebAssembly {
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number; shared?: boolean });
    readonly buffer: ArrayBufferLike;
    /** Adds `pages` pages of 64 KiB; returns the previous size in pages. */
    grow(pages: number): number;
  }
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
}
