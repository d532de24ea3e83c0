// The protocol package is runtime-neutral: it compiles without DOM or Node types and declares
// only the few web-platform globals it uses, all of which exist in browsers, Workers, Deno, Bun
// and Node 18+.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array): string;
}
declare function btoa(data: string): string;
declare function atob(data: string): string;
declare const __TWOFOLD_VERSION__: string;
interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
}
// Web Crypto's SHA-256 (skill digests): global in browsers, Workers, Deno, Bun and Node 19+.
declare const crypto: {
  readonly subtle: { digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer> };
};
